// How far a bm25 list over a large Context reads (fts.ts `conjunction`; the postings index
// bounds its lists alike, postings-index.ts).

/**
 * Postings a question's matched terms may hold before its list is bounded: scoring every row
 * that holds any of them is what grows with the Context (a million facts: about 150,000 rows a
 * question, 290 ms in process). Past it, the list starts with the newest `CONJUNCTIVE_ROWS` rows
 * holding all of the question's words (the few the best come from), and the rest is read from
 * the newest `RECENT_ROWS` rows matching its terms. Below it, one list best first, as FTS5 gives
 * it.
 */
export const CONJUNCTIVE_FROM = 20_000;
/**
 * Rows holding every word of the question that a bounded list scores: the newest ones. At a
 * million facts the bench's questions have about 2,000 such rows; scoring all of them from their
 * text read them at random places (10 ms a question in process, the largest share of bm25's 24).
 */
export const CONJUNCTIVE_ROWS = 500;
/** Rows the rest of a bounded list scores, per part: the newest matching its terms. */
export const RECENT_ROWS = 1000;
/**
 * The same for an expansion arm's list (thesaurus words, feedback words: `TermChoice.recent`). It
 * lends candidates to a fused question, and its rows, matching any of a dozen common words, are
 * the weakest evidence the question has: at a million facts the thesaurus arm's 1,000 rows were
 * about 8 of `hybrid`'s 36 ms in process.
 */
export const EXPANSION_ROWS = 250;
