import { lensMatches } from '../scopes/lens.ts';
import { countedSinceLastWrite, KeptUntilWrite } from './counts.ts';
import type { SearchRequest } from './types.ts';
import { hasValidity } from './validity.ts';

/**
 * What every list of a search reads of its candidates (store/search.ts): the filter it applies,
 * and a memoised read of each item's scopes, kind, supersession, place in its conversation and
 * content, one statement per page of hits.
 */

export type Accept = (scopes: readonly string[], kind: string, closed: boolean) => boolean;

/**
 * The filter every list of a search applies: kinds, lens, and (unless asked for) no superseded
 * item, so a closed fact never crowds a current one out of the top `k`.
 */
export function accepts(req: SearchRequest): Accept {
  const kinds = req.kinds ? new Set<string>(req.kinds) : null;
  const history = req.includeSuperseded ?? false;
  return (scopes, kind, closed) =>
    (kinds === null || kinds.has(kind)) && (history || !closed) && lensMatches(req.lens, scopes);
}

export interface Probed {
  readonly scopes: readonly string[];
  kind: string;
  closed: boolean;
  session: string | null;
  position: number | null;
  content: string;
}

/** What a list needs of an item to filter, expand and feed back, read by `seq` (memoised). */
export interface Probe {
  (seq: number): Probed | null;
  /** Reads the not yet memoised of `seqs` in one statement (a page of hits before filtering). */
  prefetch(seqs: readonly number[]): void;
  /** How many items the Context holds, counted once per search (feedback and term weights). */
  rows(): number;
}

interface ProbedRow {
  seq: number;
  scopes: string;
  kind: string;
  content: string;
  closed: number;
  session_label: string | null;
  position: number | null;
  [column: string]: SqlStorageValue;
}

/** Frozen: a probe is shared by every search until the next write, so none may change it. */
function probed(row: ProbedRow): Probed {
  return Object.freeze({
    scopes: Object.freeze(JSON.parse(row.scopes) as string[]),
    kind: row.kind,
    closed: row.closed === 1,
    session: row.session_label,
    position: row.position,
    content: row.content,
  });
}

/** Items whose probe is kept per database (about 100 bytes each beside their content). */
const MAX_PROBED = 20_000;
const probes = new KeptUntilWrite(() => new Map<number, Probed | null>());

export function probe(sql: SqlStorage, conversation: boolean): Probe {
  // `valid_until` exists from schema V2 on; below it nothing can be closed.
  const closed = hasValidity(sql) ? 'valid_until IS NOT NULL' : '0';
  const place = conversation
    ? 'session_label, position'
    : 'NULL AS session_label, NULL AS position';
  const columns = `seq, scopes, kind, content, ${closed} AS closed, ${place}`;
  const one = `SELECT ${columns} FROM items WHERE seq = ?`;
  const many = `SELECT ${columns} FROM items WHERE seq IN (SELECT value FROM json_each(?))`;
  // Kept across searches until the next write: candidates recur from one question to the next.
  const memo = probes.get(sql);
  if (memo.size > MAX_PROBED) memo.clear();
  const read = (seq: number): Probed | null => {
    const known = memo.get(seq);
    if (known !== undefined) return known;
    const row = sql.exec<ProbedRow>(one, seq).toArray()[0];
    const out = row ? probed(row) : null;
    memo.set(seq, out);
    return out;
  };
  read.prefetch = (seqs: readonly number[]): void => {
    const wanted = [...new Set(seqs.filter((seq) => !memo.has(seq)))];
    if (wanted.length < 2) return;
    for (const seq of wanted) memo.set(seq, null);
    for (const row of sql.exec<ProbedRow>(many, JSON.stringify(wanted)))
      memo.set(row.seq, probed(row));
  };
  let rows: number | null = null;
  read.rows = (): number =>
    (rows ??= countedSinceLastWrite(
      sql,
      'items',
      () => sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM items').one().n,
    ));
  return read;
}

/** The item behind `seq` when the search's filter lets it through, else null. */
export function admitted(read: Probe, accept: Accept, seq: number): Probed | null {
  const item = read(seq);
  return item && accept(item.scopes, item.kind, item.closed) ? item : null;
}
