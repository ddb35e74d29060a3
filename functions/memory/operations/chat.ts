import { resolveLens } from '../auth/guards.ts';
import type { AuthContext } from '../auth/principal.ts';
import { unwrap } from '../errors.ts';
import { composeAnswer, type Citation } from '../inference/compose-answer.ts';
import type { ModelAttribution, TurnRecord } from '../inference/records.ts';
import type { ModelProvider, TokenUsage } from '../models/provider.ts';
import type { LensInput } from '../scopes/lens.ts';
import type { SearchMode } from '../store/types.ts';
import { requireContext } from './contexts.ts';
import type { OperationDeps } from './deps.ts';
import { chargeTokens, currentBudget, type BudgetState } from './model-usage.ts';
import { providerOf } from './model-provider.ts';
import { retrieveMemory } from './model-retrieval.ts';
import { cached, cacheKey, remember } from './response-cache.ts';
import { sessionLens } from './session-lens.ts';
import { assertNotBlocked } from './write-fact.ts';

const MEMORY_K = 10;
const HISTORY_TURNS = 12;

export interface ChatInput {
  contextId: string;
  message: string;
  session_id?: string | undefined;
  lens?: LensInput | undefined;
}

export interface ChatResponse {
  answer: string;
  citations: Citation[];
  known: boolean;
  provider: string;
  model: string;
  extractive: boolean;
  retrieval: { mode: SearchMode; note: string | null; memories: number };
  usage: TokenUsage & { total_tokens: number };
  cached: boolean;
}

export interface ChatOutcome {
  response: ChatResponse;
  budget: BudgetState;
}

/**
 * Answers from retrieved memory and the session's history. Identical requests are served from the
 * Context's cache (even while the Context is blocked: a cache hit costs no model call); a miss on
 * a blocked Context is 429.
 */
export async function chat(
  deps: OperationDeps,
  auth: AuthContext,
  input: ChatInput,
  override?: ModelProvider,
): Promise<ChatOutcome> {
  const lens = resolveLens(auth, 'memory:read', input.lens);
  const context = await requireContext(deps, auth, input.contextId);
  const provider = providerOf(deps, override);
  const store = deps.store(input.contextId);
  let history: TurnRecord[] = [];
  if (input.session_id) {
    const page = unwrap(
      await store.listTurns({
        sessionId: input.session_id,
        lens: sessionLens(auth),
        limit: HISTORY_TURNS,
        offset: 0,
        newestFirst: true,
      }),
    );
    history = page.turns
      .reverse()
      .map((t) => ({ ...t, role: t.role === 'assistant' ? 'assistant' : 'user' }));
  }
  const key = await cacheKey({
    op: 'chat',
    message: input.message,
    session: input.session_id ?? null,
    lens,
    provider: provider.name,
    model: provider.textModel,
    embedding: deps.embedder.modelId,
  });
  const hit = await cached<ChatResponse>(store, key);
  if (hit)
    return { response: { ...hit, cached: true }, budget: await currentBudget(deps, context) };
  assertNotBlocked(context);

  const retrieval = await retrieveMemory(deps, {
    contextId: input.contextId,
    text: input.message,
    lens,
    k: MEMORY_K,
    includeHistory: true,
    charge: { context, operation: 'chat', provider },
  });
  const answer = await composeAnswer(provider, {
    message: input.message,
    memories: retrieval.memories,
    history,
  });
  const budget = await chargeTokens(deps, context, 'chat', answer.attribution, answer.usage);
  const response = toResponse(answer, answer.attribution, retrieval);
  await remember(store, key, response);
  return { response, budget };
}

function toResponse(
  answer: { answer: string; citations: Citation[]; known: boolean; usage: TokenUsage },
  attribution: ModelAttribution,
  retrieval: { mode: SearchMode; note: string | null; memories: unknown[] },
): ChatResponse {
  return {
    answer: answer.answer,
    citations: answer.citations,
    known: answer.known,
    provider: attribution.provider,
    model: attribution.model,
    extractive: attribution.extractive,
    retrieval: { mode: retrieval.mode, note: retrieval.note, memories: retrieval.memories.length },
    usage: {
      ...answer.usage,
      total_tokens: answer.usage.input_tokens + answer.usage.output_tokens,
    },
    cached: false,
  };
}
