import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type {
  JsonSchemaValidatorResult,
  jsonSchemaValidator,
} from '@modelcontextprotocol/sdk/validation/types.js';
import { z } from 'zod';
import { MCP_TOOLS } from '../../../src/schemas/mcp-tools.ts';
import type { McpTool, ToolContext } from './tool.ts';
import { okResult, thrownResult, type ProblemContext } from './tool-result.ts';
import { MCP_TOOL_HANDLERS } from './tools/index.ts';

export const SERVER_INFO = { name: 'engram-memory', version: '1.0.0' } as const;

/** The live tool list: definitions in src/schemas/mcp-tools.ts joined with their handlers. */
export function liveTools(): Tool[] {
  return MCP_TOOL_HANDLERS.map((tool) => {
    const summary = MCP_TOOLS.find((t) => t.name === tool.name);
    return {
      name: tool.name,
      title: summary?.title,
      description: summary?.description,
      inputSchema: z.toJSONSchema(tool.input, { io: 'input' }) as Tool['inputSchema'],
      outputSchema: z.toJSONSchema(tool.output, { io: 'output' }) as Tool['outputSchema'],
      annotations: { title: summary?.title, ...tool.annotations },
    };
  });
}

// The validator is only used for elicitation, which this server never sends; the default (Ajv)
// compiles schemas with `new Function`, which Workers forbid.
const noValidator: jsonSchemaValidator = {
  getValidator<T>() {
    return (input: unknown): JsonSchemaValidatorResult<T> => ({
      valid: true,
      data: input as T,
      errorMessage: undefined,
    });
  },
};

/**
 * A fresh MCP server for one request. The low-level `Server` is used instead of `McpServer`
 * because `McpServer` turns unknown tools and invalid arguments into `isError` results, while
 * the service promises a JSON-RPC error for those protocol faults and `isError` only for
 * operation failures.
 */
export function buildServer(ctx: ToolContext, problem: Omit<ProblemContext, 'instance'>): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {} },
    instructions:
      'Agent memory: remember facts, recall them by query, build context blocks, chat over memory, and upload documents. Lenses are scope paths in disjunctive normal form.',
    jsonSchemaValidator: noValidator,
  });
  const tools = liveTools();
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = findTool(request.params.name);
    const parsed = tool.input.safeParse(request.params.arguments ?? {});
    if (!parsed.success) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Invalid arguments for tool ${tool.name}: ${z.prettifyError(parsed.error)}`,
      );
    }
    try {
      return okResult(await tool.run(parsed.data, ctx));
    } catch (err) {
      return thrownResult(err, { ...problem, instance: `/mcp#${tool.name}` });
    }
  });
  return server;
}

function findTool(name: string): McpTool {
  const tool = MCP_TOOL_HANDLERS.find((t) => t.name === name);
  if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  return tool;
}
