import { fail, ok, type Result } from '../errors.ts';
import type { ConsolidationDecision } from '../inference/consolidate.ts';
import { getItemRow, insertItems, type ItemRow } from './items.ts';
import * as paths from './model-paths.ts';
import { readSchemaVersion } from './schema/runner.ts';
import { mayClose } from './validity.ts';
import { search } from './search.ts';
import type { ItemRecord, NewItem, SearchRequest, TurnRecord } from './types.ts';
import { turnTimeColumn, type TurnRow } from './sessions.ts';
import { insertVector, itemsMissingVectors, type VectorCache } from './vectors.ts';

/**
 * The model-backed operations ContextStore exposes over RPC, as plain functions over the
 * object's storage. Writes run in one transaction each; a failed one also drops the in-memory
 * vector cache so it never disagrees with SQLite.
 */

/** The schema version that introduced the model-backed tables (schema/v4.ts). */
export const MODEL_PATHS_SINCE = 4;

export interface ModelHandle {
  storage: DurableObjectStorage;
  vectors: VectorCache;
}

export function ready(h: ModelHandle): Result<null> {
  if (readSchemaVersion(h.storage.sql) >= MODEL_PATHS_SINCE) return ok(null);
  return fail({
    kind: 'service-unavailable',
    detail:
      'this Context is being upgraded to a schema with the model-backed tables; try again shortly',
    retryAfter: 60,
  });
}

function atomically<T>(h: ModelHandle, fn: () => T): T {
  try {
    return h.storage.transactionSync(fn);
  } catch (err) {
    h.vectors.reset();
    throw err;
  }
}

const RELATED_PER_STATEMENT = 8;

/** Current facts related to any of the statements (bm25 on each), for reconciliation. */
export function relatedFacts(
  h: ModelHandle,
  statements: string[],
  lens: string[][],
): paths.LiveItem[] {
  const ids = new Set<string>();
  for (const text of statements) {
    const hits = search(h.storage.sql, h.vectors, {
      mode: 'bm25',
      text,
      vector: null,
      k: RELATED_PER_STATEMENT,
      lens,
      kinds: ['fact'],
    });
    for (const hit of hits) ids.add(hit.id);
  }
  return paths.liveItems(h.storage.sql, [...ids]).filter((i) => i.valid_until === null);
}

export type RetrievedItem = paths.LiveItem & { score: number };

/** A search whose hits carry their validity; superseded facts only when history is asked for. */
export function retrieve(
  h: ModelHandle,
  req: SearchRequest & { includeHistory: boolean },
): RetrievedItem[] {
  const { includeHistory, ...request } = req;
  const hits = search(h.storage.sql, h.vectors, { ...request, includeSuperseded: includeHistory });
  const live = new Map(
    paths
      .liveItems(
        h.storage.sql,
        hits.map((x) => x.id),
      )
      .map((i) => [i.id, i]),
  );
  const out: RetrievedItem[] = [];
  for (const hit of hits) {
    const item = live.get(hit.id);
    if (!item || (!includeHistory && item.valid_until !== null)) continue;
    out.push({ ...item, score: hit.score });
  }
  return out;
}

/** `writeGrant`: the writer's `memory:write` paths; only facts inside them are closed. */
export function applyFactChanges(
  h: ModelHandle,
  changes: paths.FactChange[],
  writeGrant: readonly string[],
): paths.AppliedChange[] {
  const now = new Date().toISOString();
  return atomically(h, () =>
    paths.applyFactChanges(h.storage.sql, h.vectors, changes, writeGrant, now),
  );
}

function scopesOf(row: ItemRow): string[] {
  return JSON.parse(row.scopes) as string[];
}

/** Stores reflections, each linked to the items it rests on. */
export function persistReflections(
  h: ModelHandle,
  items: NewItem[],
  sources: string[][],
): ItemRecord[] {
  const now = new Date().toISOString();
  return atomically(h, () => {
    const records = insertItems(h.storage.sql, h.vectors, items, now);
    records.forEach((r, i) => {
      for (const source of sources[i] ?? [])
        paths.linkItems(h.storage.sql, r.id, source, 'reflects', now);
    });
    return records;
  });
}

/**
 * Closes merged and superseded facts, linked to the fact that replaces them. A decision the
 * writer may not apply (see `mayClose`) is skipped, whoever planned it.
 */
export function applyConsolidation(
  h: ModelHandle,
  decisions: ConsolidationDecision[],
  writeGrant: readonly string[],
): number {
  const now = new Date().toISOString();
  return atomically(h, () => {
    let applied = 0;
    for (const d of decisions) {
      if (d.action === 'keep') continue;
      const into = d.action === 'merge' ? d.into : d.by;
      const survivor = getItemRow(h.storage.sql, into);
      const closed = getItemRow(h.storage.sql, d.id);
      if (!survivor || !closed) continue;
      if (!mayClose(writeGrant, scopesOf(closed), scopesOf(survivor))) continue;
      if (paths.closeItem(h.storage.sql, h.vectors, d.id, now)) {
        // Same direction as `?infer=full`: the newer fact `supersedes` the closed one; a
        // duplicate is `merged_into` the fact it went into.
        if (d.action === 'merge') paths.linkItems(h.storage.sql, d.id, into, 'merged_into', now);
        else paths.linkItems(h.storage.sql, into, d.id, 'supersedes', now);
        applied++;
      }
    }
    return applied;
  });
}

export function turn(
  h: ModelHandle,
  turnId: string,
): {
  /** The turn, with its 0-based position in its session. */
  turn: TurnRecord & { position: number };
  extraction: ReturnType<typeof paths.turnExtraction>;
} | null {
  const row = h.storage.sql
    .exec<TurnRow & { position: number }>(
      `SELECT id, session_id, role, content, created_at, ${turnTimeColumn(h.storage.sql)} AS valid_from,
              (SELECT COUNT(*) FROM turns e WHERE e.session_id = turns.session_id AND e.seq < turns.seq) AS position
         FROM turns WHERE id = ?`,
      turnId,
    )
    .toArray()[0];
  if (!row) return null;
  return { turn: { ...row }, extraction: paths.turnExtraction(h.storage.sql, turnId) };
}

export function staleItems(
  h: ModelHandle,
  modelId: string,
  limit: number,
): { seq: number; content: string }[] {
  return itemsMissingVectors(h.storage.sql, modelId, limit);
}

/** Writes re-embedded vectors (replacing the other model's) for the given item rows. */
export function storeVectors(
  h: ModelHandle,
  modelId: string,
  vectors: { seq: number; values: Float32Array }[],
): number {
  return atomically(h, () => {
    let n = 0;
    for (const v of vectors) {
      const row = h.storage.sql
        .exec<ItemRow>('SELECT * FROM items WHERE seq = ?', v.seq)
        .toArray()[0];
      if (!row) continue;
      insertVector(
        h.storage.sql,
        h.vectors,
        v.seq,
        { modelId, values: v.values },
        JSON.parse(row.scopes) as string[],
        row.kind,
        typeof row['valid_until'] === 'string',
      );
      n++;
    }
    return n;
  });
}
