import { z } from 'zod';
import type { ChatMessage, ModelProvider, TokenUsage } from '../models/provider.ts';
import { completeStructured } from '../models/structured.ts';
import { countMessages, countTokens } from '../models/token-count.ts';
import { readAttribute } from './attributes.ts';
import { attributionOf } from './extract-facts.ts';
import type { MemoryRecord, ModelAttribution } from './records.ts';

export interface Insight {
  entity: string;
  insight: string;
  /** Ids of the memories the insight rests on. */
  sources: string[];
}

export interface Reflection {
  insights: Insight[];
  usage: TokenUsage;
  attribution: ModelAttribution;
}

const MAX_PER_ENTITY = 8;

export function reflectionPrompt(facts: MemoryRecord[]): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        'You reflect over an agent memory. Group what the facts say by entity (person, place, ' +
        'project) and write one short insight per entity that the facts support, citing the ids ' +
        'of the facts it rests on. Do not add anything the facts do not say. Answer with JSON: ' +
        '{"insights": [{"entity": "...", "insight": "...", "sources": ["id"]}]}.',
    },
    { role: 'user', content: facts.map((f) => `${f.id}: ${f.content}`).join('\n') || '(no facts)' },
  ];
}

const reflectionSchema = z.object({
  insights: z
    .array(
      z.object({
        entity: z.string().min(1),
        insight: z.string().min(1),
        sources: z.array(z.string()).min(1),
      }),
    )
    .max(50),
});

/** Insights per entity over the current facts of a lens. */
export async function reflect(
  provider: ModelProvider,
  records: MemoryRecord[],
): Promise<Reflection> {
  const facts = records.filter((r) => r.kind !== 'reflection' && !r.valid_until);
  if (!provider.generative) return summarisePerEntity(provider, facts);
  const known = new Set(facts.map((f) => f.id));
  const { value, completion } = await completeStructured(
    provider,
    reflectionPrompt(facts),
    reflectionSchema,
  );
  const insights = value.insights
    .map((i) => ({ ...i, sources: i.sources.filter((s) => known.has(s)) }))
    // An insight citing nothing we gave the model is unsupported: drop it.
    .filter((i) => i.sources.length > 0);
  return { insights, usage: completion.usage, attribution: attributionOf(completion) };
}

/** The local provider's reflection: what the facts say, grouped by their subject. */
function summarisePerEntity(provider: ModelProvider, facts: MemoryRecord[]): Reflection {
  const groups = new Map<string, MemoryRecord[]>();
  for (const f of [...facts].sort((a, b) => a.created_at.localeCompare(b.created_at))) {
    const subject = readAttribute(f.content)?.subject ?? 'other';
    const list = groups.get(subject) ?? [];
    list.push(f);
    groups.set(subject, list);
  }
  const insights: Insight[] = [];
  for (const [entity, list] of groups) {
    if (entity === 'other' && list.length < 2) continue;
    const shown = list.slice(-MAX_PER_ENTITY);
    const name = entity === 'other' ? 'Other facts' : titleCase(entity);
    insights.push({
      entity: name,
      insight: `${name}: ${list.length} stored fact${list.length === 1 ? ' says' : 's say'} ${shown
        .map((f) => `"${f.content.replace(/\.$/, '')}"`)
        .join('; ')}.`,
      sources: shown.map((f) => f.id),
    });
  }
  insights.sort((a, b) => b.sources.length - a.sources.length || a.entity.localeCompare(b.entity));
  const prompt = reflectionPrompt(facts);
  const out = insights.map((i) => i.insight).join('\n');
  return {
    insights,
    usage: {
      input_tokens: countMessages(prompt),
      output_tokens: countTokens(out),
      source: 'tokenizer',
    },
    attribution: { provider: provider.name, model: provider.textModel, extractive: true },
  };
}

function titleCase(s: string): string {
  return s.replace(/\b\p{L}/gu, (c) => c.toUpperCase());
}
