import { speakerOf } from './text-analysis.ts';
import { contentWords } from './text.ts';

/**
 * A query-independent prior on how much an item can say: it keeps `c / (c + PRIOR_HALF)` of its
 * score, `c` its content words with the speaker's prefix left out. Chit-chat ("Hmm, tell me
 * more.", "Hiya, long time no chat.") carries the speaker's name, which half the questions about
 * that speaker share, and being short it wins bm25's length normalisation on that name alone; a
 * turn that tells something has the words to tell it. Document-length priors are old news in
 * ad-hoc retrieval (Singhal et al.'s pivoted normalisation; document priors in language-model
 * retrieval); this one counts content words, not characters.
 *
 * `PRIOR_HALF` (a turn of that many content words keeps half its score) was chosen on the dev
 * split of the recall benchmark: 3 -> 0.509, 6 -> 0.524, 10 -> 0.531 hybrid recall@10 (0.469
 * without). Larger values kept gaining on dev by ranking long turns first whatever they say, so
 * the choice stops at 10, where a long turn still needs the words: on the public LoCoMo
 * conversations (an outside check, never tuned on) hybrid_graph goes 0.634 -> 0.648 with it.
 * The fused modes use it; the single-arm modes do not. `vector` with it lost LoCoMo recall
 * (0.426 -> 0.273). `bm25` with it gains (dev 0.321 -> 0.408, LoCoMo 0.628 -> 0.632), but `bm25`
 * is the mode a caller picks for exact lexical ranking (identifiers, names), and the prior
 * reorders its near ties by length: a first-person turn that matched one more of the question's
 * words fell behind a turn merely naming its speaker (test/workers/memory/speakers.test.ts).
 *
 * Open: much of its gain came from the benchmark's turns being far shorter than real chat's. On
 * the set whose turns are as long as LoCoMo's (docs/retrieval.md, ninth round) it still gains on
 * dev (hybrid 0.497 -> 0.540) while LoCoMo's hybrid is 0.014 better without it (0.665 against
 * 0.651, the pipeline of that day); a weaker prior is better on LoCoMo and worse on dev. Kept by
 * the rule that dev decides.
 */
export const PRIOR_HALF = 10;

/**
 * The prior of one item, in [0, 1]: for a conversation turn (an item with a session label, or
 * content in `Name: text` form) `c / (c + PRIOR_HALF)`; any other item keeps its whole score. A
 * curated fact is short because it is precise ("Dana works from Oslo"), not because it is small
 * talk: on the 360-fact regression set the prior on every item cost hybrid 0.879 -> 0.850.
 */
export function contentPrior(content: string, session: string | null): number {
  const speaker = speakerOf(content);
  if (session === null && speaker === null) return 1;
  const c = contentWords(speaker?.rest ?? content).length;
  return c / (c + PRIOR_HALF);
}
