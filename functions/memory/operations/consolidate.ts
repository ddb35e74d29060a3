import { resolveLens } from '../auth/guards.ts';
import type { AuthContext, Grants } from '../auth/principal.ts';
import { planConsolidation, type ConsolidationDecision } from '../inference/consolidate.ts';
import type { ModelProvider, TokenUsage } from '../models/provider.ts';
import { lensFromGrant, lensMatches, type LensInput } from '../scopes/lens.ts';
import type { LiveItem } from '../store/model-paths.ts';
import { mayClose } from '../store/validity.ts';
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
  return consolidateLens(
    deps,
    context,
    { lens, grants: auth.key.grants },
    input.dry_run === true,
    providerOf(deps, override),
  );
}

/**
 * A decision that would close a fact the writer may not close (or in favour of a fact some of
 * its readers cannot see) becomes `keep`, so the preview shows what applying will really do.
 */
export function withinWriter(
  decisions: ConsolidationDecision[],
  facts: LiveItem[],
  writeGrant: readonly string[],
): ConsolidationDecision[] {
  const scopes = new Map(facts.map((f) => [f.id, f.scopes]));
  return decisions.map((d) => {
    if (d.action === 'keep') return d;
    const survivor = scopes.get(d.action === 'merge' ? d.into : d.by);
    const closed = scopes.get(d.id);
    if (closed && survivor && mayClose(writeGrant, closed, survivor)) return d;
    return {
      action: 'keep',
      id: d.id,
      reason: `kept: the ${d.action} would hide it from readers of its scopes`,
    };
  });
}

/**
 * Shared by the route and the cadenced `consolidate` job (which runs over the whole Context with
 * every grant). Only facts the caller may read are planned over, so no decision names another.
 */
export async function consolidateLens(
  deps: OperationDeps,
  context: Parameters<typeof chargeTokens>[1],
  caller: { lens: string[][]; grants: Grants },
  dryRun: boolean,
  provider: ModelProvider,
): Promise<{ response: ConsolidateResponse; budget: BudgetState }> {
  const store = deps.store(context.id);
  const readable = lensFromGrant(caller.grants['memory:read']);
  const facts = (
    await store.modelCurrentItems({ lens: caller.lens, kinds: ['fact'], limit: MAX_FACTS })
  ).filter((f) => lensMatches(readable, f.scopes));
  const writeGrant = caller.grants['memory:write'];
  const raw = await planConsolidation(provider, facts);
  const plan = { ...raw, decisions: withinWriter(raw.decisions, facts, writeGrant) };
  const changes = plan.decisions.filter((d) => d.action !== 'keep');
  const applied =
    dryRun || changes.length === 0 ? 0 : await store.modelApplyConsolidation(changes, writeGrant);
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
