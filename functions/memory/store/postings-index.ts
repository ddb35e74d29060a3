import { bm25Idf, bm25Share } from './bm25.ts';
import { CONJUNCTIVE_ROWS, RECENT_ROWS } from './fts-bounds.ts';

/**
 * A Context's FTS5 postings in the object's memory, scored with FTS5's own bm25 formula.
 *
 * Why: FTS5 scores a query by calling its bm25 function once per matching row through its
 * extension API, then sorts; in workerd that was the largest share of a bm25 query's CPU (a third
 * of the isolate's samples under `wrangler dev`, docs/hot-path.md). The same sums over postings
 * held in arrays cost a fraction of that. The index holds the tokens FTS5 holds (fts-tokens.ts
 * mirrors its tokenizer) and computes the same score (bm25.ts), so the ranking is FTS5's, tie
 * for tie. Rows with equal scores come by ascending rowid, as `ORDER BY bm25(items_fts), rowid`
 * gives.
 */

interface Posting {
  /** Slots of the rows holding the token, and its count in each. */
  slots: number[];
  counts: number[];
}

export interface IndexHit {
  seq: number;
  score: number;
}

/** A row's tokens, by column (`content`, then `terms` when the index has it). */
export type RowTokens = readonly (readonly string[])[];

export class PostingsIndex {
  private readonly postings = new Map<string, Posting>();
  private readonly slotOf = new Map<number, number>();
  /** By slot: the row's rowid (-1 for a free slot), token count, distinct tokens, column sizes. */
  private readonly seqs: number[] = [];
  private readonly lengths: number[] = [];
  private readonly tokens: (string[] | null)[] = [];
  private readonly columnLengths: number[][] = [];
  private readonly free: number[] = [];
  /** Token totals by column, to check against FTS5's own (its averages record). */
  readonly columnTotals: number[];
  /** The highest rowid ever added: rows above it are new to the index. */
  maxSeq = 0;
  /** (token, row) pairs held: what the index's size grows with. */
  private pairs = 0;

  constructor(columns: number) {
    this.columnTotals = new Array<number>(columns).fill(0);
  }

  get rows(): number {
    return this.slotOf.size;
  }

  /**
   * Bytes held, estimated from V8's layout: per (token, row) pair a slot and a count in two
   * arrays and the token in its row's list (12 bytes); per row its entries in five arrays and a
   * map (about 120); per distinct token a map entry and two arrays (about 80, beside the string).
   */
  get bytes(): number {
    return this.pairs * 12 + this.seqs.length * 120 + this.postings.size * 80;
  }

  /** `bytes` for an index of `rows` rows holding `tokens` tokens (FTS5's averages record). */
  static estimate(rows: number, tokens: number): number {
    // Distinct tokens per row are about two thirds of its tokens in prose; vocabulary ignored.
    return Math.round(tokens * 0.67 * 12 + rows * 120);
  }

  has(seq: number): boolean {
    return this.slotOf.has(seq);
  }

  /** In how many rows `token` occurs. */
  frequency(token: string): number {
    return this.postings.get(token)?.slots.length ?? 0;
  }

  add(seq: number, columns: RowTokens): void {
    this.remove(seq);
    const slot = this.free.pop() ?? this.seqs.length;
    const counts = new Map<string, number>();
    let length = 0;
    columns.forEach((column, i) => {
      for (const token of column) counts.set(token, (counts.get(token) ?? 0) + 1);
      length += column.length;
      this.columnTotals[i] = (this.columnTotals[i] ?? 0) + column.length;
    });
    for (const [token, count] of counts) {
      let posting = this.postings.get(token);
      if (!posting) this.postings.set(token, (posting = { slots: [], counts: [] }));
      posting.slots.push(slot);
      posting.counts.push(count);
      this.pairs++;
    }
    this.seqs[slot] = seq;
    this.lengths[slot] = length;
    this.tokens[slot] = [...counts.keys()];
    this.slotOf.set(seq, slot);
    if (seq > this.maxSeq) this.maxSeq = seq;
    this.columnLengths[slot] = columns.map((c) => c.length);
  }

