import { boundedMemo, MEMO_KEY_CHARS } from './bounded-memo.ts';
import { cosine } from './embedder.ts';
import type { Scored } from './fusion.ts';
import { embedSif } from './sif-embeddings.ts';
import { speakerOf } from './text-analysis.ts';

/**
 * Half of `vector` mode with the local model (local-vector-mode.ts adds word-by-word matching): an
 * item scores the better of its whole-text cosine and its best sentence's. One SIF vector for a
 * long turn averages everything it says ("Saw Phoebe Bridgers last Thursday. It is harder than it
 * looks, trust me. My plan is to go every week…"), so the sentence that answers is diluted by the
 * rest; scoring sentences keeps it, as sentence-window retrieval does with neural embedders.
 * Measured (docs/retrieval.md, ninth round): dev vector recall@10 0.292 -> 0.339, LoCoMo (an
 * outside check, never tuned on) 0.426 -> 0.485, the 360-fact set unchanged (its facts are one
 * sentence each). In the fused modes the same re-scoring of the vector arm cost recall (dev 0.546
 * -> 0.537): soft matching already matches word by word.
 *
 * Only the stored vector's candidates are re-scored (the caller's pool), so the cost is one SIF
 * embedding per sentence of at most that many items, computed in the Worker without a model call,
 * and remembered: a Context's object answers many queries whose pools overlap.
 */
export function bestSentenceRanked(
  pool: Scored[],
  query: Float32Array,
  contentOf: (seq: number) => string | null,
): Scored[] {
  return pool
    .map((r) => {
      const content = contentOf(r.seq);
      if (content === null) return r;
      return { seq: r.seq, score: Math.max(r.score, bestSentence(content, query)) };
    })
    .sort((a, b) => b.score - a.score || a.seq - b.seq);
}

/** The best cosine of one sentence of the content (with its speaker's prefix) against the query. */
function bestSentence(content: string, query: Float32Array): number {
  const speaker = speakerOf(content);
  const body = speaker?.rest ?? content;
  const prefix = speaker ? `${speaker.name}: ` : '';
  const sentences = body.split(SENTENCE_BREAK).filter((s) => s.trim().length > 0);
  // One sentence is the whole item: its cosine is already the stored vector's.
  if (sentences.length < 2) return -1;
  let best = -1;
  for (const sentence of sentences)
    best = Math.max(best, cosine(sentenceVector(prefix + sentence), query));
  return best;
}

/** After a full stop, exclamation or question mark, or at a line break. */
const SENTENCE_BREAK = /(?<=[.!?])\s+|\n+/;

/** A sentence's SIF vector, per isolate: 4,096 of 100 floats is 1.6 MB at most. */
const sentenceVector = boundedMemo(4096, embedSif, MEMO_KEY_CHARS);
