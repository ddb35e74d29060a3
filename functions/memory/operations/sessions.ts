import type { AuthContext, Verb } from '../auth/principal.ts';
import { failure, unwrap } from '../errors.ts';
import type { JsonObject, SessionRecord, TurnRecord } from '../store/types.ts';
import { requireContext } from './contexts.ts';
import type { OperationDeps } from './deps.ts';
import { scheduleTurnExtraction, type TurnExtractionState } from './turn-extraction.ts';

export const TURN_ROLES = ['user', 'assistant', 'system', 'tool'] as const;
export type TurnRole = (typeof TURN_ROLES)[number];
export const MAX_TURNS_PAGE = 500;

/** Sessions carry no scopes: any grant for the verb is enough. */
function assertVerb(auth: AuthContext, verb: Verb): void {
  if (auth.key.grants[verb].length === 0)
    throw failure('forbidden', `this key has no ${verb} grant`);
}

export async function createSession(
  deps: OperationDeps,
  auth: AuthContext,
  input: {
    contextId: string;
    id?: string | undefined;
    metadata?: JsonObject | undefined;
  },
): Promise<SessionRecord> {
  await requireContext(deps, auth, input.contextId);
  assertVerb(auth, 'memory:write');
  return unwrap(
    await deps
      .store(input.contextId)
      .createSession({ id: input.id ?? null, metadata: input.metadata ?? null }),
  );
}

export async function getSession(
  deps: OperationDeps,
  auth: AuthContext,
  input: { contextId: string; sessionId: string },
): Promise<SessionRecord> {
  await requireContext(deps, auth, input.contextId);
  assertVerb(auth, 'memory:read');
  return unwrap(await deps.store(input.contextId).getSession(input.sessionId));
}

export async function listSessions(
  deps: OperationDeps,
  auth: AuthContext,
  input: { contextId: string; limit: number; offset: number },
): Promise<{ sessions: SessionRecord[]; total: number }> {
  await requireContext(deps, auth, input.contextId);
  assertVerb(auth, 'memory:read');
  return deps.store(input.contextId).listSessions(input.limit, input.offset);
}

export async function deleteSession(
  deps: OperationDeps,
  auth: AuthContext,
  input: { contextId: string; sessionId: string },
): Promise<void> {
  await requireContext(deps, auth, input.contextId);
  assertVerb(auth, 'memory:forget');
  unwrap(await deps.store(input.contextId).deleteSession(input.sessionId));
}

/** Stores a turn as a plain write (extraction from turns belongs to the model-backed issue). */
export async function appendTurn(
  deps: OperationDeps,
  auth: AuthContext,
  input: { contextId: string; sessionId: string; role: TurnRole; content: string },
): Promise<TurnRecord & { extraction: TurnExtractionState }> {
  const context = await requireContext(deps, auth, input.contextId);
  assertVerb(auth, 'memory:write');
  const turn = unwrap(
    await deps
      .store(input.contextId)
      .appendTurn({ sessionId: input.sessionId, role: input.role, content: input.content }),
  );
  // The turn is stored first; extraction (model-backed, queued) reports whether it will run.
  const blocked = context.enforcement_blocked === 1;
  return {
    ...turn,
    extraction: await scheduleTurnExtraction(deps, input.contextId, turn, blocked),
  };
}

export async function listTurns(
  deps: OperationDeps,
  auth: AuthContext,
  input: { contextId: string; sessionId: string; limit: number; offset: number },
): Promise<{ turns: TurnRecord[]; total: number; limit: number; offset: number }> {
  await requireContext(deps, auth, input.contextId);
  assertVerb(auth, 'memory:read');
  const page = unwrap(
    await deps
      .store(input.contextId)
      .listTurns({ sessionId: input.sessionId, limit: input.limit, offset: input.offset }),
  );
  return { ...page, limit: input.limit, offset: input.offset };
}
