import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { McpToolName } from '../../../src/schemas/mcp-tools.ts';
import type { AuthContext } from '../auth/principal.ts';
import { MemoryError } from '../errors.ts';
import type { OperationDeps } from '../operations/deps.ts';
import type { ClientState } from './client-state.ts';
import type { Reporter } from './reporter.ts';

/** What a tool handler gets besides its arguments: the caller and the operations' dependencies. */
export interface ToolContext {
  deps: OperationDeps;
  auth: AuthContext;
  /** Origin of this request, e.g. `http://127.0.0.1:8787`. */
  origin: string;
  /** Answers a sub-request to the site (documentation search) without leaving the Worker. */
  fetchSite(request: Request): Promise<Response>;
  /**
   * The Context a memory tool works in (see `resolveContextId`), after counting the call against
   * the per-minute rate limit of the key and that Context.
   */
  enter(requested: string | undefined): Promise<string>;
  /** Log level and subscriptions of this credential, kept between stateless requests. */
  state: ClientState;
  /** Progress, log and resource-update notifications of the running request. */
  report: Reporter;
}

/** Reads only: safe to call again, changes nothing (list, search, inspect). */
export const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/**
 * Adds something new each call (a fact, a turn, a version, an answer) and destroys nothing: an
 * old fact version is kept as history, so even an update is not destructive.
 */
export const WRITES_NEW: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};

/** One MCP tool: zod input and output schemas over one operation. */
export interface McpTool {
  name: McpToolName;
  input: z.ZodObject;
  output: z.ZodObject;
  annotations: ToolAnnotations;
  run(args: unknown, ctx: ToolContext): Promise<Record<string, unknown>>;
}

/** Types a tool's handler by its input schema and erases the type for the registry. */
export function defineTool<I extends z.ZodObject>(tool: {
  name: McpToolName;
  input: I;
  output: z.ZodObject;
  annotations: ToolAnnotations;
  run(args: z.infer<I>, ctx: ToolContext): Promise<Record<string, unknown>>;
}): McpTool {
  // The server parses arguments with `input` before calling `run`, so the cast only restores
  // the type that parse established.
  return { ...tool, run: (args, ctx) => tool.run(args as z.infer<I>, ctx) };
}

/** `context_id`, optional on every memory tool. */
export const contextIdField = z
  .string()
  .min(1)
  .max(128)
  .optional()
  .describe('The Context to work in; needed only when the credential is not bound to one.');

/**
 * The Context a call works in. A credential bound to one Context may only name that one; any
 * other id is 401 (not 403 or 404), so probing cannot tell which Contexts exist.
 */
export function resolveContextId(auth: AuthContext, requested: string | undefined): string {
  const bound = auth.key.contextId;
  if (bound !== null) {
    if (requested !== undefined && requested !== bound) {
      throw new MemoryError({
        kind: 'unauthorized',
        detail: 'unknown Context, or this credential is not valid for it',
      });
    }
    return bound;
  }
  if (requested === undefined) {
    throw new MemoryError({
      kind: 'validation-error',
      detail: 'context_id is required: this credential is not bound to a single Context',
    });
  }
  return requested;
}

/** Lens in disjunctive normal form, as REST takes it. */
export const lensField = z
  .array(z.union([z.string(), z.array(z.string())]))
  .optional()
  .describe(
    'Scope lens: ["a", "b"] is a OR b, [["a", "b"]] is a AND b. Defaults to the whole grant.',
  );
