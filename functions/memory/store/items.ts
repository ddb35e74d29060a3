import { answerTypeTerms } from '../retrieval/answer-type.ts';
import { placeMentions, placeTerms } from '../retrieval/places.ts';
import { analyseContent, speakerOf } from '../retrieval/text-analysis.ts';
import { contentTimeTerms } from '../retrieval/time-terms.ts';
import { lensMatches } from '../scopes/lens.ts';
import { aliasRowsOf, hasAliases, linkAliases, unlinkAliases, type AliasRow } from './aliases.ts';
import { addresseeOf, answeredBy, linkEntities, unlinkEntities } from './entities.ts';
import { ftsDelete, ftsInsert, type FtsRow } from './fts.ts';
import { newId, newIds } from './ids.ts';
import { jsonBatches } from './json-batches.ts';
import { hasConversation } from './validity.ts';
import type { ItemKind, ItemRecord, JsonObject, NewItem } from './types.ts';
import type { VectorCache } from './vectors.ts';
import { deleteVector, insertVectors, type NewVectorRow } from './vectors.ts';

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

/** Items of a batch as the bulk `INSERT ... SELECT FROM json_each(?)` reads them. */
function itemRows(
  items: readonly NewItem[],
  ids: readonly string[],
  now: string,
  conversation: boolean,
): unknown[] {
  return items.map((item, i) => {
    const row: (string | number | null | undefined)[] = [
      ids[i],
      item.kind,
      item.content,
      JSON.stringify(item.scopes),
      item.metadata === null ? null : JSON.stringify(item.metadata),
      item.sessionId,
      item.sourceId,
      now,
    ];
    if (conversation) row.push(item.validFrom ?? now, item.session ?? null, item.position ?? null);
    return row;
  });
}

/** Inserts the rows in order and returns each id's new `seq`. */
function insertItemRows(
  sql: SqlStorage,
  rows: unknown[],
  conversation: boolean,
): Map<string, number> {
  // Below the conversation-time step the table lacks `valid_from`, `session_label`, `position`.
  const query = conversation
    ? `INSERT INTO items (id, kind, content, scopes, metadata, session_id, source_id, created_at,
                          valid_from, session_label, position)
       SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5,
              value ->> 6, value ->> 7, value ->> 8, value ->> 9, value ->> 10
         FROM json_each(?) RETURNING seq, id`
    : `INSERT INTO items (id, kind, content, scopes, metadata, session_id, source_id, created_at)
       SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5,
              value ->> 6, value ->> 7
         FROM json_each(?) RETURNING seq, id`;
  const seqs = new Map<string, number>();
  for (const batch of jsonBatches(rows)) {
    for (const row of sql.exec<{ seq: number; id: string }>(query, batch))
      seqs.set(row.id, row.seq);
  }
  return seqs;
}

/**
 * Inserts items of any kind into the items table and every index (FTS5, vectors, entities) with
 * one bulk statement per table for the whole batch (json-batches.ts): the items first, for their
 * `seq`s, then each index. Call inside a transaction for all-or-nothing batches.
 */
