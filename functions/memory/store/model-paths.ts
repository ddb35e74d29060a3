import { countedSinceLastWrite, keptCount } from './counts.ts';
import { hasTable } from './schema-facts.ts';
import { getItemRow, insertItems, toRecord, type ItemRow } from './items.ts';
import type { ItemRecord, NewItem } from './types.ts';
import { mayClose } from './validity.ts';
import type { VectorCache } from './vectors.ts';

/**
 * Store-side plain functions of the model-backed paths (V4 tables). Called by the ContextStore's
 * `model-backed paths` RPC block, each inside one transaction where it writes.
 */

export type LinkRelation = 'supersedes' | 'refines' | 'merged_into' | 'reflects';

/** A memory item with its validity window, as inference and the model-backed responses see it. */
export interface LiveItem extends ItemRecord {
  valid_until: string | null;
}

export function toLiveItem(row: ItemRow): LiveItem {
  const until = row.valid_until;
  return { ...toRecord(row), valid_until: typeof until === 'string' ? until : null };
}

/**
 * Closes an item's validity window; a closed item is history and is never reopened. The vector
 * cache learns it at once, so searches skip it without reading `items`.
 */
export function closeItem(sql: SqlStorage, vectors: VectorCache, id: string, at: string): boolean {
  const closed = sql
    .exec<{ seq: number }>(
      'UPDATE items SET valid_until = ? WHERE id = ? AND valid_until IS NULL RETURNING seq',
      at,
      id,
    )
    .toArray()[0];
  if (closed) vectors.onClose(closed.seq);
  return closed !== undefined;
}

export function linkItems(
  sql: SqlStorage,
  from: string,
  to: string,
  relation: LinkRelation,
  at: string,
): void {
  sql.exec(
    'INSERT OR IGNORE INTO item_links (from_id, to_id, relation, created_at) VALUES (?, ?, ?, ?)',
    from,
    to,
    relation,
    at,
  );
}

export function linksOf(
  sql: SqlStorage,
  id: string,
): { from_id: string; to_id: string; relation: string }[] {
  return sql
    .exec<{ from_id: string; to_id: string; relation: string }>(
      'SELECT from_id, to_id, relation FROM item_links WHERE from_id = ? OR to_id = ? ORDER BY created_at',
      id,
      id,
    )
    .toArray();
}

/** Items by id with their validity (unknown ids are left out). */
export function liveItems(sql: SqlStorage, ids: string[]): LiveItem[] {
  const out: LiveItem[] = [];
  for (const id of ids) {
    const row = getItemRow(sql, id);
    if (row) out.push(toLiveItem(row));
  }
  return out;
}

export type FactChange =
  | { action: 'create'; item: NewItem; reason: string }
  | { action: 'update' | 'supersede'; item: NewItem; target: string; reason: string }
  | { action: 'noop'; target: string; reason: string };

export interface AppliedChange {
  action: FactChange['action'];
  reason: string;
  /** The stored fact (the existing one for `noop`). */
  fact: LiveItem;
  /** For update/supersede: the fact that was closed. */
  replaces: string | null;
}

/**
 * Applies reconciliation decisions in order. `pending:<n>` targets name the fact created by the
 * n-th change of the same batch. Old facts are closed and linked, never overwritten.
 */
export function applyFactChanges(
  sql: SqlStorage,
  vectors: VectorCache,
  changes: FactChange[],
  writeGrant: readonly string[],
  now: string,
): AppliedChange[] {
  const created = new Map<number, string>();
  const resolve = (target: string): string => {
    const m = /^pending:(\d+)$/.exec(target);
    return m ? (created.get(Number(m[1])) ?? target) : target;
  };
  const out: AppliedChange[] = [];
  changes.forEach((change, index) => {
    if (change.action === 'noop') {
      const row = getItemRow(sql, resolve(change.target));
      if (row)
        out.push({ action: 'noop', reason: change.reason, fact: toLiveItem(row), replaces: null });
      return;
    }
    const [record] = insertItems(sql, vectors, [change.item], now);
    if (!record) return;
    created.set(index, record.id);
    let replaces: string | null = null;
    let action = change.action;
    let reason = change.reason;
    if (change.action !== 'create') {
      const target = resolve(change.target);
      const row = getItemRow(sql, target);
      const targetScopes = row ? (JSON.parse(row.scopes) as string[]) : [];
      if (!mayClose(writeGrant, targetScopes, record.scopes)) {
        // The old fact is not this writer's to retire (or its readers could not see the new
        // one): both stay current, and the response names only the fact just written.
        action = 'create';
        reason = `${reason}; stored alongside: the fact it would replace is outside this writer's scopes`;
      } else if (closeItem(sql, vectors, target, now)) {
        linkItems(
          sql,
          record.id,
          target,
          change.action === 'update' ? 'refines' : 'supersedes',
          now,
        );
        replaces = target;
      }
    }
    out.push({ action, reason, fact: { ...record, valid_until: null }, replaces });
  });
  return out;
}

