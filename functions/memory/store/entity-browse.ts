import { lensMatches } from '../scopes/lens.ts';
import { itemRowsBySeq, toRecord } from './items.ts';
import { memoFilter } from './vector-matrix.ts';
import type { ItemRecord } from './types.ts';
import { hasColumn } from './schema-facts.ts';
import { withSupersession } from './validity.ts';

/**
 * The entity names linked to items, as a reader browses them (the console, `GET /entities`, the
 * MCP tool `list_entities`): only entities some current item inside the reader's lens mentions
 * exist for that reader. Work per call is bounded whatever the Context's size: an entity's edges
 * are walked with only two columns of each item read, its count stops at `ENTITY_COUNT_CAP`, and a
 * page stops once it has read `EDGE_BUDGET` edges (docs/scale.md: at a million facts a topic word
 * is mentioned by 13,000 to 141,000 items, and counting every one of them for each entity of a
 * page was seconds of CPU). Every statement is read to its end, in pages.
 */

/** An entity's count of current items stops here; `items_more` says it did. */
export const ENTITY_COUNT_CAP = 1_000;
/** Edges (and entity rows) one page or look-up reads at most before it answers. */
export const EDGE_BUDGET = 20_000;

export interface EntitySummary {
  name: string;
  display: string;
  /** Current items inside the lens that mention the entity, counted up to `ENTITY_COUNT_CAP`. */
  items: number;
  /** True when more current items inside the lens may mention it than `items` counts. */
  items_more: boolean;
}

/**
 * Where a page starts: the first entity id to look at and, when a page stopped inside that
 * entity's edges before finding any it may show, the item seq its walk (newest first) reached.
 */
export interface EntityCursor {
  start: number;
  before: number | null;
}

interface EdgeRow {
  seq: number;
  scopes: string;
  until: string | null;
}

/** Whether an edge's item is current and inside the lens (each scopes text decided once). */
type Visibility = (row: EdgeRow) => boolean;

function visibility(lens: string[][]): Visibility {
  const admits = memoFilter((scopes, _kind, closed) => !closed && lensMatches(lens, scopes));
  return (row) => admits(row.scopes, '', row.until !== null);
}

/** The first page of an entity's edges; each next one is four times larger, up to 4,096. */
const FIRST_EDGES = 64;
/** Entity rows one statement reads. */
const ENTITY_ROWS = 64;

/**
 * An entity's edges with the two columns visibility needs, newest or oldest first, from `bound`
 * (exclusive) on. Read in pages, each statement to its end: a statement left half read holds its
 * snapshot and no WAL checkpoint gets past it (docs/scale.md, "No cursor left half read"), and a
 * walk that stops early reads only its first small page.
 */
function* edges(
  sql: SqlStorage,
  entity: number,
  order: 'newest' | 'oldest',
  bound: number | null,
): Generator<EdgeRow> {
  // `valid_until` arrived with schema V2; before it every item is current.
  const until = hasColumn(sql, 'items', 'valid_until') ? 'items.valid_until' : 'NULL';
  const newest = order === 'newest';
  let from = bound;
  for (let size = FIRST_EDGES; ; size = Math.min(size * 4, 4_096)) {
    const after = from === null ? '' : `AND item_entities.item_seq ${newest ? '<' : '>'} ?`;
    const rows = sql
      .exec<{ seq: number; scopes: string; until: string | null }>(
        `SELECT item_entities.item_seq AS seq, items.scopes AS scopes, ${until} AS until
           FROM item_entities JOIN items ON items.seq = item_entities.item_seq
          WHERE item_entities.entity_id = ? ${after}
          ORDER BY item_entities.item_seq ${newest ? 'DESC' : 'ASC'} LIMIT ?`,
        ...(from === null ? [entity, size] : [entity, from, size]),
      )
      .toArray();
    yield* rows;
    const last = rows.at(-1);
    if (last === undefined || rows.length < size) return;
    from = last.seq;
  }
}

interface Count {
  items: number;
  more: boolean;
  /** Edges read. */
  read: number;
  /** The last edge's item seq read, or null when none was. */
  last: number | null;
}

/**
 * Counts an entity's visible items newest first from `before`, reading at most `budget` edges and
 * counting at most `ENTITY_COUNT_CAP`; `more` when it stopped with edges left.
 */
