import { boundedMemo, MEMO_KEY_CHARS } from './bounded-memo.ts';
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
 * `PRIOR_HALF` (a turn of that many content words keeps half its score) is chosen on the dev split
 * of the recall benchmark. On the set of the tenth round (docs/retrieval.md), whose turns are as
 * long as real chat's and whose length says as much about evidence as real chat's (see the set's
 * README), dev hybrid_graph recall@10: none 0.490, 2 -> 0.497, 3 -> 0.501, 4 -> 0.496, 5 -> 0.496,
 * 10 -> 0.490; hybrid 0.491, 0.493, 0.492, 0.492, 0.486, 0.481. On the public LoCoMo conversations
 * (an outside check, never tuned on) hybrid_graph 0.692 at 10, 0.710 at 3, 0.712 without. Earlier
 * sets made evidence much longer than anything else, and there 10 (and more) won on dev by a wide
 * margin while costing LoCoMo recall: the benchmark rewarded length as real chat does not, which is
 * why the set changed. The fused modes use it; the single-arm modes do not. `vector` with it lost
 * LoCoMo recall (0.426 -> 0.273). `bm25` is the mode a caller picks for exact lexical ranking
 * (identifiers, names), and the prior reorders its near ties by length: a first-person turn that
 * matched one more of the question's words fell behind a turn merely naming its speaker
 * (test/workers/memory/speakers.test.ts).
 */
export const PRIOR_HALF = 3;

/**
 * The prior of one item, in [0, 1]: for a conversation turn (an item with a session label, or
 * content in `Name: text` form) `c / (c + PRIOR_HALF)`; any other item keeps its whole score. A
 * curated fact is short because it is precise ("Dana works from Oslo"), not because it is small
 * talk: on the 360-fact regression set the prior on every item cost hybrid 0.879 -> 0.850.
 */
export function contentPrior(content: string, session: string | null): number {
  const { spoken, words } = countedWords(content);
  if (session === null && !spoken) return 1;
  return words / (words + PRIOR_HALF);
}

/**
 * Whether a text is in `Name: text` form and how many content words it has without that prefix,
 * by text (4,096 texts). Every fused query weighs a few hundred candidates, the same turns query
 * after query, and tokenising each again was about a tenth of a hybrid query on conversations; the
 * count follows from the text alone, so it cannot go stale.
 */
const countedWords = boundedMemo(
  4_096,
  (content: string): { spoken: boolean; words: number } => {
    const speaker = speakerOf(content);
    return { spoken: speaker !== null, words: contentWords(speaker?.rest ?? content).length };
  },
  MEMO_KEY_CHARS,
);
