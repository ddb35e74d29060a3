import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  LoggingLevelSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type CallToolResult,
  type LoggingLevel,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type {
  JsonSchemaValidatorResult,
  jsonSchemaValidator,
} from '@modelcontextprotocol/sdk/validation/types.js';
import { z } from 'zod';
import { SERVICE_VERSION } from '../../../src/integrations/discovery-cards.ts';
import { MCP_TOOLS } from '../../../src/schemas/mcp-tools.ts';
import type { MemoryFailure } from '../errors.ts';
import { complete } from './completions.ts';
import { getPrompt, PROMPTS } from './prompts.ts';
import { requestReporter, silentReporter } from './reporter.ts';
import { listResources, readResource, RESOURCE_TEMPLATES } from './resources.ts';
import type { McpTool, ToolContext } from './tool.ts';
import {
  failureOf,
  mcpFailure,
  mcpProblem,
  okResult,
  thrownResult,
  type ProblemContext,
} from './tool-result.ts';
import { MCP_TOOL_HANDLERS } from './tools/index.ts';

// The server card (built from src/integrations/discovery-cards.ts) names the same version.
export const SERVER_INFO = { name: 'engram-memory', version: SERVICE_VERSION } as const;

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

/** JSON-RPC code of an operation failure outside tools (resources, prompts). */
function rpcCode(f: MemoryFailure): number {
  if (f.kind === 'not-found') return -32002; // MCP: resource not found
  if (f.kind === 'validation-error') return ErrorCode.InvalidParams;
  if (f.kind === 'internal') return ErrorCode.InternalError;
  return ErrorCode.InvalidRequest;
}

/**
 * Runs a resource, prompt or completion handler; an operation failure becomes a JSON-RPC error
 * whose `data` is the same problem body REST would answer.
 */
async function asRpc<T>(problem: ProblemContext, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof McpError) throw err;
    const f = mcpFailure(failureOf(err, problem));
    const body = mcpProblem(f, problem);
    throw new McpError(rpcCode(f), `${body.status} ${body.title}: ${body.detail}`, body);
  }
}

export interface ServerOptions {
  /** The level the client set with `logging/setLevel` (kept per credential), or null. */
  logLevel: LoggingLevel | null;
}

const MAX_URI = 2048;

// The SDK's own schema rejects an unknown level before any handler runs, as an internal error
// (-32603); this one lets the handler answer it as the invalid params it is (-32602).
const LooseSetLevelRequest = z.object({
  method: z.literal('logging/setLevel'),
  params: z.looseObject({ level: z.unknown() }),
});

/**
 * A fresh MCP server for one request. The low-level `Server` is used instead of `McpServer`
 * because `McpServer` turns unknown tools and invalid arguments into `isError` results, while
 * the service promises a JSON-RPC error for those protocol faults and `isError` only for
 * operation failures.
 */
export function buildServer(
  ctx: Omit<ToolContext, 'report'>,
  problem: Omit<ProblemContext, 'instance'>,
  options: ServerOptions = { logLevel: null },
): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: {
      tools: {},
      resources: { subscribe: true },
      prompts: {},
      completions: {},
      logging: {},
    },
    instructions:
      'Agent memory: remember facts, recall them by query, update them with history kept, build context blocks, chat over memory, log session turns and upload documents. Resources (memory://{context_id}/...) expose facts, sessions, documents and the context block; prompts brief on a topic, a session or a person. Lenses are scope paths in disjunctive normal form.',
    jsonSchemaValidator: noValidator,
  });
  const quiet: ToolContext = { ...ctx, report: silentReporter };
  const tools = liveTools();
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(
    CallToolRequestSchema,
    async (request, extra): Promise<CallToolResult> => {
      const tool = findTool(request.params.name);
      const parsed = tool.input.safeParse(request.params.arguments ?? {});
      if (!parsed.success) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `Invalid arguments for tool ${tool.name}: ${z.prettifyError(parsed.error)}`,
        );
      }
      const report = requestReporter({
        send: (n) => extra.sendNotification(n),
        progressToken: request.params._meta?.progressToken,
        logLevel: options.logLevel,
        isSubscribed: (uri) => ctx.state.isSubscribed(uri),
        logger: `engram.tools.${tool.name}`,
      });
      const instance = `/mcp#${tool.name}`;
      try {
        return okResult(await tool.run(parsed.data, { ...ctx, report }));
      } catch (err) {
        const result = thrownResult(err, { ...problem, instance });
        // Clients that set a log level also hear about failed calls as log messages.
        await report.log('error', { tool: tool.name, error: result.structuredContent?.error });
        return result;
      }
    },
  );

  server.setRequestHandler(LooseSetLevelRequest, async (request) => {
    const level = LoggingLevelSchema.safeParse(request.params.level);
    if (!level.success) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `level: one of ${LoggingLevelSchema.options.join(', ')}`,
      );
    }
    await ctx.state.setLogLevel(level.data);
    return {};
  });

  server.setRequestHandler(ListResourcesRequestSchema, (request) =>
    asRpc({ ...problem, instance: '/mcp#resources/list' }, () =>
      listResources(request.params?.cursor, quiet),
    ),
  );
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: RESOURCE_TEMPLATES,
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) =>
    asRpc({ ...problem, instance: '/mcp#resources/read' }, () =>
      readResource(request.params.uri, quiet),
    ),
  );
  // Subscriptions are kept per credential (KV); updates are sent on the stream of the request
  // that observes the change (upload or document_status with wait_seconds).
  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    await ctx.state.subscribe(checkedUri(request.params.uri));
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    await ctx.state.unsubscribe(checkedUri(request.params.uri));
    return {};
  });

  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: PROMPTS }));
  server.setRequestHandler(GetPromptRequestSchema, (request) =>
    asRpc({ ...problem, instance: `/mcp#prompts/${request.params.name}` }, () =>
      getPrompt(request.params.name, request.params.arguments, quiet),
    ),
  );
  server.setRequestHandler(CompleteRequestSchema, (request) =>
    asRpc({ ...problem, instance: '/mcp#completion/complete' }, () =>
      complete(request.params, quiet),
    ),
  );
  return server;
}

function checkedUri(uri: string): string {
  if (uri.length > MAX_URI || !URL.canParse(uri)) {
    throw new McpError(
      ErrorCode.InvalidParams,
      'uri: not an absolute URI of at most 2048 characters',
    );
  }
  return uri;
}

function findTool(name: string): McpTool {
  const tool = MCP_TOOL_HANDLERS.find((t) => t.name === name);
  if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  return tool;
}
