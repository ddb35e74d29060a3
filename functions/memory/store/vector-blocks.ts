/**
 * The IVF lists' packed form (schema/vector-blocks.ts): a list is a few `_vector_blocks` rows of
 * up to `BLOCK_ENTRIES` entries each, four BLOBs a row, plus a tail of single-entry
 * `_vector_postings` rows that writes add and a background step packs (`packTail`).
 *
 * Why blocks: a query probing 64 lists of a million-vector index read 64k rows one by one, and
 * the cost of a row (the runtime's cursor, an object per row, a BLOB copied out) was most of the
 * vector query, not the int8 arithmetic. A block is read as one row and scored in a tight loop.
 * Why a tail: appending one entry to a block rewrites the block (26 kB at 100 dimensions, 200 kB
 * at 768); a write adds a small row instead and the packing is done in batches in the background.
 */

import { KeptUntilWrite } from './counts.ts';
import { budgetOf, stringBytes } from './memory-budget.ts';

/** What packing needs of a generation (vector-ivf.ts `Generation`). */
interface Generation {
  gen: number;
  dims: number;
  lists: number;
  /** PQ codes of this many bytes (vector-pq.ts); null: int8 codes of `dims` bytes and a scale. */
  codebook: { subspaces: number } | null;
}

/** Bytes of one entry's code in `g`'s blocks. */
export function codeBytes(g: Generation): number {
  return g.codebook ? g.codebook.subspaces : g.dims;
}

/** Entries per block: a read of one row covers a list of a 64k-vector index. */
export const BLOCK_ENTRIES = 256;
/** Tail rows of a generation from which a background step packs them, at least. */
export const PACK_AT = 1024;
/**
 * Tail rows a list holds on average before its generation's tail is packed: a pack rewrites
 * each list's last block, so packing a few entries a list (1,024 rows over a million-vector
 * index's 1,000 lists) rewrote 26 kB a list for one or two entries. 32 a list keeps that below a
 * kilobyte an entry at 100 dimensions, and the tail a query reads to about 2,000 rows.
 */
const PACK_PER_LIST = 32;

/** Tail rows from which `g`'s tail is packed. */
export function packAt(g: Generation): number {
  return Math.max(PACK_AT, g.lists * PACK_PER_LIST);
}
/**
 * Tail rows one background step packs at most: more than `packAt` of the largest index (1,024
 * lists), so a step packs the whole tail and no list waits behind the others.
 */
const PACK_STEP = 65_536;

/** One entry to add to a list: the item, its filter id and its code. */
export interface BlockEntry {
  seq: number;
  filter: number;
  /** The int8 code's scale (0 for a PQ code). */
  scale: number;
  /** `codeBytes` bytes: signed for an int8 code, one point per run for a PQ code. */
  code: Uint8Array;
}

/**
 * A block as read for a query: typed views over its BLOBs. `codes` and `bytes` view the same
 * codes, as int8 values and as PQ point numbers; a PQ block has no scales.
 */
export interface Block {
  list: number;
  n: number;
  seqs: Float64Array;
  filters: Uint32Array;
  scales: Float32Array;
  codes: Int8Array;
  bytes: Uint8Array;
}

interface BlockRow {
  block: number;
  list: number;
  n: number;
  seqs: ArrayBuffer;
  filters: ArrayBuffer;
  scales: ArrayBuffer;
  codes: ArrayBuffer;
  [column: string]: SqlStorageValue;
}

function blockOf(row: BlockRow, g: Generation): Block {
  return {
    list: row.list,
    n: row.n,
    seqs: new Float64Array(row.seqs, 0, row.n),
    filters: new Uint32Array(row.filters, 0, row.n),
    scales: g.codebook ? new Float32Array(0) : new Float32Array(row.scales, 0, row.n),
    codes: new Int8Array(row.codes),
    bytes: new Uint8Array(row.codes),
  };
}

/** The id of (kind, scopes) in `_vector_filters`, added when new; `memo` spans one batch. */
export function filterId(
  sql: SqlStorage,
  kind: string,
  scopes: string,
  memo: Map<string, number>,
): number {
  const key = `${kind}\u0000${scopes}`;
  const known = memo.get(key);
  if (known !== undefined) return known;
  sql.exec(
    'INSERT INTO _vector_filters (kind, scopes) VALUES (?, ?) ON CONFLICT (kind, scopes) DO NOTHING',
    kind,
    scopes,
  );
  const id = sql
    .exec<{ id: number }>(
      'SELECT id FROM _vector_filters WHERE kind = ? AND scopes = ?',
      kind,
      scopes,
    )
    .one().id;
  memo.set(key, id);
  return id;
}