export function insertItems(
  sql: SqlStorage,
  vectors: VectorCache,
  items: NewItem[],
  now: string,
): ItemRecord[] {
  if (items.length === 0) return [];
  // Below the conversation-time step the table has neither the columns nor the FTS `terms`.
  const conversation = hasConversation(sql);
  const ids = newIds(items[0]?.kind ?? 'item', items.length);
  // Ids carry the kind as prefix; a mixed batch (not written today) gets one id per kind.
  items.forEach((item, i) => {
    if (item.kind !== items[0]?.kind) ids[i] = newId(item.kind);
  });
  const seqOf = insertItemRows(sql, itemRows(items, ids, now, conversation), conversation);
  const fts: FtsRow[] = [];
  const vectorRows: NewVectorRow[] = [];
  const links: { seq: number; names: string[] }[] = [];
  // Who is called what (store/aliases.ts): only in chats, and only once the step made the table.
  const aliases: AliasRow[] = [];
  const learnAliases = conversation && hasAliases(sql);
  const records: ItemRecord[] = items.map((item, i) => {
    const id = ids[i] ?? '';
    const seq = seqOf.get(id);
    if (seq === undefined) throw new Error(`insertItems: no seq came back for ${id}`);
    const validFrom = item.validFrom ?? now;
    const session = item.session ?? null;
    const position = item.position ?? null;
    // "your" in a chat turn is whoever spoke last in its session. Every row of the batch is
    // already inserted, so the turns before this one in the same batch count too.
    const speaker = conversation && session !== null ? speakerOf(item.content) : null;
    const addressee =
      speaker && position !== null ? addresseeOf(sql, session ?? '', position, speaker.name) : null;
    const analysis = analyseContent(item.content, addressee);
    if (learnAliases && speaker && position !== null) {
      const other = () => addressee ?? answeredBy(sql, session ?? '', position, speaker.name);
      aliases.push(...aliasRowsOf(seq, speaker, other));
    }
    // Answer types and place terms both read the item's place names: found once.
    const places = conversation ? placeMentions(item.content) : [];
    fts.push({
      seq,
      content: item.content,
      terms: conversation
        ? [
            ...contentTimeTerms(item.content, validFrom),
            ...answerTypeTerms(item.content, places),
            ...placeTerms(item.content, places),
            ...analysis.terms,
          ].join(' ')
        : null,
    });
    if (item.vector)
      vectorRows.push({ seq, vector: item.vector, scopes: item.scopes, kind: item.kind });
    links.push({ seq, names: item.entities ?? analysis.entities });
    return {
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
      session: conversation ? (item.session ?? null) : null,
      position: conversation ? (item.position ?? null) : null,
    };
  });
  ftsInsert(sql, fts, conversation);
  insertVectors(sql, vectors, vectorRows);
  linkEntities(sql, links);
  linkAliases(sql, aliases);
  return records;
}

/** The rows of these seqs, in no particular order (absent seqs are skipped), in one statement. */
export function itemRowsBySeq(sql: SqlStorage, seqs: readonly number[]): ItemRow[] {
  if (seqs.length === 0) return [];
  return sql
    .exec<ItemRow>(
      'SELECT * FROM items WHERE seq IN (SELECT value FROM json_each(?))',
      JSON.stringify(seqs),
    )
    .toArray();
}

export function getItemRow(sql: SqlStorage, id: string): ItemRow | null {
  return sql.exec<ItemRow>('SELECT * FROM items WHERE id = ?', id).toArray()[0] ?? null;
}

/** Removes an item from the table and every index at once (call inside a transaction). */
export function deleteItemRow(sql: SqlStorage, vectors: VectorCache, row: ItemRow): void {
  ftsDelete(sql, row.seq);
  deleteVector(sql, vectors, row.seq);
  unlinkEntities(sql, row.seq);
  unlinkAliases(sql, row.seq);
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

/** Rows one list call reads at most (`GET /facts`), visible to the lens or not. */
export const LIST_READ_BUDGET = 20_000;

/** A page of items in insertion order, filtered by lens; `next` is the cursor for the next page. */
export function listItems(
  sql: SqlStorage,
  input: ListItemsInput,
): { items: ItemRecord[]; next: number | null } {
  const items: ItemRecord[] = [];
  let last = input.after;
  let read = 0;
  const kind = input.kind ? 'AND kind = ?' : '';
  // Pages read to their end (a cursor left half read holds WAL checkpoints back), at most
  // LIST_READ_BUDGET rows a call: a lens that sees few of a large Context's items gets a short
  // page and a cursor instead of a call that reads the table to its end.
  for (let size = Math.min(input.limit + 1, LIST_READ_BUDGET); ;) {
    const rows = sql
      .exec<ItemRow>(
        `SELECT * FROM items WHERE seq > ? ${kind} ORDER BY seq LIMIT ?`,
        ...(input.kind ? [last, input.kind, size] : [last, size]),
      )
      .toArray();
    read += rows.length;
    for (const row of rows) {
      if (items.length === input.limit) return { items, next: last };
      last = row.seq;
      const record = toRecord(row);
      if (input.excludeSuperseded && record.valid_until) continue;
      if (lensMatches(input.lens, record.scopes)) items.push(record);
    }
    if (rows.length < size) return { items, next: null };
    if (read >= LIST_READ_BUDGET) return { items, next: last };
    size = Math.min(size * 4, LIST_READ_BUDGET - read);
  }
}
