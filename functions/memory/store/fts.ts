import { stemmer } from 'stemmer';
import { queryWords } from '../retrieval/text.ts';
import { bm25OfRows } from './bm25-rows.ts';
import { KeptUntilWrite } from './counts.ts';
import { CONJUNCTIVE_FROM, CONJUNCTIVE_ROWS, RECENT_ROWS } from './fts-bounds.ts';
import { ftsToken } from './fts-tokens.ts';
import { hasTable } from './schema-facts.ts';
import { NEXT_FTS } from './schema/conversation-time.ts';
import { jsonBatches } from './json-batches.ts';
import { budgetOf } from './memory-budget.ts';
import { noteFtsWrite, postingsIndex } from './postings-cache.ts';
import type { PostingsIndex } from './postings-index.ts';

/**
 * FTS5 rows share the item's `seq` as rowid. `terms` (resolved-date tokens) is null below the
 * conversation-time schema step, whose index has only the `content` column.
 */
export interface FtsRow {
  seq: number;
  content: string;
  terms: string | null;
}

/** Indexes a batch of items: one statement per JSON chunk (json-batches.ts), rows in order. */
export function ftsInsert(sql: SqlStorage, rows: readonly FtsRow[], withTerms: boolean): void {
  noteFtsWrite(
    sql,
    rows.map((r) => r.seq),
  );
  if (withTerms) {
    for (const batch of jsonBatches(rows.map((r) => [r.seq, r.content, r.terms])))
      sql.exec(
        `INSERT INTO items_fts (rowid, content, terms)
         SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(?)`,
        batch,
      );
  } else {
    for (const batch of jsonBatches(rows.map((r) => [r.seq, r.content])))
      sql.exec(
        `INSERT INTO items_fts (rowid, content) SELECT value ->> 0, value ->> 1 FROM json_each(?)`,
        batch,
      );
  }
}

export function ftsDelete(sql: SqlStorage, seq: number): void {
  noteFtsWrite(sql, [seq]);
  sql.exec('DELETE FROM items_fts WHERE rowid = ?', seq);
  // The index a schema step is building beside (conversation-time.ts) may hold the row already.
  if (hasTable(sql, NEXT_FTS)) sql.exec(`DELETE FROM ${NEXT_FTS} WHERE rowid = ?`, seq);
}

/**
 * A safe FTS5 MATCH expression from free text: each query word (contractions and possessives
 * resolved, question words dropped: retrieval/text.ts `queryWords`) quoted, so no operator or
 * syntax error can come from user input, and OR-ed, letting bm25 rank by how many match.
 */
export function ftsQuery(text: string, extra: string[] = []): string | null {
  return matchOf(queryTerms(text, extra).terms);
}

/**
 * One term per Porter stem, the question's words first: `fromText` of them (an added term whose
 * stem a word already has is dropped, so the rest are the added terms).
 */
function queryTerms(text: string, extra: string[]): { terms: string[]; fromText: number } {
  const seen = new Set<string>();
  const out: string[] = [];
  const words = queryWords(text);
  let fromText = 0;
  for (const [i, term] of [...words, ...extra].entries()) {
    const stem = stemmer(term);
    if (seen.has(stem)) continue;
    seen.add(stem);
    out.push(term);
    if (i < words.length) fromText = out.length;
  }
  return { terms: out.slice(0, 40), fromText: Math.min(fromText, 40) };
}

function matchOf(terms: readonly string[]): string | null {
  if (terms.length === 0) return null;
  return terms.map((t) => `"${t.replaceAll('"', '""')}"`).join(' OR ');
}

/**
 * Which of a query's terms the FTS match uses:
 * - `all`: every term, as typed (analysed).
 * - `weighed`: only the terms bm25 weighs above zero (`planTerms`); none left means no match.
 *   For the expansion arms (thesaurus, feedback words), where rows matched on nothing but
 *   ubiquitous words are no evidence.
 * - `weighed-first`: FTS5's own list, built cheaply: the rows that match a weighed term, best
 *   first, and only if the caller reads past them, the rows that matched nothing but zero-weight
 *   terms (their scores are about 1e-6, below every weighed row's). When no term is weighed (a
 *   Context of a few items, where every term is in half the rows) it is `all`.
 */
export type TermPolicy = 'all' | 'weighed' | 'weighed-first';

