import { resolveLens } from '../auth/guards.ts';
import type { AuthContext } from '../auth/principal.ts';
import { failure } from '../errors.ts';
import { reflect as reflectOver, type Insight, type Reflection } from '../inference/reflect.ts';
import type { ModelProvider, TokenUsage } from '../models/provider.ts';
import { checkPaths, itemWithinGrant } from '../scopes/grants.ts';
import type { LensInput } from '../scopes/lens.ts';
import { MemoryError } from '../errors.ts';
import type { ItemRecord, NewItem } from '../store/types.ts';
import { requireContext, type ContextRow } from './contexts.ts';
import { embedCharged } from './model-embed.ts';
import type { OperationDeps } from './deps.ts';
import { chargeTokens, currentBudget, type BudgetState } from './model-usage.ts';
import { providerOf } from './model-provider.ts';
import { cached, cacheKey, remember } from './response-cache.ts';
import { assertNotBlocked } from './write-fact.ts';

const MAX_FACTS = 500;

export interface ReflectInput {
  contextId: string;
  lens?: LensInput | undefined;
  persist?: boolean | undefined;
}

export interface ReflectResponse {
  insights: (Insight & { reflection_id: string | null })[];
  persisted: boolean;
  facts_considered: number;
  provider: string;
  model: string;
  extractive: boolean;
  usage: {
    input_tokens: number;
    output_tokens: number;
    total_tokens: number;
    source: TokenUsage['source'];
  };
  cached: boolean;
}

/**
 * Insights over the facts of a lens. `persist: true` stores each insight as a memory item of kind
 * `reflection` linked to its sources, and needs a supervisor (or management) principal.
 */
export async function reflect(
  deps: OperationDeps,
  auth: AuthContext,
  input: ReflectInput,
  override?: ModelProvider,
): Promise<{ response: ReflectResponse; budget: BudgetState }> {
  if (input.persist && auth.principal.kind === 'agent') {
    throw failure(
      'forbidden',
      'persisting a reflection needs a supervisor principal; an agent key may reflect without persist',
    );
  }
  const lens = resolveLens(auth, 'memory:read', input.lens);
  const context = await requireContext(deps, auth, input.contextId);
  const provider = providerOf(deps, override);
  const store = deps.store(input.contextId);
  const key = await cacheKey({
    op: 'reflect',
    lens,
    provider: provider.name,
    model: provider.textModel,
  });
  if (!input.persist) {
    const hit = await cached<ReflectResponse>(store, key);
    if (hit)
      return { response: { ...hit, cached: true }, budget: await currentBudget(deps, context) };
  }
  assertNotBlocked(context);

  const facts = await store.modelCurrentItems({ lens, kinds: ['fact'], limit: MAX_FACTS });
  const result = input.persist
    ? await reflectPerScopes(provider, facts)
    : await reflectOver(provider, facts);
  let ids: (string | null)[] = result.insights.map(() => null);
  if (input.persist && result.insights.length > 0) {
    ids = await persist(deps, auth, context, provider, result.insights, facts);
  }
  const budget = await chargeTokens(deps, context, 'reflect', result.attribution, result.usage);
  const response: ReflectResponse = {
    insights: result.insights.map((i, n) => ({ ...i, reflection_id: ids[n] ?? null })),
    persisted: input.persist === true,
    facts_considered: facts.length,
    provider: result.attribution.provider,
    model: result.attribution.model,
    extractive: result.attribution.extractive,
    usage: {
      ...result.usage,
      total_tokens: result.usage.input_tokens + result.usage.output_tokens,
    },
    cached: false,
  };
  // Persisting wrote to the Context (and so emptied its cache): only a read-only answer is kept.
  if (!input.persist) await remember(store, key, response);
  return { response, budget };
}

/**
 * Reflection for persisting, run once per distinct scope set. Item scopes are read as OR (a
 * reader matching any one of them reads the item), so a reflection over a team:eng and a team:hr
 * fact stored as [team:eng, team:hr] would show HR's words to eng readers. Grouping first gives
 * each stored insight sources with one scope set, which it then carries exactly.
 */
async function reflectPerScopes(provider: ModelProvider, facts: ItemRecord[]): Promise<Reflection> {
  const groups = new Map<string, ItemRecord[]>();
  for (const fact of facts) {
    const key = JSON.stringify([...new Set(fact.scopes)].sort());
    const group = groups.get(key);
    if (group) group.push(fact);
    else groups.set(key, [fact]);
  }
  if (groups.size <= 1) return reflectOver(provider, facts);
  const parts: Reflection[] = [];
  for (const group of groups.values()) parts.push(await reflectOver(provider, group));
  const [first] = parts;
  if (!first) return reflectOver(provider, facts);
  return {
    insights: parts.flatMap((p) => p.insights),
    usage: {
      input_tokens: parts.reduce((n, p) => n + p.usage.input_tokens, 0),
      output_tokens: parts.reduce((n, p) => n + p.usage.output_tokens, 0),
      source: parts.every((p) => p.usage.source === 'provider') ? 'provider' : 'tokenizer',
    },
    attribution: first.attribution,
  };
}

async function persist(
  deps: OperationDeps,
  auth: AuthContext,
  context: ContextRow,
  provider: ModelProvider,
  insights: Insight[],
  facts: ItemRecord[],
): Promise<string[]> {
  const byId = new Map(facts.map((f) => [f.id, f]));
  const vectors = await embedCharged(
    deps,
    context,
    'reflect',
    provider,
    insights.map((i) => i.insight),
  );
  const items: NewItem[] = insights.map((insight, n) => {
    // Sources share one scope set (reflectPerScopes), which the reflection carries.
    const scopes = [...new Set(insight.sources.flatMap((s) => byId.get(s)?.scopes ?? []))].sort();
    const values = vectors[n];
    return {
      kind: 'reflection',
      content: insight.insight,
      scopes,
      metadata: { entity: insight.entity, sources: insight.sources },
      sessionId: null,
      sourceId: insight.sources[0] ?? null,
      vector: values ? { modelId: deps.embedder.modelId, values } : null,
    };
  });
  for (const item of items) {
    const denied = checkPaths(auth.key, 'memory:write', item.scopes);
    if (denied) throw new MemoryError(denied);
    if (!itemWithinGrant(auth.key, 'memory:write', item.scopes)) {
      throw failure('forbidden', "a reflection's scopes must lie inside this key's write grant");
    }
  }
  const records = await deps.store(context.id).modelPersistReflections(
    items,
    insights.map((i) => i.sources),
  );
  return records.map((r) => r.id);
}
