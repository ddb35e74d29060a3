import type { AuthContext } from '../auth/principal.ts';
import { chat } from './chat.ts';
import { cachedContextBlock } from './cached-context-block.ts';
import { consolidate } from './consolidate.ts';
import type { OperationDeps } from './deps.ts';
import { deleteDocument, getDocument, listDocuments } from './documents.ts';
import { getEntity, listEntities } from './entities.ts';
import { factHistory, updateFact } from './fact-versions.ts';
import { deleteFact, getFact, listFacts } from './facts.ts';
import type { StoredResponse } from './idempotency.ts';
import { budgetOf, type BudgetState } from './model-usage.ts';
import { query } from './query.ts';
import { reflect } from './reflect.ts';
import { sessionContext } from './session-context.ts';
import {
  appendTurn,
  createSession,
  deleteSession,
  getSession,
  listSessions,
  listTurns,
} from './sessions.ts';
import { uploadDocument } from './upload-document.ts';
import { writeFacts, type WriteFactsInput } from './write-fact.ts';

/**
 * `POST /facts?infer=full`: the write plus the Context's soft token budget after it, so that the
 * route reports the budget without asking anyone again (re-read after the charge; a replay
 * reports the budget as it stands now).
 */
async function writeFactsWithBudget(
  deps: OperationDeps,
  auth: AuthContext,
  input: WriteFactsInput,
): Promise<{ stored: StoredResponse; budget: BudgetState }> {
  const stored = await writeFacts(deps, auth, input);
  const context = await deps.contextRow(input.contextId);
  const used = await deps.store(input.contextId).modelTokensUsed();
  return { stored, budget: budgetOf(used, context?.token_limit ?? null) };
}

/**
 * Every data-plane operation (a route under `/api/v1/{context_id}/...`), by name. The Worker
 * sends the name, the input and the caller's credential to the Context's own object in one RPC
 * (`ContextStore.perform`, context-object/context-store.ts); the object checks access and rate,
 * then runs the operation here with its own methods as the store (docs/hot-path.md). Inputs and
 * outputs are structured-clone data (a `Request` for an upload).
 */
export const CONTEXT_OPERATIONS = {
  writeFacts,
  writeFactsWithBudget,
  getFact,
  listFacts,
  deleteFact,
  factHistory,
  updateFact,
  listEntities,
  getEntity,
  query,
  createSession,
  listSessions,
  getSession,
  deleteSession,
  appendTurn,
  listTurns,
  cachedContextBlock,
  sessionContext,
  chat,
  reflect,
  consolidate,
  uploadDocument,
  listDocuments,
  getDocument,
  deleteDocument,
} as const;

export type ContextOperations = typeof CONTEXT_OPERATIONS;
export type OperationName = keyof ContextOperations;
export type OperationInput<N extends OperationName> = Parameters<ContextOperations[N]>[2];
export type OperationOutput<N extends OperationName> = Awaited<ReturnType<ContextOperations[N]>>;

/** An operation of the registry with its types kept, for the object that runs it. */
export function contextOperation<N extends OperationName>(
  name: N,
): (
  deps: OperationDeps,
  auth: AuthContext,
  input: OperationInput<N>,
) => Promise<OperationOutput<N>> {
  // TS cannot correlate a generic key with its entry's parameter and result types.
  return CONTEXT_OPERATIONS[name] as (
    deps: OperationDeps,
    auth: AuthContext,
    input: OperationInput<N>,
  ) => Promise<OperationOutput<N>>;
}