/** How an FTS search picks its terms; `rows` counts the Context's items (asked for at most once). */
export interface TermChoice {
  policy: TermPolicy;
  rows: () => number;
  /** Rows each later part of a bounded list reads (default `RECENT_ROWS`). */
  recent?: number;
}

/**
 * Which of a search's terms it matches on under `choice` (`TermPolicy`), decided once for both
 * paths of `ftsSearch` (FTS5 and the postings index): `all`, only the `weighed` ones, or the
 * weighed ones' rows first.
 *
 * A term is weighed when FTS5's bm25 gives it a weight above zero. Its inverse document frequency,
 * log((N - n + 0.5) / (n + 0.5)), is at or below zero once a term is in half the rows or more, and
 * FTS5 then scores it 1e-6: such a term ("reviews" in every note, a speaker's name on half the
 * turns) adds nothing to any score, yet makes every row that holds it a match that bm25 must score
 * and sort. Leaving it out keeps the order of every row that matches a weighed term (to 1e-6) and
 * drops only rows whose score was zero. Terms no row holds go too (they match nothing).
 *
 * `frequency(i)` is how many rows hold term i (FTS5's path reads `items_fts_vocab`, from the
 * conversation-time schema step on); `choice.rows` counts the items (FTS5's own N may differ by
 * the few items being written, which moves the cut-off by as much). `weighed-first` becomes `all`
 * when no term is weighed or the weighed terms' postings (at least as many as the rows they match:
 * one term per stem) fall short of `expect`.
 */
function planTerms(
  count: number,
  choice: TermChoice | null,
  expect: number,
  frequency: (i: number) => number,
): { policy: TermPolicy; weighed: number[] } {
  const policy = choice?.policy ?? 'all';
  if (choice === null || policy === 'all' || count === 0) return { policy: 'all', weighed: [] };
  const rows = choice.rows();
  const weighed: number[] = [];
  let postings = 0;
  for (let i = 0; i < count; i++) {
    const n = frequency(i);
    if (n > 0 && 2 * n < rows) {
      weighed.push(i);
      postings += n;
    }
  }
  if (policy === 'weighed') return { policy, weighed };
  if (weighed.length === 0 || postings < expect) return { policy: 'all', weighed: [] };
  return { policy, weighed };
}

export interface FtsHit {
  seq: number;
  /** FTS5 bm25(): lower is better; we negate it so that higher is better. */
  score: number;
}

/** Rows of FTS5's list the first statement reads; each next one reads four times as many. */
const RANKED_PAGE = 256;

function* ranked(
  sql: SqlStorage,
  match: string | null,
  skip?: ReadonlySet<number>,
  floor: number | null = null,
): Generator<FtsHit> {
  if (match === null) return;
  // Read a statement at a time to its end (`LIMIT`), never left half read: an open cursor keeps
  // its read snapshot, and no WAL checkpoint gets past it until the cursor is collected (under
  // `wrangler dev`, one question's cursor let the WAL grow 2 GB over the next 200k writes, and
  // every read slowed with it). Ties by seq, as the postings index orders them, so pages meet.
  let offset = 0;
  for (let size = RANKED_PAGE; ; size *= 4) {
    // FTS5 takes a rowid bound as a start in its doclists: rows below `floor` are not read.
    const rows =
      floor === null
        ? sql
            .exec<{ seq: number; rank: number }>(
              'SELECT rowid AS seq, bm25(items_fts) AS rank FROM items_fts WHERE items_fts MATCH ? ORDER BY rank, rowid LIMIT ? OFFSET ?',
              match,
              size,
              offset,
            )
            .toArray()
        : sql
            .exec<{ seq: number; rank: number }>(
              'SELECT rowid AS seq, bm25(items_fts) AS rank FROM items_fts WHERE items_fts MATCH ? AND rowid >= ? ORDER BY rank, rowid LIMIT ? OFFSET ?',
              match,
              floor,
              size,
              offset,
            )
            .toArray();
    for (const row of rows) if (!skip?.has(row.seq)) yield { seq: row.seq, score: -row.rank };
    if (rows.length < size) return;
    offset += size;
  }
}

/**
 * Iterates FTS hits best first; the caller stops when it has enough after filtering. `expect` is
 * how many it will likely read: `weighed-first` reads FTS5's whole list at once when the weighed
 * terms cannot match that many rows (the caller would read past them, and FTS5 would score the
 * same rows twice).
 */
