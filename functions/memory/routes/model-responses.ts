import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { MemoryEnv } from '../hono-env.ts';
import { BUDGET_HEADER, type BudgetState } from '../operations/model-usage.ts';

/**
 * Headers every model-backed response carries: who answered, and the Context's soft token budget
 * (`x-token-budget: exceeded` once usage passes `token_limit`; reported, never enforced).
 */
export function setModelHeaders(
  c: Context<MemoryEnv>,
  budget: BudgetState,
  model: { provider: string; model: string },
): void {
  c.header(BUDGET_HEADER, budget.exceeded ? 'exceeded' : 'ok');
  c.header('x-token-usage', String(budget.used));
  if (budget.limit !== null) c.header('x-token-limit', String(budget.limit));
  c.header('x-model-provider', model.provider);
  c.header('x-model', model.model);
}

/** Tokens one model-backed call used: provider-reported, else counted with o200k_base. */
export const ModelUsage = z
  .object({
    input_tokens: z.number().int(),
    output_tokens: z.number().int(),
    total_tokens: z.number().int(),
    source: z.enum(['provider', 'tokenizer']),
  })
  .openapi('ModelUsage');