export interface ModelUsageEntry {
  operation: string;
  provider: string;
  model: string;
  input_tokens: number;
  output_tokens: number;
  source: string;
}

export function recordModelUsage(sql: SqlStorage, entry: ModelUsageEntry, at: string): void {
  sql.exec(
    `INSERT INTO model_usage (operation, provider, model, input_tokens, output_tokens, source, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
    entry.operation,
    entry.provider,
    entry.model,
    entry.input_tokens,
    entry.output_tokens,
    entry.source,
    at,
  );
}

export interface ModelUsageTotals {
  calls: number;
  input_tokens: number;
  output_tokens: number;
}

export function modelUsageTotals(sql: SqlStorage): ModelUsageTotals {
  return sql
    .exec<{ calls: number; input_tokens: number; output_tokens: number }>(
      `SELECT COUNT(*) AS calls, COALESCE(SUM(input_tokens), 0) AS input_tokens,
              COALESCE(SUM(output_tokens), 0) AS output_tokens FROM model_usage`,
    )
    .one();
}

export function cacheGet(sql: SqlStorage, key: string): string | null {
  return (
    sql.exec<{ body: string }>('SELECT body FROM response_cache WHERE key = ?', key).toArray()[0]
      ?.body ?? null
  );
}

/** Keeps at most `max` entries; the oldest go first. */
export function cachePut(sql: SqlStorage, key: string, body: string, at: string, max = 500): void {
  sql.exec(
    'INSERT INTO response_cache (key, body, created_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET body = excluded.body, created_at = excluded.created_at',
    key,
    body,
    at,
  );
  sql.exec(
    'DELETE FROM response_cache WHERE key NOT IN (SELECT key FROM response_cache ORDER BY created_at DESC LIMIT ?)',
    max,
  );
}

export type ExtractionStatus = 'queued' | 'done' | 'failed' | 'not_run';

export function setTurnExtraction(
  sql: SqlStorage,
  turnId: string,
  state: { status: ExtractionStatus; facts?: number; detail?: string | null },
  at: string,
): void {
  sql.exec(
    `INSERT INTO turn_extractions (turn_id, status, facts, detail, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (turn_id) DO UPDATE SET status = excluded.status, facts = excluded.facts,
       detail = excluded.detail, updated_at = excluded.updated_at`,
    turnId,
    state.status,
    state.facts ?? 0,
    state.detail ?? null,
    at,
  );
}

export function turnExtraction(
  sql: SqlStorage,
  turnId: string,
): { status: ExtractionStatus; facts: number; detail: string | null } | null {
  return (
    sql
      .exec<{ status: ExtractionStatus; facts: number; detail: string | null }>(
        'SELECT status, facts, detail FROM turn_extractions WHERE turn_id = ?',
        turnId,
      )
      .toArray()[0] ?? null
  );
}

/**
 * How many items still lack a vector of `modelId` (a model change in progress when > 0). Every
 * `/query` asks, so it is two index counts instead of a join over every item: an item has at most
 * one vector (`item_vectors.item_seq` is the key) and its vector goes with it on delete, so the
 * items without one of `modelId` are all items minus that model's vectors.
 */
export function countStaleVectors(sql: SqlStorage, modelId: string): number {
  return countedSinceLastWrite(sql, `stale vectors ${modelId}`, () =>
    hasTable(sql, '_counts')
      ? Math.max(
          0,
          keptCount(sql, 'items', () => 0) - keptCount(sql, `vectors:${modelId}`, () => 0),
        )
      : sql
          .exec<{ n: number }>(
            `SELECT MAX(0, (SELECT COUNT(*) FROM items)
                           - (SELECT COUNT(*) FROM item_vectors WHERE model_id = ?)) AS n`,
            modelId,
          )
          .one().n,
  );
}