export function* ftsSearch(
  sql: SqlStorage,
  text: string,
  extra: string[] = [],
  choice: TermChoice | null = null,
  expect = 0,
): Generator<FtsHit> {
  const { terms, fromText } = queryTerms(text, extra);
  const index = terms.length > 0 ? postingsIndex(sql) : null;
  if (index) {
    const tokens = terms.map(ftsToken);
    if (tokens.every((t) => t !== null))
      return yield* indexed(sql, index, tokens, fromText, choice, expect);
  }
  let df: Map<string, number> | null = null;
  const stems = terms.map((t) => stemmer(t));
  const frequency = (i: number): number => {
    // This path runs because the postings index could not: read FTS5's vocabulary directly.
    df ??= vocabularyFrequencies(sql, stems);
    return df.get(stems[i] ?? '') ?? 0;
  };
  const plan = planTerms(terms.length, choice, expect, frequency);
  const weighed = plan.weighed.map((i) => terms[i] ?? '');
  const matched = plan.policy === 'all' ? terms.map((_, i) => i) : plan.weighed;
  const common = conjunction(matched, fromText, frequency);
  const all = common.all.map((i) => terms[i] ?? '');
  const seen = new Set<number>();
  if (all.length > 0) {
    const scoredOn = plan.policy === 'all' ? terms : weighed;
    // `weighed-first` rows are scored on the weighed terms and every term, halved (below).
    const phrases = plan.policy === 'weighed-first' ? [...weighed, ...terms] : scoredOn;
    for (const hit of conjunctiveRows(sql, all, phrases)) {
      seen.add(hit.seq);
      yield plan.policy === 'weighed-first' ? { seq: hit.seq, score: hit.score / 2 } : hit;
    }
  }
  if (common.bounded) {
    // The rest of a long list: the newest rows matching its terms (`newestRows`). A
    // `weighed-first` list scores the newest rows matching a weighed term on those terms alone:
    // a zero-weight term adds a share of 1e-6, and FTS5 would read its whole doclist (an
    // answer-type term at a million facts: 40 to 60 ms a question) to count its rows. The postings
    // index bounds its list the same way.
    const recent = choice?.recent ?? RECENT_ROWS;
    if (plan.policy !== 'weighed-first')
      return yield* newestRows(sql, plan.policy === 'all' ? terms : weighed, seen, recent);
    yield* newestRows(sql, weighed, seen, recent);
    return yield* newestRows(sql, terms, seen, recent);
  }
  if (plan.policy === 'all') return yield* ranked(sql, matchOf(terms), seen);
  if (plan.policy === 'weighed') return yield* ranked(sql, matchOf(weighed), seen);
  // The weighed rows, scored on every term: `(weighed) AND (all)` matches what the weighed
  // terms match, and bm25 counts each weighed phrase twice and each zero-weight one once, so the
  // zero-weight terms' 1e-6 shares still break the weighed terms' ties as in FTS5's own list (the
  // speaker's name on a first-person turn among identical ones; without them dev MRR 0.250 ->
  // 0.231). Halved, the score is FTS5's to within those shares. Reading the ubiquitous terms'
  // postings to intersect costs far less than scoring every row they match.
  for (const hit of ranked(
    sql,
    `(${matchOf(weighed) ?? ''}) AND (${matchOf(terms) ?? ''})`,
    seen,
  )) {
    seen.add(hit.seq);
    yield { seq: hit.seq, score: hit.score / 2 };
  }
  yield* ranked(sql, matchOf(terms), seen);
}

/**
 * `ftsSearch` from the Context's postings index (postings-index.ts): the same rows in the same
 * order, each with FTS5's bm25 over every term (the FTS5 path halves a combined score in
 * `weighed-first`, which differs from this one by the zero-weight terms' 1e-6 shares).
 */
function* indexed(
  sql: SqlStorage,
  index: PostingsIndex,
  tokens: string[],
  fromText: number,
  choice: TermChoice | null,
  expect: number,
): Generator<FtsHit> {
  const frequency = (i: number): number => index.frequency(tokens[i] ?? '');
  const plan = planTerms(tokens.length, choice, expect, frequency);
  const weighed = plan.weighed.map((i) => tokens[i] ?? '');
  const matched = plan.policy === 'all' ? tokens.map((_, i) => i) : plan.weighed;
  const common = conjunction(matched, fromText, frequency);
  const all = new Set(common.all.map((i) => tokens[i] ?? ''));
  const bounds = { all, bounded: common.bounded, recent: choice?.recent ?? RECENT_ROWS };
  if (plan.policy === 'all') return yield* index.search(tokens, undefined, bounds);
  if (plan.policy === 'weighed') return yield* index.search(weighed, undefined, bounds);
  yield* index.search(tokens, new Set(weighed), bounds);
}

