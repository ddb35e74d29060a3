import { stemmer } from 'stemmer';
import type { FusionWeights } from './fusion.ts';
import { contentWords } from './text.ts';

/**
 * Query-performance gating of the fusion (a coverage predictor in the spirit of Cronen-Townsend
 * et al.'s query clarity, far cheaper): when bm25's best hit already holds most of the question's
 * content words, the lexical arm has found what the question says and the other arms (thesaurus,
 * feedback, entity graph, the local hashing vectors) mostly reorder it with noise; when the best
 * lexical hit shares few of them, the question is worded differently from its evidence and those
 * arms are what can bridge the gap. So their weights are scaled by how little the best lexical
 * hit covers, from full weight below `LOW` coverage down to a small floor above `HIGH`. The floor
 * keeps the graph's second hop alive when the question names its first hop word for word
 * ("Project Falcon" reaches "Dana Whitfield works from Oslo" through the fact that names both).
 *
 * Chosen on the dev split of the recall benchmark (docs/retrieval.md): with `local-sif-v1` the gate
 * (vector arm included) is the best dev setting of those tried (hybrid_graph 0.483 -> 0.490), and on
 * the public LoCoMo conversations, an outside check never tuned on, it turns hybrid_graph's loss
 * to bm25 into a gain.
 */
export const GATE_LOW = 0.3;
export const GATE_HIGH = 0.7;
export const GATE_FLOOR = 0.05;

/** Share of the question's content-word stems found in `hit` (0 when the question has none). */
export function lexicalCoverage(question: string, hit: string): number {
  const asked = new Set(contentWords(question).map((w) => stemmer(w)));
  if (asked.size === 0) return 0;
  const said = new Set(contentWords(hit).map((w) => stemmer(w)));
  let shared = 0;
  for (const stem of asked) if (said.has(stem)) shared++;
  return shared / asked.size;
}

/** 1 below `GATE_LOW` coverage, `GATE_FLOOR` above `GATE_HIGH`, linear between. */
export function gateFactor(coverage: number): number {
  const open = Math.max(0, Math.min(1, (GATE_HIGH - coverage) / (GATE_HIGH - GATE_LOW)));
  return GATE_FLOOR + (1 - GATE_FLOOR) * open;
}

/**
 * The weights for one query. bm25 keeps its weight; the expansion, soft-matching and graph arms
 * are gated (ungated, soft matching cost LoCoMo recall: 0.646 -> 0.635 hybrid_graph). The vector
 * arm is gated when `gateVector`: the search gates it for every embedding model (for the local
 * models from the start; for neural ones since a sentence-encoder stand-in measured it, fusion.ts)
 * and leaves it whole only for the first fusion that seeds the graph walk.
 */
export function gatedWeights(
  weights: FusionWeights,
  coverage: number,
  gateVector: boolean,
): FusionWeights {
  const g = gateFactor(coverage);
  return {
    ...weights,
    prf: weights.prf * g,
    synonym: weights.synonym * g,
    graph: weights.graph * g,
    soft: weights.soft * g,
    vector: gateVector ? weights.vector * g : weights.vector,
  };
}