interface FilterMemo {
  rows: Map<number, { kind: string; scopes: string }>;
  bytes: number;
}

/**
 * Filter ids' (kind, scopes) read so far, kept until the next write: a vector query at a million
 * facts met about 500 ids and read them all again (2.6 ms in process); a Context has few distinct
 * (kind, scopes), and every query meets most of them.
 */
const filterMemo = new KeptUntilWrite<FilterMemo>(() => ({ rows: new Map(), bytes: 0 }));

/** The (kind, scopes) of each filter id asked for: those not kept yet, in one statement. */
export function filterRows(
  sql: SqlStorage,
  ids: readonly number[],
): Map<number, { kind: string; scopes: string }> {
  const memo = filterMemo.get(sql);
  budgetOf(sql).register('filters', {
    bytes: () => filterMemo.peek(sql)?.bytes ?? 0,
    drop: () => {
      const kept = filterMemo.peek(sql);
      if (!kept) return;
      kept.rows.clear();
      kept.bytes = 0;
    },
  });
  const missing = ids.filter((id) => !memo.rows.has(id));
  if (missing.length > 0)
    for (const row of sql.exec<{ id: number; kind: string; scopes: string }>(
      'SELECT id, kind, scopes FROM _vector_filters WHERE id IN (SELECT value FROM json_each(?))',
      JSON.stringify(missing),
    )) {
      memo.rows.set(row.id, { kind: row.kind, scopes: row.scopes });
      memo.bytes += 64 + stringBytes(row.kind) + stringBytes(row.scopes);
    }
  const out = new Map<number, { kind: string; scopes: string }>();
  for (const id of ids) {
    const row = memo.rows.get(id);
    if (row) out.set(id, row);
  }
  return out;
}

function packedRow(
  entries: readonly BlockEntry[],
  g: Generation,
): { seqs: ArrayBuffer; filters: ArrayBuffer; scales: ArrayBuffer; codes: ArrayBuffer } {
  const n = entries.length;
  const width = codeBytes(g);
  const seqs = new Float64Array(n);
  const filters = new Uint32Array(n);
  // A PQ code needs no scale: the column (NOT NULL) holds one unused float, not an empty BLOB,
  // which some SQLite bindings pass as NULL.
  const scales = new Float32Array(g.codebook ? 1 : n);
  const codes = new Uint8Array(n * width);
  entries.forEach((e, i) => {
    seqs[i] = e.seq;
    filters[i] = e.filter;
    if (!g.codebook) scales[i] = e.scale;
    codes.set(e.code.subarray(0, width), i * width);
  });
  return { seqs: seqs.buffer, filters: filters.buffer, scales: scales.buffer, codes: codes.buffer };
}

function entriesOf(block: Block, g: Generation): BlockEntry[] {
  const width = codeBytes(g);
  const out: BlockEntry[] = [];
  for (let i = 0; i < block.n; i++)
    out.push({
      seq: block.seqs[i] as number,
      filter: block.filters[i] as number,
      scale: block.scales[i] ?? 0,
      code: block.bytes.subarray(i * width, (i + 1) * width),
    });
  return out;
}

