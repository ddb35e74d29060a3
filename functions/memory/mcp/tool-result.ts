import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { problemBody } from '../../../src/lib/problem.ts';
import { MemoryError, toWire, type MemoryFailure } from '../errors.ts';

/** `structuredContent.error` of a failed tool call: the REST problem body, minus nothing. */
export const toolErrorSchema = z.looseObject({
  status: z.number().int(),
  type: z.string(),
  title: z.string(),
  detail: z.string(),
});

/**
 * The output schema of a tool: its success fields, optional because a failed call carries only
 * `error` in the same `structuredContent` (MCP clients validate both against one schema).
 */
export function toolOutput<S extends z.ZodRawShape>(shape: S) {
  return z.looseObject({ ...z.object(shape).partial().shape, error: toolErrorSchema.optional() });
}

export interface ProblemContext {
  typeBase: string;
  requestId: string;
  /** The MCP tool that failed, reported as the problem's `instance`. */
  instance: string;
}

/**
 * On the MCP surface a missing Context and every auth failure are 401, never 404 or 403, so a
 * caller cannot tell an existing Context it may not see from one that does not exist.
 */
export function mcpFailure(f: MemoryFailure): MemoryFailure {
  if (f.kind === 'context-not-found') {
    return {
      kind: 'unauthorized',
      detail: 'unknown Context, or this credential is not valid for it',
    };
  }
  return f;
}

/** The RFC 9457 problem body of a failure on the MCP surface. */
export function mcpProblem(f: MemoryFailure, ctx: ProblemContext): ReturnType<typeof problemBody> {
  const wire = toWire(mcpFailure(f), ctx.requestId);
  return problemBody({
    slug: wire.slug,
    detail: wire.detail,
    instance: ctx.instance,
    typeBase: ctx.typeBase,
    extensions: wire.extensions,
  });
}

/** The failure behind whatever a handler threw; unexpected errors are logged and become a 500. */
export function failureOf(err: unknown, ctx: ProblemContext): MemoryFailure {
  if (err instanceof MemoryError) return err.failure;
  console.error(`[${ctx.requestId}] MCP ${ctx.instance}`, err);
  return { kind: 'internal', detail: 'An unexpected error occurred' };
}

/** A tool result for an operation failure: `isError` with the problem in `structuredContent`. */
export function errorResult(f: MemoryFailure, ctx: ProblemContext): CallToolResult {
  const body = mcpProblem(f, ctx);
  return {
    isError: true,
    content: [{ type: 'text', text: `${body.status} ${body.title}: ${body.detail}` }],
    structuredContent: { error: body },
  };
}

/** Maps whatever a tool threw to its result; unexpected errors become a 500 with the request id. */
export function thrownResult(err: unknown, ctx: ProblemContext): CallToolResult {
  return errorResult(failureOf(err, ctx), ctx);
}

/** A successful tool result: the value as structured content and as JSON text for older clients. */
export function okResult(value: Record<string, unknown>): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(value) }],
    structuredContent: value,
  };
}
