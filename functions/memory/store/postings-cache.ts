import { ftsTokens } from './fts-tokens.ts';
import { budgetOf } from './memory-budget.ts';
import { PostingsIndex, type RowTokens } from './postings-index.ts';

/**
 * Keeps a Context's in-memory postings index (postings-index.ts) in step with its FTS5 index, or
 * says there is none to use. The index is a cache: every answer it gives must be the one FTS5
 * would give now, so it is used only when it provably holds what FTS5 holds.
 *
 * - **Freshness.** FTS5 rewrites its structure record (`items_fts_data`, id 10) whenever a write
 *   commits: a new segment, a merge. A structure equal to the one the index was checked against
 *   means nothing was committed since; reading it costs one indexed row.
 * - **Catching up.** When it changed, the index reads what changed from FTS5's own table: the rows
 *   above its highest rowid (inserts), and the rows `ftsDelete` and `ftsInsert` reported as
 *   deleted or rewritten (re-read, so a rolled-back delete restores the row). Then it checks its row
 *   count and per-column token totals against FTS5's averages record (id 1); any difference (a
 *   write that bypassed fts.ts, a schema step that rebuilt the index, a transaction still open)
 *   drops the index, and FTS5 answers until it is rebuilt.
 * - **Inside a write.** After fts.ts writes and until a commit changes the structure, FTS5 answers:
 *   a search inside the writing transaction sees the uncommitted rows, which the index does not.
 * - **Building.** The whole index is read from FTS5's table when searches keep coming: on the
 *   second search the index could have served (a Context asked once after its object wakes pays
 *   nothing), again after it was dropped. A search counts once however many bm25 lists it reads
 *   (`beginSearch`): counted per read, a fused question's two lists made its first question after
 *   a wake the one that built the index (about 150 ms at 10,000 facts). A Context with text outside what fts-tokens.ts mirrors
 *   cannot have one; it is asked again after many more searches (the text may have been deleted).
 * - **Memory.** The index is the `postings` part of the Context's memory budget (memory-budget.ts).
 *   It is built only when its estimated size fits (FTS5's averages record gives the rows and
 *   tokens before anything is read); one that grows past that, or that the budget drops to make
 *   room, goes, and FTS5 ranks from disk with the same formula (the same rows in the same order).
 *   A Context over `BUILD_MAX_ROWS` never builds it, and a bulk write drops it (`CATCH_UP_MAX`), so
 *   nothing proportional to the Context runs on wake or on the first search after a bulk write.
 */

/** Searches FTS5 serves before the index is (re)built. */
const BUILD_AFTER = 2;
/**
 * Rows above which no index is built, whatever the budget: a build reads every row (about 15 us
 * each), and at 100,000 facts the search that built it paid 1.5 s. FTS5 ranks a larger Context
 * (store/fts.ts bounds its long lists).
 */
const BUILD_MAX_ROWS = 20_000;
/**
 * Rows an index catches up on in one search, at most: past them (a bulk write) it is dropped and
 * FTS5 answers, instead of the first search after the write re-reading all of them.
 */
const CATCH_UP_MAX = 2_000;
/** Searches FTS5 serves before a Context whose text could not be mirrored is tried again. */
const RETRY_AFTER = 256;
/** Rows re-read per statement (the Durable Object limit is 100 bound parameters). */
const READ_BATCH = 90;

interface State {
  index: PostingsIndex | null;
  /** FTS5's structure record when the index was last checked against FTS5. */
  structure: Uint8Array | null;
  /** Rows deleted or rewritten through fts.ts since. */
  touched: Set<number>;
  /** fts.ts wrote since the last check: until the structure changes, FTS5 answers. */
  dirty: boolean;
  /** Searches the index could not serve since it was last usable (negative: wait longer). */
  misses: number;
  /** This search's miss is counted already (`beginSearch` starts the next). */
  counted: boolean;
  /** `items_fts`'s columns. */
  columns: readonly string[];
}

const states = new WeakMap<SqlStorage, State>();