/** How a list is bounded (`conjunction`): the rows holding `all` first, then the newest rest. */
export interface ListBounds {
  /** Terms (by index) whose rows come first; none: no such part. */
  all: number[];
  /** Whether the list is bounded: its parts read the newest rows only. */
  bounded: boolean;
}

/**
 * The bounds of a list over `matched` terms: none while their postings stay below
 * `CONJUNCTIVE_FROM`. Past it, the matched terms that are words of the question and occur at
 * all come first when there are two or more (one term's rows are its whole list; added terms,
 * lemmas and answer types, need not be held to answer). The postings index and FTS5 bound a list
 * alike, by counts of rows: the same list from either.
 */
function conjunction(
  matched: readonly number[],
  fromText: number,
  frequency: (i: number) => number,
): ListBounds {
  let postings = 0;
  for (const i of matched) postings += frequency(i);
  if (postings < CONJUNCTIVE_FROM) return { all: [], bounded: false };
  const all = matched.filter((i) => i < fromText && frequency(i) > 0);
  return { all: all.length >= 2 ? all : [], bounded: true };
}

/**
 * The newest `limit` rows matching `match` (FTS5 reads a doclist from its end when asked for
 * rowids in descending order: about 1 ms for 1,000 rows at a million facts, where `rowid >= ?`
 * read whole OR-ed doclists, 5 to 15 ms), and the lowest seq among them when there were `limit`.
 */
function newestSeqs(
  sql: SqlStorage,
  match: string,
  limit: number,
): { seqs: number[]; floor: number | null } {
  const seqs = sql
    .exec<{ seq: number }>(
      'SELECT rowid AS seq FROM items_fts WHERE items_fts MATCH ? ORDER BY rowid DESC LIMIT ?',
      match,
      limit,
    )
    .toArray()
    .map((r) => r.seq);
  return { seqs, floor: seqs.length < limit ? null : (seqs[seqs.length - 1] ?? null) };
}

/** Scores `seqs` on `phrases` from their text (bm25-rows.ts), best first; null when it cannot. */
function scoredFromText(
  sql: SqlStorage,
  seqs: readonly number[],
  phrases: readonly string[],
): FtsHit[] | null {
  const scores = bm25OfRows(sql, seqs, phrases, (tokens) => vocabularyFrequencies(sql, tokens));
  if (scores === null) return null;
  // The postings index sums the same shares in the same order: equal scores, tie for tie (then
  // lower seq first).
  return seqs
    .map((seq) => ({ seq, score: scores.get(seq) ?? 0 }))
    .sort((a, b) => b.score - a.score || a.seq - b.seq);
}

/**
 * The rest of a bounded list: of the newest `recent` rows matching any of `terms`, those not
 * `seen` yet (each added to it), scored on `terms` from their text, best first; FTS5 scores them
 * when their text cannot be read as it reads it (from the same rows: `rowid >= floor`).
 */
function* newestRows(
  sql: SqlStorage,
  terms: readonly string[],
  seen: Set<number>,
  recent: number,
): Generator<FtsHit> {
  const match = matchOf(terms);
  if (match === null) return;
  const { seqs, floor } = newestSeqs(sql, match, recent);
  const fresh = seqs.filter((seq) => !seen.has(seq));
  const hits = scoredFromText(sql, fresh, terms) ?? ranked(sql, match, seen, floor);
  for (const hit of hits) {
    seen.add(hit.seq);
    yield hit;
  }
}

/**
 * The newest `CONJUNCTIVE_ROWS` rows holding every one of `all`, best first, each with its bm25
 * over `phrases` (the terms of the query the list stands for, each as often as that query names
 * it): found by FTS5 without scoring (its AND skips through the doclists), scored from their text
 * (bm25-rows.ts), which spares FTS5's count of every phrase's rows. When their text cannot be
 * read as FTS5 reads it, FTS5 scores them: `(all) AND (match)` scores a row on `all` twice, so the
 * same rows' score on `all` alone is taken off.
 */