/** Appends `entries` to `list` of `g`: the last block is filled up, then new blocks follow. */
export function appendToList(
  sql: SqlStorage,
  modelId: string,
  g: Generation,
  list: number,
  entries: readonly BlockEntry[],
): void {
  if (entries.length === 0) return;
  const last = sql
    .exec<BlockRow>(
      `SELECT block, list, n, seqs, filters, scales, codes FROM _vector_blocks
        WHERE model_id = ? AND gen = ? AND list = ? ORDER BY block DESC LIMIT 1`,
      modelId,
      g.gen,
      list,
    )
    .toArray()[0];
  let pending = entries;
  let block = last ? last.block : -1;
  if (last && last.n < BLOCK_ENTRIES) {
    const room = BLOCK_ENTRIES - last.n;
    const merged = [...entriesOf(blockOf(last, g), g), ...pending.slice(0, room)];
    const row = packedRow(merged, g);
    sql.exec(
      `UPDATE _vector_blocks SET n = ?, seqs = ?, filters = ?, scales = ?, codes = ?
        WHERE model_id = ? AND gen = ? AND list = ? AND block = ?`,
      merged.length,
      row.seqs,
      row.filters,
      row.scales,
      row.codes,
      modelId,
      g.gen,
      list,
      last.block,
    );
    pending = pending.slice(room);
  }
  for (let i = 0; i < pending.length; i += BLOCK_ENTRIES) {
    const chunk = pending.slice(i, i + BLOCK_ENTRIES);
    const row = packedRow(chunk, g);
    block += 1;
    sql.exec(
      `INSERT INTO _vector_blocks (model_id, gen, list, block, n, seqs, filters, scales, codes)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      modelId,
      g.gen,
      list,
      block,
      chunk.length,
      row.seqs,
      row.filters,
      row.scales,
      row.codes,
    );
  }
}

/**
 * Blocks held at once while a query reads them: their filter ids are looked up in one statement
 * a group (16 blocks: 420 kB of codes at 100 dimensions, 3 MB at 768).
 */
const READ_GROUP = 16;

/** Every block of the given lists of `g`, a group at a time. */
export function* readBlocks(
  sql: SqlStorage,
  modelId: string,
  g: Generation,
  lists: readonly number[],
): Generator<Block[]> {
  // In groups, read as a stream: the blocks of 256 lists of 768-dimension codes are 250 MB.
  let group: Block[] = [];
  for (const row of sql.exec<BlockRow>(
    `SELECT block, list, n, seqs, filters, scales, codes FROM _vector_blocks
      WHERE model_id = ? AND gen = ? AND list IN (SELECT value FROM json_each(?))`,
    modelId,
    g.gen,
    JSON.stringify(lists),
  )) {
    group.push(blockOf(row, g));
    if (group.length >= READ_GROUP) {
      yield group;
      group = [];
    }
  }
  if (group.length > 0) yield group;
}

/** `g`'s tail rows, counted up to `packAt(g)` (reads at most that many index entries). */
export function tailRows(sql: SqlStorage, modelId: string, g: Generation): number {
  return sql
    .exec<{ n: number }>(
      `SELECT COUNT(*) AS n FROM (SELECT 1 FROM _vector_postings
        WHERE model_id = ? AND gen = ? LIMIT ?)`,
      modelId,
      g.gen,
      packAt(g),
    )
    .one().n;
}

/**
 * Moves up to `PACK_STEP` tail rows of `g` into its blocks, list by list, reading them as a
 * stream: only one list's entries are held at a time (a million 768-dimension vectors' tail is
 * 25 MB of codes). Returns the tail rows left (`tailRows`).
 */
export function packTail(sql: SqlStorage, modelId: string, g: Generation): number {
  const memo = new Map<string, number>();
  const upTo = new Map<number, number>();
  let list = -1;
  let entries: BlockEntry[] = [];
  for (const row of sql.exec<{
    list: number;
    item_seq: number;
    kind: string;
    scopes: string;
    code: ArrayBuffer;
  }>(
    `SELECT list, item_seq, kind, scopes, code FROM _vector_postings
      WHERE model_id = ? AND gen = ? ORDER BY list, item_seq LIMIT ?`,
    modelId,
    g.gen,
    PACK_STEP,
  )) {
    if (row.list !== list) {
      appendToList(sql, modelId, g, list, entries);
      list = row.list;
      entries = [];
    }
    upTo.set(row.list, row.item_seq);
    // A code of another width (a model that changed dimensions) is dropped, not packed.
    if (row.code.byteLength !== (g.codebook ? g.codebook.subspaces : 4 + g.dims)) continue;
    entries.push({
      seq: row.item_seq,
      filter: filterId(sql, row.kind, row.scopes, memo),
      scale: g.codebook ? 0 : new DataView(row.code).getFloat32(0, true),
      code: new Uint8Array(row.code, g.codebook ? 0 : 4),
    });
  }
  appendToList(sql, modelId, g, list, entries);
  // Rows come in (list, seq) order, so each list's packed rows are those up to its last seq read.
  for (const [packed, seq] of upTo)
    sql.exec(
      'DELETE FROM _vector_postings WHERE model_id = ? AND gen = ? AND list = ? AND item_seq <= ?',
      modelId,
      g.gen,
      packed,
      seq,
    );
  return tailRows(sql, modelId, g);
}
