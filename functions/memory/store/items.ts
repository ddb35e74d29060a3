import { analyseContent, speakerOf } from '../retrieval/text-analysis.ts';
import { contentTimeTerms } from '../retrieval/time-terms.ts';
import { lensMatches } from '../scopes/lens.ts';
import { addresseeOf, linkEntities, unlinkEntities } from './entities.ts';
import { ftsDelete, ftsInsert } from './fts.ts';
import { newId } from './ids.ts';
import { hasConversation } from './validity.ts';
import type { ItemKind, ItemRecord, JsonObject, NewItem } from './types.ts';
import type { VectorCache } from './vectors.ts';
import { deleteVector, insertVector } from './vectors.ts';

export interface ItemRow {
  seq: number;
  id: string;
  kind: string;
  content: string;
  scopes: string;
  metadata: string | null;
  session_id: string | null;
  source_id: string | null;
  created_at: string;
  [column: string]: SqlStorageValue;
}

export function toRecord(row: ItemRow): ItemRecord {
  // `valid_from`/`valid_until` exist from schema V2 on; a V1 row simply lacks them.
  const from = row['valid_from'];
  const until = row['valid_until'];
  // `session_label`/`position` exist from the conversation-time schema step on.
  const session = row['session_label'];
  const position = row['position'];
  return {
    id: row.id,
    kind: row.kind as ItemKind,
    content: row.content,
    scopes: JSON.parse(row.scopes) as string[],
    metadata: row.metadata === null ? null : (JSON.parse(row.metadata) as JsonObject),
    session_id: row.session_id,
    source_id: row.source_id,
    created_at: row.created_at,
    valid_from: typeof from === 'string' ? from : row.created_at,
    valid_until: typeof until === 'string' ? until : null,
    session: typeof session === 'string' ? session : null,
    position: typeof position === 'number' ? position : null,
  };
}

/**
 * Inserts items of any kind into the items table and every index (FTS5, vectors, entities).
 * Call inside a transaction for all-or-nothing batches.
 */
export function insertItems(
  sql: SqlStorage,
  vectors: VectorCache,
  items: NewItem[],
  now: string,
): ItemRecord[] {
  const records: ItemRecord[] = [];
  // Below the conversation-time step the table has neither the columns nor the FTS `terms`.
  const conversation = hasConversation(sql);
  for (const item of items) {
    const id = newId(item.kind);
    const scopes = JSON.stringify(item.scopes);
    const metadata = item.metadata === null ? null : JSON.stringify(item.metadata);
    const validFrom = item.validFrom ?? now;
    const session = item.session ?? null;
    const position = item.position ?? null;
    const row = conversation
      ? sql
          .exec<{ seq: number }>(
            `INSERT INTO items (id, kind, content, scopes, metadata, session_id, source_id, created_at,
                                valid_from, session_label, position)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING seq`,
            id,
            item.kind,
            item.content,
            scopes,
            metadata,
            item.sessionId,
            item.sourceId,
            now,
            validFrom,
            session,
            position,
          )
          .one()
      : sql
          .exec<{ seq: number }>(
            `INSERT INTO items (id, kind, content, scopes, metadata, session_id, source_id, created_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING seq`,
            id,
            item.kind,
            item.content,
            scopes,
            metadata,
            item.sessionId,
            item.sourceId,
            now,
          )
          .one();
    // "your" in a chat turn is whoever spoke last in its session (read from the rows before it).
    const speaker = conversation && session !== null ? speakerOf(item.content) : null;
    const addressee =
      speaker && position !== null ? addresseeOf(sql, session ?? '', position, speaker.name) : null;
    const analysis = analyseContent(item.content, addressee);
    ftsInsert(
      sql,
      row.seq,
      item.content,
      conversation
        ? [...contentTimeTerms(item.content, validFrom), ...analysis.terms].join(' ')
        : null,
    );
    if (item.vector) insertVector(sql, vectors, row.seq, item.vector, item.scopes, item.kind);
    linkEntities(sql, row.seq, item.entities ?? analysis.entities);
    records.push({
      id,
      kind: item.kind,
      content: item.content,
      scopes: item.scopes,
      metadata: item.metadata,
      session_id: item.sessionId,
      source_id: item.sourceId,
      created_at: now,
      valid_from: conversation ? validFrom : now,
      valid_until: null,
      session: conversation ? session : null,
      position: conversation ? position : null,
    });
  }
  return records;
}

export function getItemRow(sql: SqlStorage, id: string): ItemRow | null {
  return sql.exec<ItemRow>('SELECT * FROM items WHERE id = ?', id).toArray()[0] ?? null;
}

/** Removes an item from the table and every index at once (call inside a transaction). */
export function deleteItemRow(sql: SqlStorage, vectors: VectorCache, row: ItemRow): void {
  ftsDelete(sql, row.seq);
  deleteVector(sql, vectors, row.seq);
  unlinkEntities(sql, row.seq);
  sql.exec('DELETE FROM items WHERE seq = ?', row.seq);
}

/** Deletes every item that came from one source (e.g. all chunks of a document). */
export function deleteItemsBySource(
  sql: SqlStorage,
  vectors: VectorCache,
  sourceId: string,
): number {
  const rows = sql.exec<ItemRow>('SELECT * FROM items WHERE source_id = ?', sourceId).toArray();
  for (const row of rows) deleteItemRow(sql, vectors, row);
  return rows.length;
}

export interface ListItemsInput {
  kind: ItemKind | null;
  lens: string[][];
  /** Exclusive lower bound on `seq` (from the previous page's cursor). */
  after: number;
  limit: number;
  /** Leave out items closed by supersession or merging (kept by default: exports, jobs). */
  excludeSuperseded?: boolean;
}

/** A page of items in insertion order, filtered by lens; `next` is the cursor for the next page. */
export function listItems(
  sql: SqlStorage,
  input: ListItemsInput,
): { items: ItemRecord[]; next: number | null } {
  const items: ItemRecord[] = [];
  let last = input.after;
  const cursor = input.kind
    ? sql.exec<ItemRow>(
        'SELECT * FROM items WHERE seq > ? AND kind = ? ORDER BY seq',
        input.after,
        input.kind,
      )
    : sql.exec<ItemRow>('SELECT * FROM items WHERE seq > ? ORDER BY seq', input.after);
  for (const row of cursor) {
    if (items.length === input.limit) return { items, next: last };
    last = row.seq;
    const record = toRecord(row);
    if (input.excludeSuperseded && record.valid_until) continue;
    if (lensMatches(input.lens, record.scopes)) items.push(record);
  }
  return { items, next: null };
}

/** The newest `limit` current (not superseded) items of a kind inside the lens, newest first. */
export function recentItems(
  sql: SqlStorage,
  kind: ItemKind,
  lens: string[][],
  limit: number,
): ItemRecord[] {
  const items: ItemRecord[] = [];
  for (const row of sql.exec<ItemRow>(
    'SELECT * FROM items WHERE kind = ? ORDER BY seq DESC',
    kind,
  )) {
    if (items.length === limit) break;
    const record = toRecord(row);
    if (record.valid_until) continue;
    if (lensMatches(lens, record.scopes)) items.push(record);
  }
  return items;
}
