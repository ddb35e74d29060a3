import { resolveLens } from '../auth/guards.ts';
import type { AuthContext } from '../auth/principal.ts';
import { planConsolidation, type ConsolidationDecision } from '../inference/consolidate.ts';
import type { ModelProvider, TokenUsage } from '../models/provider.ts';
import type { LensInput } from '../scopes/lens.ts';
import { requireContext } from './contexts.ts';
import type { OperationDeps } from './deps.ts';
import { chargeTokens, type BudgetState } from './model-usage.ts';
import { providerOf } from './model-provider.ts';
import { assertNotBlocked } from './write-fact.ts';

const MAX_FACTS = 1000;

export interface ConsolidateResponse {
  decisions: ConsolidationDecision[];
  dry_run: boolean;
  applied: number;
  summary: { merge: number; supersede: number; keep: number };
  provider: string;
  model: string;
  extractive: boolean;
  usage: {
    input_tokens: number;
    output_tokens: number;
    total_tokens: number;
    source: TokenUsage['source'];
  };
}

/**
 * Consolidation over the current facts the caller may write: merges duplicates and supersedes
 * older values. `dry_run` only previews. Applying closes facts (`valid_until`) and links them to
 * the fact that replaces them; nothing is deleted.
 */
export async function consolidate(
  deps: OperationDeps,
  auth: AuthContext,
  input: { contextId: string; lens?: LensInput | undefined; dry_run?: boolean | undefined },
  override?: ModelProvider,
): Promise<{ response: ConsolidateResponse; budget: BudgetState }> {
  const lens = resolveLens(auth, 'memory:write', input.lens);
  const context = await requireContext(deps, auth, input.contextId);
  assertNotBlocked(context);
  return consolidateLens(deps, context, lens, input.dry_run === true, providerOf(deps, override));
}

/** Shared by the route and the cadenced `consolidate` job (which runs over the whole Context). */
export async function consolidateLens(
  deps: OperationDeps,
  context: Parameters<typeof chargeTokens>[1],
  lens: string[][],
  dryRun: boolean,
  provider: ModelProvider,
): Promise<{ response: ConsolidateResponse; budget: BudgetState }> {
  const store = deps.store(context.id);
  const facts = await store.modelCurrentItems({ lens, kinds: ['fact'], limit: MAX_FACTS });
  const plan = await planConsolidation(provider, facts);
  const changes = plan.decisions.filter((d) => d.action !== 'keep');
  const applied = dryRun || changes.length === 0 ? 0 : await store.modelApplyConsolidation(changes);
  const budget = await chargeTokens(deps, context, 'consolidate', plan.attribution, plan.usage);
  const count = (a: ConsolidationDecision['action']) =>
    plan.decisions.filter((d) => d.action === a).length;
  return {
    response: {
      decisions: plan.decisions,
      dry_run: dryRun,
      applied,
      summary: { merge: count('merge'), supersede: count('supersede'), keep: count('keep') },
      provider: plan.attribution.provider,
      model: plan.attribution.model,
      extractive: plan.attribution.extractive,
      usage: { ...plan.usage, total_tokens: plan.usage.input_tokens + plan.usage.output_tokens },
    },
    budget,
  };
}
