import type { AuthContext, Verb } from '../auth/principal.ts';
import { failure, MemoryError, unwrap } from '../errors.ts';
import { checkPaths, itemWithinGrant } from '../scopes/grants.ts';
import { scopePathProblem } from '../scopes/path.ts';
import type { JsonObject, SessionRecord, TurnRecord } from '../store/types.ts';
import { requireContext } from './contexts.ts';
import { sessionLens } from './session-lens.ts';
import type { OperationDeps } from './deps.ts';
import { scheduleTurnExtraction, type TurnExtractionState } from './turn-extraction.ts';

export const TURN_ROLES = ['user', 'assistant', 'system', 'tool'] as const;
export type TurnRole = (typeof TURN_ROLES)[number];
export const MAX_TURNS_PAGE = 500;

function grantOf(auth: AuthContext, verb: Verb): string[] {
  const granted = auth.key.grants[verb];
  if (granted.length === 0) throw failure('forbidden', `this key has no ${verb} grant`);
  return granted;
}

/**
 * Creates a session. Its scopes follow the rules of a fact's: each inside the write grant and
 * not below the scope floor; none given means unscoped, which needs the root write grant.
 */
export async function createSession(
  deps: OperationDeps,
  auth: AuthContext,
  input: {
    contextId: string;
    id?: string | undefined;
    metadata?: JsonObject | undefined;
    scopes?: string[] | undefined;
  },
): Promise<SessionRecord> {
  await requireContext(deps, auth, input.contextId);
  grantOf(auth, 'memory:write');
  const scopes = [...new Set(input.scopes ?? [])];
  for (const scope of scopes) {
    const problem = scopePathProblem(scope);
    if (problem) throw failure('validation-error', `scopes: ${problem}`);
  }
  const denied = checkPaths(auth.key, 'memory:write', scopes);
  if (denied) throw new MemoryError(denied);
  if (!itemWithinGrant(auth.key, 'memory:write', scopes)) {
    throw failure(
      'forbidden',
      'this key may not create a session without scopes; give it scopes inside its write grant',
    );
  }
  return unwrap(
    await deps
      .store(input.contextId)
      .createSession({ id: input.id ?? null, metadata: input.metadata ?? null, scopes }),
  );
}

/** A session by id; one outside the read grant is 404, as if it did not exist. */
export async function getSession(
  deps: OperationDeps,
  auth: AuthContext,
  input: { contextId: string; sessionId: string },
): Promise<SessionRecord> {
  await requireContext(deps, auth, input.contextId);
  grantOf(auth, 'memory:read');
  return unwrap(await deps.store(input.contextId).getSession(input.sessionId, sessionLens(auth)));
}

export async function listSessions(
  deps: OperationDeps,
  auth: AuthContext,
  input: { contextId: string; limit: number; offset: number },
): Promise<{ sessions: SessionRecord[]; total: number }> {
  await requireContext(deps, auth, input.contextId);
  grantOf(auth, 'memory:read');
  return deps
    .store(input.contextId)
    .listSessions({ limit: input.limit, offset: input.offset, lens: sessionLens(auth) });
}

export async function deleteSession(
  deps: OperationDeps,
  auth: AuthContext,
  input: { contextId: string; sessionId: string },
): Promise<void> {
  await requireContext(deps, auth, input.contextId);
  const forgetGrant = grantOf(auth, 'memory:forget');
  unwrap(
    await deps
      .store(input.contextId)
      .deleteSession(input.sessionId, { lens: sessionLens(auth), forgetGrant }),
  );
}

/**
 * Stores a turn (the write grant must cover the session's scopes) and queues fact extraction
 * from it, carrying the caller's grants so the job acts for them and no one else.
 */
export async function appendTurn(
  deps: OperationDeps,
  auth: AuthContext,
  input: {
    contextId: string;
    sessionId: string;
    role: TurnRole;
    content: string;
    /** ISO 8601, normalised to UTC; the append time when absent. */
    validFrom?: string;
  },
): Promise<TurnRecord & { extraction: TurnExtractionState }> {
  const context = await requireContext(deps, auth, input.contextId);
  const writeGrant = grantOf(auth, 'memory:write');
  const turn = unwrap(
    await deps.store(input.contextId).appendTurn({
      sessionId: input.sessionId,
      role: input.role,
      content: input.content,
      ...(input.validFrom === undefined ? {} : { validFrom: input.validFrom }),
      access: { lens: sessionLens(auth), writeGrant },
    }),
  );
  // The turn is stored first; extraction (model-backed, queued) reports whether it will run.
  const blocked = context.enforcement_blocked === 1;
  return {
    ...turn,
    extraction: await scheduleTurnExtraction(deps, auth, input.contextId, turn, blocked),
  };
}

export async function listTurns(
  deps: OperationDeps,
  auth: AuthContext,
  input: { contextId: string; sessionId: string; limit: number; offset: number },
): Promise<{ turns: TurnRecord[]; total: number; limit: number; offset: number }> {
  await requireContext(deps, auth, input.contextId);
  grantOf(auth, 'memory:read');
  const page = unwrap(
    await deps.store(input.contextId).listTurns({
      sessionId: input.sessionId,
      limit: input.limit,
      offset: input.offset,
      lens: sessionLens(auth),
    }),
  );
  return { ...page, limit: input.limit, offset: input.offset };
}
