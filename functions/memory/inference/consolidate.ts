import { z } from 'zod';
import type { ChatMessage, ModelProvider, TokenUsage } from '../models/provider.ts';
import { completeStructured } from '../models/structured.ts';
import { countMessages, countTokens } from '../models/token-count.ts';
import { readAttribute, sameAttribute } from './attributes.ts';
import { attributionOf } from './extract-facts.ts';
import type { MemoryRecord, ModelAttribution } from './records.ts';
import { NEAR_DUPLICATE } from './reconcile.ts';
import { jaccard, normalise, terms } from './text.ts';

/**
 * Consolidation decisions over a set of facts. `merge`: the fact duplicates `into` and is closed
 * in its favour; `supersede`: a later fact gives a new value of the same attribute; `keep`: no
 * change. Applying them closes facts with `valid_until`; nothing is deleted.
 */
export type ConsolidationDecision =
  | { action: 'merge'; id: string; into: string; reason: string }
  | { action: 'supersede'; id: string; by: string; reason: string }
  | { action: 'keep'; id: string; reason: string };

export interface ConsolidationPlan {
  decisions: ConsolidationDecision[];
  usage: TokenUsage;
  attribution: ModelAttribution;
}

export function consolidationPrompt(facts: MemoryRecord[]): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        'You consolidate an agent memory. For each fact decide: "merge" into another fact that ' +
        'says the same thing, "supersede" when a later fact gives a new value of the same ' +
        'attribute, or "keep". Use only the ids given. Answer with JSON: {"decisions": [{"action": ' +
        '"merge", "id": "...", "into": "..."} | {"action": "supersede", "id": "...", "by": "..."} | ' +
        '{"action": "keep", "id": "..."}]}.',
    },
    {
      role: 'user',
      content: facts.map((f) => `${f.id} (${f.created_at}): ${f.content}`).join('\n') || '(none)',
    },
  ];
}

const modelDecision = z.discriminatedUnion('action', [
  z.object({
    action: z.literal('merge'),
    id: z.string(),
    into: z.string(),
    reason: z.string().default('model: duplicate'),
  }),
  z.object({
    action: z.literal('supersede'),
    id: z.string(),
    by: z.string(),
    reason: z.string().default('model: newer value'),
  }),
  z.object({
    action: z.literal('keep'),
    id: z.string(),
    reason: z.string().default('model: keep'),
  }),
]);
const planSchema = z.object({ decisions: z.array(modelDecision) });

export async function planConsolidation(
  provider: ModelProvider,
  records: MemoryRecord[],
): Promise<ConsolidationPlan> {
  const facts = records
    .filter((r) => r.kind === 'fact' && !r.valid_until)
    .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  if (!provider.generative) {
    const decisions = localPlan(facts);
    const prompt = consolidationPrompt(facts);
    return {
      decisions,
      usage: {
        input_tokens: countMessages(prompt),
        output_tokens: countTokens(JSON.stringify(decisions)),
        source: 'tokenizer',
      },
      attribution: { provider: provider.name, model: provider.textModel, extractive: true },
    };
  }
  const { value, completion } = await completeStructured(
    provider,
    consolidationPrompt(facts),
    planSchema,
  );
  return {
    decisions: sanitise(value.decisions, facts),
    usage: completion.usage,
    attribution: attributionOf(completion),
  };
}

/** Model decisions naming unknown ids or closing a fact twice are turned into `keep`. */
function sanitise(
  decisions: ConsolidationDecision[],
  facts: MemoryRecord[],
): ConsolidationDecision[] {
  const ids = new Set(facts.map((f) => f.id));
  const closed = new Set<string>();
  const byId = new Map<string, ConsolidationDecision>();
  for (const d of decisions) {
    if (!ids.has(d.id) || byId.has(d.id)) continue;
    const other = d.action === 'merge' ? d.into : d.action === 'supersede' ? d.by : undefined;
    if (other !== undefined && (!ids.has(other) || other === d.id || closed.has(other))) continue;
    if (d.action !== 'keep') closed.add(d.id);
    byId.set(d.id, d);
  }
  return facts.map(
    (f) => byId.get(f.id) ?? { action: 'keep', id: f.id, reason: 'no change proposed' },
  );
}

/** Exact and near duplicates merge into the oldest; older values of an attribute are superseded. */
export function localPlan(facts: MemoryRecord[]): ConsolidationDecision[] {
  const decisions = new Map<string, ConsolidationDecision>();
  // Each survivor's text read once: a plan of a large Context's window holds hundreds of facts,
  // and reading both texts of every pair again made planning 760 facts take 1.3 s.
  const survivors: { f: MemoryRecord; norm: string; terms: Set<string> }[] = [];
  for (const f of facts) {
    const norm = normalise(f.content);
    const t = terms(f.content);
    const twin = survivors.find((s) => s.norm === norm || jaccard(s.terms, t) >= NEAR_DUPLICATE);
    if (twin) {
      decisions.set(f.id, {
        action: 'merge',
        id: f.id,
        into: twin.f.id,
        reason: twin.norm === norm ? 'exact duplicate' : 'near duplicate',
      });
      continue;
    }
    survivors.push({ f, norm, terms: t });
  }
  // Among survivors, a later value of the same attribute supersedes every earlier one.
  const readings = survivors.map(({ f }) => ({ f, r: readAttribute(f.content) }));
  for (let i = 0; i < readings.length; i++) {
    const older = readings[i];
    if (!older?.r) continue;
    for (let j = readings.length - 1; j > i; j--) {
      const newer = readings[j];
      if (newer?.r && sameAttribute(older.r, newer.r) && older.r.value !== newer.r.value) {
        decisions.set(older.f.id, {
          action: 'supersede',
          id: older.f.id,
          by: newer.f.id,
          reason: `newer value of ${older.r.subject} ${older.r.attribute}`,
        });
        break;
      }
    }
  }
  return facts.map(
    (f) => decisions.get(f.id) ?? { action: 'keep', id: f.id, reason: 'distinct and current' },
  );
}