function stateOf(sql: SqlStorage): State {
  let state = states.get(sql);
  if (!state) {
    const columns = sql.exec('SELECT * FROM items_fts LIMIT 0').columnNames;
    state = {
      index: null,
      structure: null,
      touched: new Set(),
      dirty: false,
      misses: 0,
      counted: false,
      columns,
    };
    states.set(sql, state);
  }
  return state;
}

/** A search begins (store/search.ts): the index counts at most one miss in it. */
export function beginSearch(sql: SqlStorage): void {
  const state = states.get(sql);
  if (state) state.counted = false;
}

/** The database was wiped or its schema changed: start over (the FTS table may differ). */
export function forgetPostings(sql: SqlStorage): void {
  states.delete(sql);
}

/** fts.ts wrote these rows: inserted, deleted or rewritten. */
export function noteFtsWrite(sql: SqlStorage, seqs: Iterable<number>): void {
  const state = states.get(sql);
  if (!state) return;
  state.dirty = true;
  const { index } = state;
  if (index) for (const seq of seqs) if (seq <= index.maxSeq) state.touched.add(seq);
}

function block(sql: SqlStorage, id: number): Uint8Array {
  const rows = sql
    .exec<{ block: ArrayBuffer | null }>('SELECT block FROM items_fts_data WHERE id = ?', id)
    .toArray();
  const value = rows[0]?.block;
  return value instanceof ArrayBuffer ? new Uint8Array(value) : new Uint8Array(0);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** SQLite's varints, as FTS5 writes its averages record: the row count, then each column's tokens. */
function varints(bytes: Uint8Array): number[] {
  const out: number[] = [];
  let i = 0;
  while (i < bytes.length) {
    let value = 0;
    let n = 0;
    for (;;) {
      const byte = bytes[i++] ?? 0;
      n++;
      if (n === 9) {
        value = value * 256 + byte;
        break;
      }
      value = value * 128 + (byte & 0x7f);
      if ((byte & 0x80) === 0 || i >= bytes.length) break;
    }
    out.push(value);
  }
  return out;
}

/** FTS5's averages record: its row count and every column's tokens, as bm25 reads them. */
export function ftsAverages(sql: SqlStorage): { rows: number; tokens: number } {
  const [rows = 0, ...columns] = varints(block(sql, 1));
  return { rows, tokens: columns.reduce((sum, n) => sum + n, 0) };
}

/** Whether the index counts the rows and tokens FTS5 counts (its averages record). */
function totalsMatch(sql: SqlStorage, index: PostingsIndex): boolean {
  const [rows = 0, ...columns] = varints(block(sql, 1));
  // A schema step that rebuilt `items_fts` with another column count is a mismatch too.
  if (rows !== index.rows || columns.length !== index.columnTotals.length) return false;
  return index.columnTotals.every((total, i) => total === (columns[i] ?? 0));
}

type FtsTableRow = Record<string, SqlStorageValue> & { seq: number };

/** A row's tokens by column as FTS5 stores them, or `null` if fts-tokens.ts cannot mirror it. */
function rowTokens(row: FtsTableRow, columns: readonly string[]): RowTokens | null {
  const out: string[][] = [];
  for (const column of columns) {
    const value = row[column];
    const tokens = typeof value === 'string' ? ftsTokens(value) : [];
    if (tokens === null) return null;
    out.push(tokens);
  }
  return out;
}

function select(columns: readonly string[]): string {
  return `SELECT rowid AS seq, ${columns.join(', ')} FROM items_fts`;
}

/** Adds every row of `rows` to `index`; false at the first row fts-tokens.ts cannot mirror. */
function addRows(
  index: PostingsIndex,
  rows: Iterable<FtsTableRow>,
  columns: readonly string[],
): boolean {
  for (const row of rows) {
    const tokens = rowTokens(row, columns);
    if (tokens === null) return false;
    index.add(row.seq, tokens);
  }
  return true;
}

type Outcome = 'ok' | 'inexact' | 'mismatch';

function build(sql: SqlStorage, columns: readonly string[]): PostingsIndex | Outcome {
  const index = new PostingsIndex(columns.length);
  if (!addRows(index, sql.exec<FtsTableRow>(select(columns)), columns)) return 'inexact';
  return totalsMatch(sql, index) ? index : 'mismatch';
}

/** Brings `index` up to what FTS5 committed, and says whether it provably matches. */
function catchUp(sql: SqlStorage, state: State, index: PostingsIndex): Outcome {
  const touched = [...state.touched];
  state.touched.clear();
  for (const seq of touched) index.remove(seq);
  const fresh = sql.exec<FtsTableRow>(`${select(state.columns)} WHERE rowid > ?`, index.maxSeq);
  if (!addRows(index, fresh.toArray(), state.columns)) return 'inexact';
  for (let i = 0; i < touched.length; i += READ_BATCH) {
    const part = touched.slice(i, i + READ_BATCH);
    const rows = sql.exec<FtsTableRow>(
      `${select(state.columns)} WHERE rowid IN (${part.map(() => '?').join(', ')})`,
      ...part,
    );
    if (!addRows(index, rows, state.columns)) return 'inexact';
  }
  return totalsMatch(sql, index) ? 'ok' : 'mismatch';
}

/** After `outcome`, how many more searches FTS5 serves before a build is tried. */
function missesAfter(outcome: Outcome): number {
  // Text the tokenizer cannot mirror stays until deleted; a mismatch is usually a write not yet
  // committed, or a schema step that rebuilt FTS5's index: try again soon.
  return outcome === 'inexact' ? -RETRY_AFTER : 0;
}

/**
 * The Context's postings index when it holds exactly what FTS5 holds now, else `null` (FTS5
 * answers). May build or update it first.
 */
export function postingsIndex(sql: SqlStorage): PostingsIndex | null {
  const state = stateOf(sql);
  const structure = block(sql, 10);
  const { index } = state;
  if (index && state.structure && sameBytes(state.structure, structure)) {
    // Nothing committed since the check; fts.ts writes not yet committed are FTS5's to answer.
    if (state.dirty) return null;
    budgetOf(sql).touch('postings');
    return index;
  }
  if (index) {
    state.dirty = false;
    const [ftsRows = 0] = varints(block(sql, 1));
    if (Math.max(0, ftsRows - index.rows) + state.touched.size > CATCH_UP_MAX) {
      dropIndex(state);
      return null;
    }
    const outcome = catchUp(sql, state, index);
    if (outcome === 'ok' && !budgetOf(sql).fits(index.bytes)) {
      dropIndex(state);
      return null;
    }
    if (outcome === 'ok') {
      state.structure = structure;
      budgetOf(sql).touch('postings');
      return index;
    }
    state.index = null;
    state.structure = null;
    state.misses = missesAfter(outcome);
  }
  if (!state.counted) {
    state.counted = true;
    state.misses += 1;
  }
  if (state.misses < BUILD_AFTER) return null;
  const budget = budgetOf(sql);
  const [rows = 0, ...columns] = varints(block(sql, 1));
  const tokens = columns.reduce((sum, n) => sum + n, 0);
  if (rows > BUILD_MAX_ROWS || !budget.fits(PostingsIndex.estimate(rows, tokens))) {
    state.misses = -RETRY_AFTER;
    return null;
  }
  const built = build(sql, state.columns);
  state.touched.clear();
  state.dirty = false;
  if (typeof built === 'string') {
    state.misses = missesAfter(built);
    return null;
  }
  state.misses = 0;
  state.index = built;
  state.structure = structure;
  budget.register('postings', {
    bytes: () => state.index?.bytes ?? 0,
    drop: () => dropIndex(state),
  });
  return built;
}

/** The budget let go of the index (or it outgrew it): FTS5 answers for a good while. */
function dropIndex(state: State): void {
  state.index = null;
  state.structure = null;
  state.touched.clear();
  state.misses = -RETRY_AFTER;
}
