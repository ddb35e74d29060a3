import { assertContextAccess } from '../auth/guards.ts';
import type { AuthContext } from '../auth/principal.ts';
import { failure, MemoryError, unwrap } from '../errors.ts';
import { checkPaths, itemWithinGrant } from '../scopes/grants.ts';
import { scopePathProblem } from '../scopes/path.ts';
import type { ItemRecord, NewItem } from '../store/types.ts';
import { requireContext, type ContextRow } from './contexts.ts';
import type { FactDraft, OperationDeps } from './deps.ts';
import { withIdempotency, type StoredResponse } from './idempotency.ts';
import { sessionWriteLens } from './session-lens.ts';

export interface WriteFactsInput {
  contextId: string;
  drafts: FactDraft[];
  /** `full` routes through the `inferFacts` hook (model-backed issue). */
  infer: 'full' | null;
  idempotencyKey: string | null;
  /** Distinguishes single and batch writes in the idempotency hash. */
  operation: 'facts.create' | 'facts.batch';
}

/** 403/400 for scopes outside the write grant or below the floor; unscoped needs the root grant. */
export function checkWriteScopes(auth: AuthContext, drafts: FactDraft[]): void {
  for (const [i, draft] of drafts.entries()) {
    for (const scope of draft.scopes) {
      const problem = scopePathProblem(scope);
      if (problem) throw failure('validation-error', `facts[${i}].scopes: ${problem}`);
    }
    const denied = checkPaths(auth.key, 'memory:write', draft.scopes);
    if (denied) throw new MemoryError(denied);
    if (!itemWithinGrant(auth.key, 'memory:write', draft.scopes)) {
      throw failure(
        'forbidden',
        'this key may not write facts without scopes; give the fact a scope inside its write grant',
      );
    }
  }
}

/** LLM-backed paths answer 429 while the Context is blocked (a soft token_limit never rejects). */
export function assertNotBlocked(context: ContextRow): void {
  if (context.enforcement_blocked === 1) {
    throw new MemoryError({
      kind: 'rate-limited',
      detail:
        'this Context has enforcement_blocked set; model-backed operations are refused until an operator clears it',
      retryAfter: null,
    });
  }
}

async function embedDrafts(deps: OperationDeps, drafts: FactDraft[]): Promise<NewItem[]> {
  const vectors = await deps.embedder.embed(drafts.map((d) => d.content));
  return drafts.map((d, i) => {
    const values = vectors[i];
    return {
      kind: 'fact',
      content: d.content,
      scopes: d.scopes,
      metadata: d.metadata,
      sessionId: d.sessionId,
      sourceId: null,
      vector: values ? { modelId: deps.embedder.modelId, values } : null,
      validFrom: d.validFrom ?? null,
      session: d.session ?? null,
      position: d.position ?? null,
    };
  });
}

/** Writes one or more facts all-or-nothing, honouring `Idempotency-Key`. */
export async function writeFacts(
  deps: OperationDeps,
  auth: AuthContext,
  input: WriteFactsInput,
): Promise<StoredResponse> {
  assertContextAccess(auth, input.contextId);
  checkWriteScopes(auth, input.drafts);
  const context = await requireContext(deps, auth, input.contextId);
  const store = deps.store(input.contextId);
  for (const sessionId of new Set(input.drafts.map((d) => d.sessionId))) {
    if (sessionId !== null) unwrap(await store.getSession(sessionId, sessionWriteLens(auth)));
  }
  if (input.infer === 'full') {
    assertNotBlocked(context);
    const infer = deps.inferFacts;
    if (infer === null) {
      throw failure(
        'unprocessable',
        'infer=full needs model-backed inference, which is not enabled on this server; write the fact without ?infer',
      );
    }
    return withIdempotency(
      store,
      auth,
      input.idempotencyKey,
      { operation: `${input.operation}.infer`, body: input.drafts },
      async (idem) => {
        const facts: ItemRecord[] = [];
        for (const draft of input.drafts)
          facts.push(...(await infer(deps, auth, { contextId: input.contextId, draft })));
        const body = { facts };
        // The hook writes through its own store calls, so the key is completed separately.
        if (idem)
          await store.idempotencyComplete(idem.principalId, idem.key, 201, JSON.stringify(body));
        return { status: 201, body };
      },
    );
  }
  const items = await embedDrafts(deps, input.drafts);
  return withIdempotency(
    store,
    auth,
    input.idempotencyKey,
    { operation: input.operation, body: input.drafts },
    async (idem) => {
      const facts = await store.writeItems(items, idem ? { ...idem, status: 201 } : null);
      return { status: 201, body: { facts } };
    },
  );
}

/** One fact: `POST /facts`. */
export async function writeFact(
  deps: OperationDeps,
  auth: AuthContext,
  input: {
    contextId: string;
    draft: FactDraft;
    infer: 'full' | null;
    idempotencyKey: string | null;
  },
): Promise<StoredResponse> {
  return writeFacts(deps, auth, { ...input, drafts: [input.draft], operation: 'facts.create' });
}
