import { lensMatches } from '../scopes/lens.ts';
import type { ItemRow } from './items.ts';
import { toLiveItem, type LiveItem } from './model-paths.ts';
import { hasColumn } from './schema-facts.ts';
import type { ItemKind } from './types.ts';

/**
 * Rows one window reads at most, whether the lens lets them through or not. A narrow lens over a
 * large Context stops here and says where (`through`) instead of reading every item in one call:
 * at a million facts a lens that sees one fact in a thousand would otherwise read them all.
 */
export const WINDOW_READ_BUDGET = 20_000;

export interface FactWindow {
  /** The current items inside the lens, in the order read. */
  facts: LiveItem[];
  /** The seq of the last row consumed: the place to go on from (`from` when nothing was read). */
  through: number;
  /** Nothing is left past `through` in the window's direction. */
  end: boolean;
}

export interface FactWindowInput {
  lens: string[][];
  kinds: readonly string[];
  /** Exclusive start; 0 (or, newest first, `Infinity`) for the first window. */
  from: number;
  limit: number;
  newestFirst?: boolean;
  budget?: number;
}

/**
 * Current (not superseded) items of `kinds` inside `lens`, from `from` on in seq order (or
 * backwards), at most `limit`, reading at most `budget` rows. Pages are read to their end: a
 * cursor left half read holds WAL checkpoints back (docs/scale.md).
 */
export function factWindow(sql: SqlStorage, input: FactWindowInput): FactWindow {
  const budget = input.budget ?? WINDOW_READ_BUDGET;
  const kinds = input.kinds.map(() => '?').join(', ');
  const [compare, order] = input.newestFirst ? ['<', 'DESC'] : ['>', 'ASC'];
  // Below schema V2 items have no validity window: every one is current.
  const current = hasColumn(sql, 'items', 'valid_until') ? 'valid_until IS NULL AND' : '';
  const facts: LiveItem[] = [];
  let through = input.from;
  let read = 0;
  for (let size = Math.min(Math.max(input.limit * 2, 64), budget); size > 0;) {
    const rows = sql
      .exec<ItemRow>(
        `SELECT * FROM items WHERE ${current} kind IN (${kinds}) AND seq ${compare} ?
          ORDER BY seq ${order} LIMIT ?`,
        ...input.kinds,
        Number.isFinite(through) ? through : Number.MAX_SAFE_INTEGER,
        size,
      )
      .toArray();
    read += rows.length;
    for (const [i, row] of rows.entries()) {
      through = row.seq;
      if (lensMatches(input.lens, JSON.parse(row.scopes) as string[])) facts.push(toLiveItem(row));
      if (facts.length >= input.limit) {
        // The window is full; it is the end only if this was the last row there is.
        return { facts, through, end: i === rows.length - 1 && rows.length < size };
      }
    }
    if (rows.length < size) return { facts, through, end: true };
    size = Math.min(size * 4, budget - read);
  }
  return { facts, through, end: false };
}

/**
 * The newest current items of `kinds` inside `lens`, at most `limit`, oldest first (what
 * reflection reads: at a million facts the oldest 500 say little about the agent's present).
 */
export function currentItems(
  sql: SqlStorage,
  input: { lens: string[][]; kinds: readonly string[]; limit: number },
): LiveItem[] {
  return factWindow(sql, { ...input, from: Infinity, newestFirst: true }).facts.reverse();
}

/**
 * The newest current items of `kind` inside `lens`, newest first, at most `limit`: what the
 * context block shows when no query is given. Read from the newest `WINDOW_READ_BUDGET` rows:
 * before, a lens that sees few of a large Context's facts read pages growing fourfold to the end
 * of the table, a million rows held at once.
 */
export function recentItems(
  sql: SqlStorage,
  kind: ItemKind,
  lens: string[][],
  limit: number,
): LiveItem[] {
  return factWindow(sql, { lens, kinds: [kind], from: Infinity, newestFirst: true, limit }).facts;
}
