import { z } from 'zod';
import type { ChatMessage, ModelProvider, TokenUsage } from '../models/provider.ts';
import { completeStructured } from '../models/structured.ts';
import { countMessages, countTokens } from '../models/token-count.ts';
import { attributionOf } from './extract-facts.ts';
import type { MemoryRecord, ModelAttribution, TurnRecord } from './records.ts';
import { coverage, terms } from './text.ts';

export interface Citation {
  /** Number used in the answer text, `[1]`. */
  ref: number;
  id: string;
  kind: MemoryRecord['kind'];
  quote: string;
}

export interface ChatAnswer {
  answer: string;
  citations: Citation[];
  /** False when memory held nothing that answers the question. */
  known: boolean;
  usage: TokenUsage;
  attribution: ModelAttribution;
}

export interface AnswerInput {
  message: string;
  /** Retrieved memory, best first. */
  memories: MemoryRecord[];
  /** The session's recent turns, oldest first. */
  history?: TurnRecord[];
}

/** Minimum share of the question's content words a memory must contain to be quoted. */
export const MIN_COVERAGE = 0.34;
const MAX_QUOTES = 2;
const HISTORY_CUE = /\b(?:before|previous(?:ly)?|used to|former(?:ly)?|earlier|originally|old)\b/i;

export function answerPrompt(input: AnswerInput): ChatMessage[] {
  const memory = input.memories
    .map((m, i) => `[${i + 1}] (${m.kind} ${m.id}) ${m.content}`)
    .join('\n');
  const history = (input.history ?? [])
    .map((t) => `${t.speaker ?? t.role}: ${t.content}`)
    .join('\n');
  return [
    {
      role: 'system',
      content:
        'You answer questions for an agent using ONLY the numbered memory below. Cite every claim ' +
        'with its number like [1]. If the memory does not contain the answer, say you do not know. ' +
        'Memory entries that contradict each other: prefer the most recent. Answer with JSON: ' +
        '{"answer": "...", "citations": [1, 2], "known": true}.\n\nMEMORY:\n' +
        (memory || '(empty)'),
    },
    ...(history ? [{ role: 'user' as const, content: `Conversation so far:\n${history}` }] : []),
    { role: 'user', content: input.message },
  ];
}

const answerSchema = z.object({
  answer: z.string(),
  citations: z.array(z.number().int().positive()).default([]),
  known: z.boolean().default(true),
});

/** An answer from memory: quoted (local) or generated and validated (other providers). */
export async function composeAnswer(
  provider: ModelProvider,
  input: AnswerInput,
): Promise<ChatAnswer> {
  if (!provider.generative) return extractiveAnswer(provider, input);
  const messages = answerPrompt(input);
  const { value, completion } = await completeStructured(provider, messages, answerSchema);
  // Citations naming memory the model was not shown are dropped, not trusted.
  const citations = [...new Set(value.citations)]
    .filter((n) => n <= input.memories.length)
    .map((n) => citationOf(n, input.memories[n - 1]));
  return {
    answer: value.answer,
    citations: citations.filter((c): c is Citation => c !== undefined),
    known: value.known,
    usage: completion.usage,
    attribution: attributionOf(completion),
  };
}

function citationOf(ref: number, m: MemoryRecord | undefined): Citation | undefined {
  return m ? { ref, id: m.id, kind: m.kind, quote: m.content } : undefined;
}

function extractiveAnswer(provider: ModelProvider, input: AnswerInput): ChatAnswer {
  const question = terms(input.message);
  // Superseded facts are history: quoted only when the question asks about the past.
  const aboutThePast = HISTORY_CUE.test(input.message);
  const ranked = input.memories
    .map((m, i) => ({ m, i, cover: coverage(question, terms(m.content)) }))
    .filter((r) => (aboutThePast || !r.m.valid_until) && r.cover >= MIN_COVERAGE)
    // Best coverage first; on a tie the more recent memory, then the retrieval order.
    .sort((a, b) => b.cover - a.cover || b.m.created_at.localeCompare(a.m.created_at) || a.i - b.i)
    .slice(0, MAX_QUOTES);
  const citations = ranked.map((r, n) => ({
    ref: n + 1,
    id: r.m.id,
    kind: r.m.kind,
    quote: r.m.content,
  }));
  const answer =
    citations.length === 0
      ? 'I do not know: nothing stored in memory answers this. (Extractive answer by the local provider, which only quotes stored memory.)'
      : `From memory (extractive: the local provider quotes stored memory and generates nothing): ${citations
          .map((c) => `"${c.quote}" [${c.ref}]`)
          .join(' ')}`;
  const prompt = answerPrompt(input);
  return {
    answer,
    citations,
    known: citations.length > 0,
    usage: {
      input_tokens: countMessages(prompt),
      output_tokens: countTokens(answer),
      source: 'tokenizer',
    },
    attribution: { provider: provider.name, model: provider.textModel, extractive: true },
  };
}