function countVisible(
  sql: SqlStorage,
  entity: number,
  visible: Visibility,
  before: number | null,
  budget: number,
): Count {
  const count: Count = { items: 0, more: false, read: 0, last: null };
  for (const row of edges(sql, entity, 'newest', before)) {
    if (count.items === ENTITY_COUNT_CAP || count.read === budget) {
      count.more = true;
      break;
    }
    count.read++;
    count.last = row.seq;
    if (visible(row)) count.items++;
  }
  return count;
}

/**
 * Entities mentioned by at least one current item inside the lens, by id from `from`; `prefix`
 * narrows by name start (case-insensitive). A page holds at most `limit` entities and may hold
 * fewer (none, even) with a cursor when it spent its budget; `next` is null at the end.
 */
export function entityPage(
  sql: SqlStorage,
  input: {
    lens: string[][];
    from: EntityCursor;
    limit: number;
    prefix: string | null;
    /** Edges and entity rows read at most (tests lower it). */
    budget?: number;
  },
): { entities: EntitySummary[]; next: EntityCursor | null } {
  const prefix = input.prefix === null ? null : input.prefix.toLowerCase();
  const visible = visibility(input.lens);
  const entities: EntitySummary[] = [];
  let budget = input.budget ?? EDGE_BUDGET;
  for (let start = input.from.start; ;) {
    // A page of entity rows at a time, each statement read to its end (as `edges`).
    const rows = sql
      .exec<{ id: number; name: string; display: string }>(
        prefix === null
          ? 'SELECT id, name, display FROM entities WHERE id >= ? ORDER BY id LIMIT ?'
          : 'SELECT id, name, display FROM entities WHERE id >= ? AND substr(name, 1, ?) = ? ORDER BY id LIMIT ?',
        ...(prefix === null ? [start, ENTITY_ROWS] : [start, prefix.length, prefix, ENTITY_ROWS]),
      )
      .toArray();
    for (const row of rows) {
      if (entities.length === input.limit || budget <= 0)
        return { entities, next: { start: row.id, before: null } };
      // An entity row read is a unit of work too: a rare prefix scans the table.
      budget--;
      const before = row.id === input.from.start ? input.from.before : null;
      const count = countVisible(sql, row.id, visible, before, Math.max(budget, 1));
      budget -= count.read;
      if (count.items > 0)
        entities.push({
          name: row.name,
          display: row.display,
          items: count.items,
          items_more: count.more,
        });
      // Out of budget before any item it may show: the next page goes on inside this entity.
      else if (count.more) return { entities, next: { start: row.id, before: count.last } };
    }
    const last = rows.at(-1);
    if (last === undefined || rows.length < ENTITY_ROWS) return { entities, next: null };
    start = last.id + 1;
  }
}

/**
 * One entity by name (case-insensitive) with the first `limit` current items inside the lens that
 * mention it, oldest first, or null. An entity that only items outside the lens mention is null
 * too: it is absent to this reader, as it is from `entityPage`. Finding the first item it may show
 * is not budgeted (one entity's edges, two columns each); the count after it is, as a page's is.
 */
export function entityDetail(
  sql: SqlStorage,
  input: { lens: string[][]; name: string; limit: number; budget?: number },
): { entity: EntitySummary; items: ItemRecord[] } | null {
  const row = sql
    .exec<{ id: number; name: string; display: string }>(
      'SELECT id, name, display FROM entities WHERE name = ?',
      input.name.toLowerCase(),
    )
    .toArray()[0];
  if (!row) return null;
  const visible = visibility(input.lens);
  const shown: number[] = [];
  let items = 0;
  let more = false;
  let read = 0;
  const budget = input.budget ?? EDGE_BUDGET;
  for (const edge of edges(sql, row.id, 'oldest', null)) {
    if (items > 0 && (items === ENTITY_COUNT_CAP || read >= budget)) {
      more = true;
      break;
    }
    read++;
    if (!visible(edge)) continue;
    items++;
    if (shown.length < input.limit) shown.push(edge.seq);
  }
  if (items === 0) return null;
  const records = itemRowsBySeq(sql, shown)
    .sort((a, b) => a.seq - b.seq)
    .map((item) => withSupersession(sql, toRecord(item), input.lens));
  return {
    entity: { name: row.name, display: row.display, items, items_more: more },
    items: records,
  };
}
