import { z } from 'zod';
import type { Completion, ModelProvider, TokenUsage } from '../models/provider.ts';
import { completeStructured } from '../models/structured.ts';
import { countTokens } from '../models/token-count.ts';
import type { ModelAttribution, TurnRecord } from './records.ts';
import { atomicStatements } from './statements.ts';

export interface ExtractionInput {
  content: string;
  /** Name that first-person statements resolve to. */
  speaker?: string;
  /** The session's recent turns, oldest first: context for pronouns, never facts themselves. */
  recentTurns?: TurnRecord[];
}

export interface ExtractionResult {
  statements: string[];
  usage: TokenUsage;
  attribution: ModelAttribution;
}

const extractionSchema = z.object({
  facts: z.array(z.string().min(1).max(2000)).max(50),
});

export function extractionPrompt(
  input: ExtractionInput,
): { role: 'system' | 'user'; content: string }[] {
  const history = (input.recentTurns ?? [])
    .map((t) => `${t.speaker ?? t.role}: ${t.content}`)
    .join('\n');
  return [
    {
      role: 'system',
      content:
        'You extract durable facts for an agent memory. Split the NEW CONTENT into short, atomic, ' +
        'self-contained statements in the third person. Replace "I", "me" and "my" with the ' +
        "speaker's name. Use the conversation only to resolve references; do not extract facts " +
        'from it. Never invent anything that is not stated. Answer with JSON: {"facts": ["..."]}.',
    },
    {
      role: 'user',
      content:
        `SPEAKER: ${input.speaker ?? 'unknown'}\n` +
        (history ? `CONVERSATION SO FAR:\n${history}\n` : '') +
        `NEW CONTENT:\n${input.content}`,
    },
  ];
}

/** Atomic facts stated in `content`: extractive for `local`, a validated model answer otherwise. */
export async function extractFacts(
  provider: ModelProvider,
  input: ExtractionInput,
): Promise<ExtractionResult> {
  if (!provider.generative) {
    const statements = atomicStatements(input.content, input.speaker);
    return {
      statements,
      usage: {
        input_tokens: countTokens(input.content),
        output_tokens: statements.reduce((s, t) => s + countTokens(t), 0),
        source: 'tokenizer',
      },
      attribution: { provider: provider.name, model: provider.textModel, extractive: true },
    };
  }
  const { value, completion } = await completeStructured(
    provider,
    extractionPrompt(input),
    extractionSchema,
  );
  return {
    statements: dedupe(value.facts.map((f) => f.trim()).filter(Boolean)),
    usage: completion.usage,
    attribution: attributionOf(completion),
  };
}

export function attributionOf(completion: Completion): ModelAttribution {
  return { provider: completion.provider, model: completion.model, extractive: false };
}

function dedupe(list: string[]): string[] {
  const seen = new Set<string>();
  return list.filter((s) => {
    const k = s.toLowerCase();
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