function conjunctiveRows(sql: SqlStorage, all: readonly string[], phrases: string[]): FtsHit[] {
  const and = all.map((t) => `"${t.replaceAll('"', '""')}"`).join(' AND ');
  const { seqs, floor } = newestSeqs(sql, and, CONJUNCTIVE_ROWS);
  return (
    scoredFromText(sql, seqs, phrases) ??
    ftsScored(sql, and, matchOf(phrases) ?? '', floor).sort(
      (a, b) => b.score - a.score || a.seq - b.seq,
    )
  );
}

/**
 * The rows matching `and` (from seq `floor` on), each with FTS5's bm25 on `match`, read from
 * FTS5 (two reads).
 */
function ftsScored(sql: SqlStorage, and: string, match: string, floor: number | null): FtsHit[] {
  const rows = (query: string) =>
    sql.exec<{ seq: number; rank: number }>(
      'SELECT rowid AS seq, bm25(items_fts) AS rank FROM items_fts WHERE items_fts MATCH ? AND rowid >= ?',
      query,
      floor ?? 0,
    );
  const own = new Map<number, number>();
  for (const row of rows(and)) own.set(row.seq, row.rank);
  const hits: FtsHit[] = [];
  for (const row of rows(`(${and}) AND (${match})`))
    // The difference is the score to within a rounding of the last bits: rows FTS5 scores
    // alike must still tie (then lower seq first, as the postings index orders them).
    hits.push({
      seq: row.seq,
      score: Number((-(row.rank - (own.get(row.seq) ?? 0))).toPrecision(12)),
    });
  return hits;
}

/**
 * Document frequencies read from `items_fts_vocab`, kept until the database's next write
 * (counts.ts): reading `total_changes()` costs far less than one term's postings.
 */
const frequencies = new KeptUntilWrite(() => new Map<string, number>());
/** Stems kept per Context database before the cache starts over (an isolate serves many). */
const FREQUENCY_CACHE_MAX = 4096;

/**
 * In how many items each word occurs, by its Porter stem (the FTS `porter` tokenizer stores stems;
 * `items_fts_vocab` exists from the conversation-time schema step on). Counting a stem reads its
 * whole postings list (a name on half the turns: thousands of entries), and the same stems come
 * back query after query (speakers' names, answer-type tokens), so counts are kept until the next
 * write. Stems no item holds are absent from the result.
 */
export function documentFrequencies(sql: SqlStorage, stems: string[]): Map<string, number> {
  const index = postingsIndex(sql);
  if (!index) return vocabularyFrequencies(sql, stems);
  const counted = new Map<string, number>();
  for (const stem of stems) {
    const n = index.frequency(stem);
    if (n > 0) counted.set(stem, n);
  }
  return counted;
}

/** `documentFrequencies` read from `items_fts_vocab`, kept until the next write. */
function vocabularyFrequencies(sql: SqlStorage, stems: string[]): Map<string, number> {
  // Below the conversation-time step there is no vocabulary: no counts (no list is bounded).
  if (!hasTable(sql, 'items_fts_vocab')) return new Map();
  const df = frequencies.get(sql);
  if (df.size >= FREQUENCY_CACHE_MAX) df.clear();
  // The `frequencies` part of the Context's memory budget: a map entry and a short string a stem.
  budgetOf(sql).register('frequencies', {
    bytes: () => (frequencies.peek(sql)?.size ?? 0) * 64,
    drop: () => frequencies.peek(sql)?.clear(),
  });
  const out = new Map<string, number>();
  const unknown: string[] = [];
  for (const stem of new Set(stems)) {
    const n = df.get(stem);
    if (n === undefined) unknown.push(stem);
    else if (n > 0) out.set(stem, n);
  }
  for (let i = 0; i < unknown.length; i += 90) {
    const part = unknown.slice(i, i + 90);
    for (const stem of part) df.set(stem, 0);
    const rows = sql.exec<{ term: string; doc: number }>(
      `SELECT term, doc FROM items_fts_vocab WHERE term IN (${part.map(() => '?').join(', ')})`,
      ...part,
    );
    for (const row of rows) {
      const n = (out.get(row.term) ?? 0) + row.doc;
      out.set(row.term, n);
      df.set(row.term, n);
    }
  }
  return out;
}
