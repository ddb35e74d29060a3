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
import { failure } from '../errors.ts';

/** A consolidation cursor: the seq a walk over a large Context goes on after (opaque to callers). */
export function encodeConsolidationCursor(through: number): string {
  return btoa(`c${through}`);
}

export function decodeConsolidationCursor(cursor: string): number {
  try {
    const match = /^c(\d{1,15})$/.exec(atob(cursor));
    if (match?.[1] !== undefined) return Number(match[1]);
  } catch {
    // reported below
  }
  throw failure('validation-error', 'cursor: not a cursor returned by this operation');
}

export interface ConsolidateResponse {
  decisions: ConsolidationDecision[];
  dry_run: boolean;
  applied: number;
  /** Set while facts past this call's window remain: pass it back as `cursor` to go on. */
  next_cursor: string | null;
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
  input: {
    contextId: string;
    lens?: LensInput | undefined;
    dry_run?: boolean | undefined;
    cursor?: string | undefined;
  },
  override?: ModelProvider,
): Promise<{ response: ConsolidateResponse; budget: BudgetState }> {
  const after = input.cursor === undefined ? 0 : decodeConsolidationCursor(input.cursor);
  const lens = resolveLens(auth, 'memory:write', input.lens);
  const context = await requireContext(deps, auth, input.contextId);
  assertNotBlocked(context);
  const { response, budget } = await consolidateLens(
    deps,
    context,
    { lens, grants: auth.key.grants },
    { dryRun: input.dry_run === true, after },
    providerOf(deps, override),
  );
  return { response, budget };
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
 * One call plans a Context of up to 1,000 current facts whole, or one window of a larger one with
 * the facts most like it (store/consolidation-set.ts); `through` is where the next call goes on.
 */
export async function consolidateLens(
  deps: OperationDeps,
  context: Parameters<typeof chargeTokens>[1],
  caller: { lens: string[][]; grants: Grants },
  walk: { dryRun: boolean; after: number },
  provider: ModelProvider,
): Promise<{ response: ConsolidateResponse; budget: BudgetState; through: number }> {
  const { dryRun } = walk;
  const store = deps.store(context.id);
  const readable = lensFromGrant(caller.grants['memory:read']);
  const set = await store.modelConsolidationSet({ lens: caller.lens, after: walk.after });
  const facts = set.facts.filter((f) => lensMatches(readable, f.scopes));
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
      next_cursor: set.end ? null : encodeConsolidationCursor(set.through),
      summary: { merge: count('merge'), supersede: count('supersede'), keep: count('keep') },
      provider: plan.attribution.provider,
      model: plan.attribution.model,
      extractive: plan.attribution.extractive,
      usage: { ...plan.usage, total_tokens: plan.usage.input_tokens + plan.usage.output_tokens },
    },
    budget,
    through: set.through,
  };
}
