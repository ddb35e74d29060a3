import type { CompleteRequest, CompleteResult } from '@modelcontextprotocol/sdk/types.js';
import { MemoryError } from '../errors.ts';
import { listEntities } from '../operations/entities.ts';
import { listSessions } from '../operations/sessions.ts';
import type { ToolContext } from './tool.ts';

/**
 * `completion/complete` for the arguments of the prompts and resource templates: context ids
 * (only the credential's own Context: ids of others are never enumerated), session ids, scope
 * paths (from the key's read grant) and entity names (mentioned by facts the key may read).
 * Anything the key may not read completes to nothing rather than failing.
 */

/** The protocol caps a completion at 100 values. */
const MAX_VALUES = 100;
const SESSIONS_SCANNED = 500;

function result(values: string[]): CompleteResult {
  return {
    completion: {
      values: values.slice(0, MAX_VALUES),
      total: values.length,
      hasMore: values.length > MAX_VALUES,
    },
  };
}

function startsWith(value: string, prefix: string): boolean {
  return value.toLowerCase().startsWith(prefix.toLowerCase());
}

async function sessionIds(ctx: ToolContext, contextId: string, prefix: string): Promise<string[]> {
  const page = await listSessions(ctx.deps, ctx.auth, {
    contextId,
    limit: SESSIONS_SCANNED,
    offset: 0,
  });
  return page.sessions.map((s) => s.id).filter((id) => startsWith(id, prefix));
}

async function entityNames(ctx: ToolContext, contextId: string, prefix: string): Promise<string[]> {
  const page = await listEntities(ctx.deps, ctx.auth, {
    contextId,
    prefix: prefix === '' ? null : prefix,
    limit: MAX_VALUES + 1,
    cursor: null,
  });
  return page.entities.map((e) => e.display);
}

export async function complete(
  params: CompleteRequest['params'],
  ctx: ToolContext,
): Promise<CompleteResult> {
  const { name, value } = params.argument;
  const bound = ctx.auth.key.contextId;
  if (name === 'context_id') {
    return result(bound !== null && startsWith(bound, value) ? [bound] : []);
  }
  if (name === 'scope') {
    const paths = ctx.auth.key.grants['memory:read'].filter((p) => p !== '*');
    return result(paths.filter((p) => startsWith(p, value)).sort());
  }
  const requested = params.context?.arguments?.context_id;
  const contextId = bound ?? requested;
  if (contextId === undefined) return result([]);
  try {
    const entered = await ctx.enter(contextId);
    if (name === 'session_id') return result(await sessionIds(ctx, entered, value));
    if (name === 'name' || name === 'entity') {
      return result(await entityNames(ctx, entered, value));
    }
  } catch (err) {
    if (err instanceof MemoryError) return result([]);
    throw err;
  }
  return result([]);
}