  remove(seq: number): void {
    const slot = this.slotOf.get(seq);
    if (slot === undefined) return;
    for (const token of this.tokens[slot] ?? []) {
      const posting = this.postings.get(token);
      if (!posting) continue;
      const at = posting.slots.indexOf(slot);
      if (at < 0) continue;
      posting.slots.splice(at, 1);
      posting.counts.splice(at, 1);
      this.pairs--;
      if (posting.slots.length === 0) this.postings.delete(token);
    }
    (this.columnLengths[slot] ?? []).forEach((n, i) => {
      this.columnTotals[i] = (this.columnTotals[i] ?? 0) - n;
    });
    this.columnLengths[slot] = [];
    this.seqs[slot] = -1;
    this.lengths[slot] = 0;
    this.tokens[slot] = null;
    this.slotOf.delete(seq);
    this.free.push(slot);
  }

  /**
   * The rows matching any of `phrases` (single tokens, in the query's order), each with FTS5's
   * bm25 over all of them, best first. `first`, when given, puts the rows holding one of its tokens
   * ahead of the rest (each part best first): the `weighed-first` order of fts.ts. The rest are
   * scored only if the caller reads past the first part (a ubiquitous word's rows: most of the
   * Context), and each part is sorted lazily, a heap popped as the caller reads. A `bounded` list
   * (fts.ts `conjunction`) starts with the newest `CONJUNCTIVE_ROWS` rows holding every token of
   * `all`, and each later part reads only the newest `recent` (default `RECENT_ROWS`) rows matching its tokens, as
   * fts.ts reads them from FTS5.
   */
  *search(
    phrases: readonly string[],
    first?: ReadonlySet<string>,
    bounds?: { all: ReadonlySet<string>; bounded: boolean; recent?: number },
  ): Generator<IndexHit> {
    if (this.rows === 0 || phrases.length === 0) return;
    const all = bounds?.all ?? new Set<string>();
    const bounded = bounds?.bounded ?? false;
    const held = new Uint8Array(all.size > 0 ? this.seqs.length : 0);
    for (const phrase of all)
      for (const slot of this.postings.get(phrase)?.slots ?? []) held[slot] = (held[slot] ?? 0) + 1;
    const holdsAll = (slot: number): boolean => all.size > 0 && held[slot] === all.size;
    const allFloor = bounded && all.size > 0 ? this.floorOf(holdsAll, all, CONJUNCTIVE_ROWS) : null;
    const inAll = (slot: number): boolean => holdsAll(slot) && this.from(slot, allFloor);
    if (all.size > 0) yield* this.ranked(phrases, inAll);
    const recent = bounds?.recent ?? RECENT_ROWS;
    const restFloor = bounded ? this.floorOf(null, phrases, recent) : null;
    const inRest = (slot: number): boolean => !inAll(slot) && this.from(slot, restFloor);
    if (first === undefined) {
      yield* this.ranked(phrases, all.size > 0 || bounded ? inRest : null);
      return;
    }
    // 1 marks a row holding a preferred token; the second part is every other row.
    const marks = new Uint8Array(this.seqs.length);
    for (const phrase of first)
      for (const slot of this.postings.get(phrase)?.slots ?? []) marks[slot] = 1;
    if (!bounded) {
      yield* this.ranked(phrases, (slot) => marks[slot] === 1 && inRest(slot));
      yield* this.ranked(phrases, (slot) => marks[slot] !== 1 && inRest(slot));
      return;
    }
    // Bounded: the newest rows holding a preferred token, scored on those tokens only, then the
    // newest rows matching any token that are in neither part before, as fts.ts reads them.
    const weighedFloor = this.floorOf(null, first, recent);
    const inWeighed = (slot: number): boolean =>
      marks[slot] === 1 && !inAll(slot) && this.from(slot, weighedFloor);
    yield* this.ranked(
      phrases.filter((p) => first.has(p)),
      inWeighed,
    );
    yield* this.ranked(phrases, (slot) => !inWeighed(slot) && inRest(slot));
  }

