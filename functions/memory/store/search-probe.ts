import { lensMatches } from '../scopes/lens.ts';
import { countedSinceLastWrite, keptCount, KeptUntilWrite } from './counts.ts';
import { budgetOf, stringBytes } from './memory-budget.ts';
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
/** Bytes of a kept probe beside its content and scopes. */
const PROBE_BYTES = 160;

interface Memo {
  items: Map<number, Probed | null>;
  bytes: number;
}

const probes = new KeptUntilWrite<Memo>(() => ({ items: new Map(), bytes: 0 }));

function probeBytes(item: Probed | null): number {
  if (item === null) return 32;
  let bytes = PROBE_BYTES + stringBytes(item.content);
  for (const scope of item.scopes) bytes += stringBytes(scope) + 8;
  return bytes;
}

/** The kept probes are the `probes` part of the Context's memory budget. */
function charge(sql: SqlStorage): void {
  budgetOf(sql).register('probes', {
    bytes: () => probes.peek(sql)?.bytes ?? 0,
    drop: () => {
      const memo = probes.peek(sql);
      if (!memo) return;
      memo.items.clear();
      memo.bytes = 0;
    },
  });
}

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
  const kept = probes.get(sql);
  const memo = kept.items;
  if (memo.size > MAX_PROBED) {
    memo.clear();
    kept.bytes = 0;
  }
  charge(sql);
  const keep = (seq: number, item: Probed | null): void => {
    const before = memo.get(seq);
    if (before !== undefined) kept.bytes -= probeBytes(before);
    memo.set(seq, item);
    kept.bytes += probeBytes(item);
  };
  const read = (seq: number): Probed | null => {
    const known = memo.get(seq);
    if (known !== undefined) return known;
    const row = sql.exec<ProbedRow>(one, seq).toArray()[0];
    const out = row ? probed(row) : null;
    keep(seq, out);
    return out;
  };
  read.prefetch = (seqs: readonly number[]): void => {
    const wanted = [...new Set(seqs.filter((seq) => !memo.has(seq)))];
    if (wanted.length < 2) return;
    for (const seq of wanted) keep(seq, null);
    for (const row of sql.exec<ProbedRow>(many, JSON.stringify(wanted))) keep(row.seq, probed(row));
  };
  let rows: number | null = null;
  read.rows = (): number =>
    (rows ??= countedSinceLastWrite(sql, 'items', () =>
      keptCount(
        sql,
        'items',
        () => sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM items').one().n,
      ),
    ));
  return read;
}

/** The item behind `seq` when the search's filter lets it through, else null. */
export function admitted(read: Probe, accept: Accept, seq: number): Probed | null {
  const item = read(seq);
  return item && accept(item.scopes, item.kind, item.closed) ? item : null;
}
