import {
  ErrorCode,
  McpError,
  type GetPromptResult,
  type Prompt,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { MCP_PROMPTS } from '../../../src/schemas/mcp-tools.ts';
import { query } from '../operations/query.ts';
import { getSession, listTurns, MAX_TURNS_PAGE } from '../operations/sessions.ts';
import { memoryUri } from './resources.ts';
import type { ToolContext } from './tool.ts';

/**
 * Prompts: ready-made user messages that carry what memory holds, fetched with the caller's
 * grants (through the same operations as REST), so an agent can start a conversation from them.
 */

/** The prompts, as src/schemas/mcp-tools.ts defines them for the server card too. */
export const PROMPTS: Prompt[] = MCP_PROMPTS;

const ARGS = {
  recall_topic: z.object({
    topic: z.string().min(1).max(4_000),
    scope: z.string().min(1).max(512).optional(),
    context_id: z.string().min(1).max(128).optional(),
  }),
  summarize_session: z.object({
    session_id: z.string().min(1).max(200),
    context_id: z.string().min(1).max(128).optional(),
  }),
  about_person: z.object({
    name: z.string().min(1).max(200),
    context_id: z.string().min(1).max(128).optional(),
  }),
};

function parseArgs<S extends z.ZodObject>(name: string, schema: S, args: unknown): z.infer<S> {
  const parsed = schema.safeParse(args ?? {});
  if (!parsed.success) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Invalid arguments for prompt ${name}: ${z.prettifyError(parsed.error)}`,
    );
  }
  return parsed.data;
}

function bullets(hits: Array<{ id: string; content: string; scopes: string[] }>): string {
  if (hits.length === 0) return '(memory holds nothing on this)';
  return hits
    .map((h) => `- ${h.content} [${h.id}${h.scopes.length ? `; ${h.scopes.join(', ')}` : ''}]`)
    .join('\n');
}

/** A prompt that asks the model about memories found by one query: the two query prompts' shape. */
async function promptFromQuery(
  ctx: ToolContext,
  contextId: string,
  search: { query: string; mode: 'hybrid' | 'hybrid_graph'; k: number; lens: string[] | undefined },
  description: string,
  ask: string,
): Promise<GetPromptResult> {
  const found = await query(ctx.deps, ctx.auth, { contextId, ...search });
  return {
    description,
    messages: [
      { role: 'user', content: { type: 'text', text: `${ask}\n\n${bullets(found.results)}` } },
    ],
  };
}

export async function getPrompt(
  name: string,
  rawArgs: Record<string, string> | undefined,
  ctx: ToolContext,
): Promise<GetPromptResult> {
  switch (name) {
    case 'recall_topic': {
      const args = parseArgs(name, ARGS.recall_topic, rawArgs);
      const contextId = await ctx.enter(args.context_id);
      return promptFromQuery(
        ctx,
        contextId,
        {
          query: args.topic,
          mode: 'hybrid',
          k: 10,
          lens: args.scope === undefined ? undefined : [args.scope],
        },
        `Memories about ${args.topic}`,
        `Using only these memories, tell me what is known about "${args.topic}". Cite the ids in brackets, and say plainly if memory does not cover it.`,
      );
    }
    case 'summarize_session': {
      const args = parseArgs(name, ARGS.summarize_session, rawArgs);
      const contextId = await ctx.enter(args.context_id);
      const session = await getSession(ctx.deps, ctx.auth, {
        contextId,
        sessionId: args.session_id,
      });
      const page = await listTurns(ctx.deps, ctx.auth, {
        contextId,
        sessionId: session.id,
        limit: MAX_TURNS_PAGE,
        offset: 0,
      });
      const transcript = page.turns.map((t) => `${t.role}: ${t.content}`).join('\n');
      return {
        description: `Summary request for session ${session.id}`,
        messages: [
          {
            role: 'user',
            content: {
              type: 'resource',
              resource: {
                uri: memoryUri(contextId, 'session', session.id),
                mimeType: 'text/plain',
                text: transcript || '(no turns yet)',
              },
            },
          },
          {
            role: 'user',
            content: {
              type: 'text',
              text: `Summarise session ${session.id} above (${page.total} turns): the decisions made, the facts learned and the open questions, in short bullet points.`,
            },
          },
        ],
      };
    }
    case 'about_person': {
      const args = parseArgs(name, ARGS.about_person, rawArgs);
      const contextId = await ctx.enter(args.context_id);
      return promptFromQuery(
        ctx,
        contextId,
        { query: args.name, mode: 'hybrid_graph', k: 20, lens: undefined },
        `What memory holds about ${args.name}`,
        `Brief me on ${args.name}: who they are, what they prefer, what they work on and anything that changed recently, using only these memories (cite ids in brackets).`,
      );
    }
    default:
      throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`);
  }
}