  /** Whether the row in `slot` is at or above `floor` (null: no bound). */
  private from(slot: number, floor: number | null): boolean {
    return floor === null || (this.seqs[slot] ?? 0) >= floor;
  }

  /**
   * The seq of the `n`th newest row holding one of `tokens` (and admitted by `keep`), or null
   * when there are no more than `n` such rows: the lowest seq a bounded part reads.
   */
  private floorOf(
    keep: ((slot: number) => boolean) | null,
    tokens: Iterable<string>,
    n: number,
  ): number | null {
    const counted = new Uint8Array(this.seqs.length);
    const seqs: number[] = [];
    for (const token of tokens)
      for (const slot of this.postings.get(token)?.slots ?? []) {
        if (counted[slot] === 1 || (keep !== null && !keep(slot))) continue;
        counted[slot] = 1;
        seqs.push(this.seqs[slot] ?? 0);
      }
    if (seqs.length <= n) return null;
    const sorted = Float64Array.from(seqs).sort();
    return sorted[sorted.length - n] ?? null;
  }

  /** The rows `keep` admits (all when null) that match a phrase, scored and popped best first. */
  private *ranked(
    phrases: readonly string[],
    keep: ((slot: number) => boolean) | null,
  ): Generator<IndexHit> {
    const N = this.rows;
    // FTS5's avgdl: every column's tokens over the row count.
    const avgdl = this.columnTotals.reduce((sum, n) => sum + n, 0) / N;
    // Summed phrase by phrase in the query's order, as FTS5 sums, so equal rows tie exactly.
    const acc = new Float64Array(this.seqs.length);
    const touched: number[] = [];
    for (const phrase of phrases) {
      const posting = this.postings.get(phrase);
      if (!posting) continue;
      const idf = bm25Idf(N, posting.slots.length);
      const { slots, counts } = posting;
      for (let i = 0; i < slots.length; i++) {
        const slot = slots[i] ?? 0;
        if (keep !== null && !keep(slot)) continue;
        const tf = counts[i] ?? 0;
        const D = this.lengths[slot] ?? 0;
        if (acc[slot] === 0) touched.push(slot);
        acc[slot] = (acc[slot] ?? 0) + bm25Share(idf, tf, D, avgdl);
      }
    }
    const scores = touched.map((slot) => acc[slot] ?? 0);
    const seqs = touched.map((slot) => this.seqs[slot] ?? 0);
    yield* heapOrder(
      touched.keys(),
      (a, b) => {
        const sa = scores[a] ?? 0;
        const sb = scores[b] ?? 0;
        return sa !== sb ? sa > sb : (seqs[a] ?? 0) < (seqs[b] ?? 0);
      },
      (i) => ({ seq: seqs[i] ?? 0, score: scores[i] ?? 0 }),
    );
  }
}

/** Yields `items` best first (`before(a, b)`: a comes first), popping a binary heap. */
function* heapOrder<T>(
  items: Iterable<number>,
  before: (a: number, b: number) => boolean,
  item: (i: number) => T,
): Generator<T> {
  const heap = [...items];
  const n = heap.length;
  const down = (from: number, size: number): void => {
    let i = from;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= size) return;
      const r = l + 1;
      const li = heap[l] ?? 0;
      const ri = heap[r] ?? 0;
      const c = r < size && before(ri, li) ? r : l;
      const ci = heap[c] ?? 0;
      const ii = heap[i] ?? 0;
      if (!before(ci, ii)) return;
      heap[c] = ii;
      heap[i] = ci;
      i = c;
    }
  };
  for (let i = (n >> 1) - 1; i >= 0; i--) down(i, n);
  for (let size = n; size > 0; size--) {
    const top = heap[0] ?? 0;
    yield item(top);
    heap[0] = heap[size - 1] ?? 0;
    down(0, size - 1);
  }
}
