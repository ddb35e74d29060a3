import type { TokenUsage } from '../models/provider.ts';
import type { ModelAttribution } from '../inference/records.ts';
import type { ContextRow } from './contexts.ts';
import type { OperationDeps } from './deps.ts';

/** The Context's token budget after a charge: soft, so `exceeded` is reported, never enforced. */
export interface BudgetState {
  used: number;
  limit: number | null;
  exceeded: boolean;
}

/** Response header that reports a soft `token_limit` breach. */
export const BUDGET_HEADER = 'x-token-budget';

export function budgetOf(used: number, limit: number | null): BudgetState {
  return { used, limit, exceeded: limit !== null && used > limit };
}

/**
 * Counts the tokens of one model-backed operation on the Context: one row per call in the
 * Context's own `model_usage` table, whose running total is the Context's usage (shown on the
 * Context as `usage.llm_tokens`). The total lives in the Context's object, not in D1, so a
 * model-backed request stays one call to that object (docs/hot-path.md).
 */
export async function chargeTokens(
  deps: OperationDeps,
  context: ContextRow,
  operation: string,
  attribution: ModelAttribution,
  usage: TokenUsage,
): Promise<BudgetState> {
  const used = await deps.store(context.id).modelRecordUsage({
    operation,
    provider: attribution.provider,
    model: attribution.model,
    input_tokens: usage.input_tokens,
    output_tokens: usage.output_tokens,
    source: usage.source,
  });
  return budgetOf(used, context.token_limit);
}

/** The budget as it stands, for responses served without a model call (cache hits). */
export async function currentBudget(
  deps: OperationDeps,
  context: ContextRow,
): Promise<BudgetState> {
  return budgetOf(await deps.store(context.id).modelTokensUsed(), context.token_limit);
}
