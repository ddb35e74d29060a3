import { HASH_MODEL_ID } from './local-embeddings.ts';
import { SIF_MODEL_ID } from './sif-embeddings.ts';

/**
 * Score fusion for the hybrid modes: a convex combination of min-max normalised scores
 * (Bruch et al., "An Analysis of Fusion Functions for Hybrid Retrieval", 2023), not equal-vote RRF.
 * With RRF a weak arm moves a mediocre item up as much as a strong arm does, which is how hybrid
 * used to score below bm25 alone. Here each arm has a weight chosen for the embedding model it runs
 * with: the local hashing model mostly repeats bm25's lexical evidence with more noise, so it gets
 * a small weight; a neural model sees paraphrases bm25 cannot and gets a real share.
 */

export const ARMS = ['bm25', 'prf', 'synonym', 'vector', 'graph', 'soft'] as const;
export type Arm = (typeof ARMS)[number];

export interface FusionWeights {
  bm25: number;
  /** The pseudo-relevance-feedback query (RM3-style expansion terms). */
  prf: number;
  /** The thesaurus-expanded query (synonyms of the question's words). */
  synonym: number;
  vector: number;
  /** Personalised PageRank over the entity graph (hybrid_graph only). */
  graph: number;
  /** Word-by-word soft matching of the other arms' candidates (retrieval/soft-match.ts). */
  soft: number;
  /** Share of a turn's score that flows to the turns right before and after it. */
  neighbour: number;
  /** Weight of the session's own score (its best turns) added to each of its turns. */
  session: number;
}

/**
 * Weights tuned on the dev split of the recall benchmark (`npm run bench -- recall`, see
 * docs/retrieval.md), per embedding model. Measured there: the thesaurus arm and the entity graph
 * add recall; the local hashing vectors and pseudo-relevance feedback cost recall on paraphrased
 * questions, so they get zero or token weights. Neighbour turns and session scores cost recall
 * while the set's turns were far shorter than real chat's and gain since they are as long (the
 * local SIF weights below).
 */
const HASH_WEIGHTS: FusionWeights = {
  bm25: 1,
  prf: 0,
  synonym: 0.4,
  vector: 0.05,
  graph: 2,
  // Soft matching reads the GloVe table; the hashing model's weights predate it and stay as tuned.
  soft: 0,
  neighbour: 0,
  session: 0,
};

/**
 * The local SIF model (shipped GloVe word vectors, SIF-composed; `local-sif-v2` since they are
 * retrofitted to WordNet, which kept these weights, docs/retrieval.md): on the dev split its vector arm alone
 * scores above bm25 (recall@10 0.38 vs 0.32) and finds paraphrases bm25 cannot, so it gets a
 * real share. The soft-matching arm, over the same word vectors, is the strongest arm of all on
 * paraphrased questions (dev hybrid 0.531 -> 0.639 with it at 3); weights above 3 gained a little
 * more on dev but took the public LoCoMo check below bm25, so the choice stops there. With it the
 * entity graph no longer adds recall on dev at any weight tried (2 -> 0.622, 0.5 -> 0.634, hybrid
 * 0.639), so it keeps a small weight and the default mode is `hybrid` (operations/query.ts).
 * Tuned on the dev split only (docs/retrieval.md lists the runs).
 */
const SIF_WEIGHTS: FusionWeights = {
  bm25: 1,
  prf: 0,
  synonym: 0.4,
  vector: 1.5,
  graph: 0.5,
  soft: 3,
  // A question and its answer, or news and what its teller adds, sit within a turn or two; a
  // session whose turns score well is likelier the one asked about. Dev hybrid 0.540 -> 0.546,
  // hybrid_graph 0.537 -> 0.548 (plateau 0.1-0.2 / 0.2-0.3); LoCoMo, never tuned on, 0.651 ->
  // 0.685 and 0.654 -> 0.692. On the set before its turns were as long as real chat's, the same
  // weights cost dev recall (docs/retrieval.md, ninth round). Measured again on the tenth
  // round's set (0.1-0.3 each): a plateau, kept.
  neighbour: 0.2,
  session: 0.2,
};

/**
 * Neural embedders (workers-ai, openai). No network model runs in the benchmark, so these were
 * measured with a stand-in: Universal Sentence Encoder lite (a 512-dimension transformer sentence
 * encoder, `@energetic-ai/embeddings` 0.2.0 with its published weights, run in Node), its vectors
 * given to the store under a neural model id. The earlier weights (vector 0.8, graph 2, no soft
 * matching, no neighbour or session scores; set from Bruch et al. without a measurement) gave dev
 * recall@10 0.544 (hybrid); these give 0.635, and LoCoMo, never tuned on, 0.676 -> 0.736. They are
 * the local word vectors' weights with the vector arm at 2.5 (at 1.5: 0.602): a sentence
 * encoder finds paraphrases the word vectors miss, yet soft matching, the thesaurus and the
 * conversation scores still add what a single vector per turn cannot (docs/retrieval.md,
 * eleventh round). Soft matching makes such a Worker decode the word-vector table once per
 * isolate (about 12 ms).
 */
const NEURAL_WEIGHTS: FusionWeights = {
  ...SIF_WEIGHTS,
  vector: 2.5,
};

/** Weights for the vector arm's model; `null` (no query vector: bm25-only arms) reads as local. */
export function weightsFor(modelId: string | null): FusionWeights {
  if (modelId === null || modelId === SIF_MODEL_ID) return SIF_WEIGHTS;
  if (modelId === HASH_MODEL_ID) return HASH_WEIGHTS;
  return NEURAL_WEIGHTS;
}

export interface Scored {
  seq: number;
  score: number;
}

/**
 * Min-max normalisation onto [0, 1] over one arm's list. A list whose scores are all equal maps
 * every member to 1: each is as good as the arm can say.
 */
export function normalise(list: Scored[]): Map<number, number> {
  const out = new Map<number, number>();
  if (list.length === 0) return out;
  let min = Infinity;
  let max = -Infinity;
  for (const r of list) {
    min = Math.min(min, r.score);
    max = Math.max(max, r.score);
  }
  const span = max - min;
  for (const r of list) out.set(r.seq, span > 0 ? (r.score - min) / span : 1);
  return out;
}

/**
 * Convex combination of normalised arm scores. An item missing from an arm's list scores 0 there.
 * The weights are divided by their sum over the arms that returned anything, so a mode with an
 * empty arm (no query vector, no expansion terms) ranks exactly like the remaining arms.
 */
export function fuseScores(arms: { arm: Arm; list: Scored[] }[], weights: FusionWeights): Scored[] {
  const live = arms.filter((a) => a.list.length > 0 && weights[a.arm] > 0);
  const total = live.reduce((sum, a) => sum + weights[a.arm], 0);
  const scores = new Map<number, number>();
  for (const { arm, list } of live) {
    const w = weights[arm] / total;
    for (const [seq, s] of normalise(list)) scores.set(seq, (scores.get(seq) ?? 0) + w * s);
  }
  return [...scores]
    .map(([seq, score]) => ({ seq, score }))
    .sort((a, b) => b.score - a.score || a.seq - b.seq);
}
