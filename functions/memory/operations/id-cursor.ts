import { failure } from '../errors.ts';

/**
 * Keyset cursors for the control-plane lists (Contexts, keys, principals): the last id of a page,
 * base64url-encoded so the cursor survives a query string without escaping (`+` would read as a
 * space). Ids are compared as text in D1, so a page never repeats or skips a row that existed
 * when it was read, whatever is created in between.
 */

/** Every id these lists hand out: Context ids, `key_...`, `principal_...`. */
const LISTED_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,199}$/;

export function encodeIdCursor(id: string): string {
  return btoa(id).replace(/=+$/, '').replaceAll('+', '-').replaceAll('/', '_');
}

export function decodeIdCursor(cursor: string): string {
  try {
    const id = atob(cursor.replaceAll('-', '+').replaceAll('_', '/'));
    if (LISTED_ID.test(id)) return id;
  } catch {
    // reported below
  }
  throw failure('validation-error', 'cursor: not a cursor returned by this endpoint');
}

/**
 * One page from rows read with `LIMIT limit + 1`: the extra row only says that more follow, and
 * the cursor is the id of the last row returned.
 */
export function pageOf<T extends { id: string }>(
  rows: readonly T[],
  limit: number,
): { rows: T[]; next_cursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    rows: page,
    next_cursor: rows.length > limit && last !== undefined ? encodeIdCursor(last.id) : null,
  };
}
