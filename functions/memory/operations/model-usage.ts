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
 * Counts the tokens of one model-backed operation on the Context: the running total in the
 * control plane (`contexts.usage_tokens`, shown on the Context as `usage.llm_tokens`) and one
 * row per call in the Context's own `model_usage` table.
 */
export async function chargeTokens(
  deps: OperationDeps,
  context: ContextRow,
  operation: string,
  attribution: ModelAttribution,
  usage: TokenUsage,
): Promise<BudgetState> {
  const tokens = usage.input_tokens + usage.output_tokens;
  const row = await deps.db
    .prepare(
      'UPDATE contexts SET usage_tokens = usage_tokens + ? WHERE id = ? RETURNING usage_tokens, token_limit',
    )
    .bind(tokens, context.id)
    .first<{ usage_tokens: number; token_limit: number | null }>();
  await deps.store(context.id).modelRecordUsage({
    operation,
    provider: attribution.provider,
    model: attribution.model,
    input_tokens: usage.input_tokens,
    output_tokens: usage.output_tokens,
    source: usage.source,
  });
  return budgetOf(
    row?.usage_tokens ?? context.usage_tokens + tokens,
    row?.token_limit ?? context.token_limit,
  );
}

/** The budget as it stands, for responses served without a model call (cache hits). */
export function currentBudget(context: ContextRow): BudgetState {
  return budgetOf(context.usage_tokens, context.token_limit);
}
