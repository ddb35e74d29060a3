import type { AuthContext } from '../auth/principal.ts';
import { enqueueJob } from '../jobs/enqueue.ts';
import type { ModelProvider } from '../models/provider.ts';
import { ModelError } from '../models/provider.ts';
import type { TurnRecord } from '../store/types.ts';
import type { OperationDeps } from './deps.ts';
import { inferAndStore } from './infer-facts.ts';
import { sessionLens } from './session-lens.ts';
import { actorOf } from '../jobs/actor.ts';
import { itemWithinGrant } from '../scopes/grants.ts';

export const EXTRACT_TURNS_KIND = 'extract_turns';

/** What an appended turn says about the extraction it triggers. */
export interface TurnExtractionState {
  status: 'queued' | 'not_run' | 'done' | 'failed' | 'skipped';
  detail: string | null;
}

/**
 * Called after a turn is stored: queues background extraction. The turn is stored whatever
 * happens here; when extraction cannot run (blocked Context, queue unavailable) it says why.
 */
export async function scheduleTurnExtraction(
  deps: OperationDeps,
  auth: AuthContext,
  contextId: string,
  turn: TurnRecord,
  blocked: boolean,
): Promise<TurnExtractionState> {
  const store = deps.store(contextId);
  let state: TurnExtractionState;
  if (turn.role !== 'user') {
    state = {
      status: 'skipped',
      detail: `facts are extracted from user turns; this is a ${turn.role} turn`,
    };
  } else if (blocked) {
    state = {
      status: 'not_run',
      detail:
        'the Context has enforcement_blocked set: the turn is stored, but no facts are extracted from it',
    };
  } else {
    try {
      await enqueueJob(deps.env, {
        kind: EXTRACT_TURNS_KIND,
        context_id: contextId,
        session_id: turn.session_id,
        turn_id: turn.id,
        // The grants of the key that added the turn, as they are now: the job acts with these.
        actor: actorOf(auth),
      });
      state = { status: 'queued', detail: null };
    } catch (err) {
      state = {
        status: 'not_run',
        detail: `the extraction job could not be queued: ${String(err)}`,
      };
    }
  }
  // Best effort: the state row is a convenience for the job; the response already says it all.
  await store
    .modelSetTurnExtraction(turn.id, {
      status: state.status === 'queued' ? 'queued' : 'not_run',
      detail: state.detail,
    })
    .catch(() => undefined);
  return state;
}

/**
 * The `extract_turns` job body: extracts and reconciles facts from one user turn, with the
 * session's earlier turns as context, acting as `auth` (the principal who added the turn, with the
 * grants captured when it was queued). The facts carry the session's scopes; reconciliation sees
 * only what that principal may read and closes only what it may write. Idempotent: a turn
 * already extracted is skipped.
 */
export async function extractTurn(
  deps: OperationDeps,
  auth: AuthContext,
  input: { contextId: string; sessionId: string; turnId: string },
  provider?: ModelProvider,
): Promise<TurnExtractionState> {
  const store = deps.store(input.contextId);
  const found = await store.modelTurn(input.turnId);
  if (!found || found.turn.session_id !== input.sessionId) {
    return { status: 'skipped', detail: 'the turn no longer exists' };
  }
  const skip = async (detail: string): Promise<TurnExtractionState> => {
    await store.modelSetTurnExtraction(input.turnId, { status: 'not_run', detail });
    return { status: 'skipped', detail };
  };
  if (found.extraction?.status === 'done') return { status: 'done', detail: 'already extracted' };
  const row = await deps.db
    .prepare('SELECT enforcement_blocked FROM contexts WHERE id = ?')
    .bind(input.contextId)
    .first<{ enforcement_blocked: number }>();
  if (!row) return { status: 'skipped', detail: 'the Context no longer exists' };
  if (row.enforcement_blocked === 1) {
    await store.modelSetTurnExtraction(input.turnId, {
      status: 'not_run',
      detail: 'Context blocked',
    });
    return { status: 'not_run', detail: 'Context blocked' };
  }
  const session = await store.getSession(input.sessionId, sessionLens(auth));
  if (!session.ok) {
    return skip(
      'the session no longer exists or is outside the grants of the key that added the turn',
    );
  }
  const scopes = session.value.scopes;
  if (!itemWithinGrant(auth.key, 'memory:write', scopes)) {
    return skip("the session's scopes are outside the write grant of the key that added the turn");
  }
  const speaker = speakerOfSession(session.value.metadata);
  try {
    const outcome = await inferAndStore(
      deps,
      auth,
      {
        contextId: input.contextId,
        draft: {
          content: found.turn.content,
          scopes,
          metadata: null,
          sessionId: input.sessionId,
          validFrom: found.turn.valid_from,
          session: input.sessionId,
          position: found.turn.position,
        },
        speaker,
        provenance: { source_turn_id: input.turnId },
      },
      provider,
    );
    const created = outcome.facts.filter((f) => f.decision.action !== 'noop').length;
    await store.modelSetTurnExtraction(input.turnId, {
      status: 'done',
      facts: created,
      detail: null,
    });
    return { status: 'done', detail: `${created} fact(s) stored` };
  } catch (err) {
    if (err instanceof ModelError) {
      // A model that cannot answer is recorded on the turn; the queue retries the job.
      await store.modelSetTurnExtraction(input.turnId, { status: 'failed', detail: err.message });
    }
    throw err;
  }
}

/** `speaker`, `user` or `user_name` from the session's metadata names who "I" is. */
export function speakerOfSession(metadata: Record<string, unknown> | null): string {
  for (const key of ['speaker', 'user', 'user_name']) {
    const v = metadata?.[key];
    if (typeof v === 'string' && v.trim()) return v.trim();
  }
  return 'User';
}
