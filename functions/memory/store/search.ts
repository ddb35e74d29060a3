import { lensMatches } from '../scopes/lens.ts';
import { entitiesOf, itemsOfEntity } from './entities.ts';
import { ftsSearch } from './fts.ts';
import { toRecord, type ItemRow } from './items.ts';
import type { SearchHit, SearchRanks, SearchRequest } from './types.ts';
import { hasValidity } from './validity.ts';
import { vectorSearch, type VectorCache } from './vectors.ts';

/** Reciprocal Rank Fusion constant (Cormack et al.): 60. */
export const RRF_K = 60;
/** How many of the fused top hits seed the entity-graph expansion. */
const GRAPH_SEEDS = 5;
/** How many one-hop items are expanded again for the second hop. */
const HOP2_SOURCES = 10;
/** Upper bound on FTS rows scanned while filtering by lens, so one query stays bounded. */
const MAX_FTS_SCAN = 5000;

interface Ranked {
  seq: number;
  score: number;
}

type Accept = (scopes: string[], kind: string, closed: boolean) => boolean;

/**
 * The filter every list of a search applies: kinds, lens, and (unless asked for) no superseded
 * item, so a closed fact never crowds a current one out of the top `k`.
 */
function accepts(req: SearchRequest): Accept {
  const kinds = req.kinds ? new Set<string>(req.kinds) : null;
  const history = req.includeSuperseded ?? false;
  return (scopes, kind, closed) =>
    (kinds === null || kinds.has(kind)) && (history || !closed) && lensMatches(req.lens, scopes);
}

/** What a list needs of an item to filter it, read by `seq`. */
type Probe = (seq: number) => { scopes: string[]; kind: string; closed: boolean } | null;

function probe(sql: SqlStorage): Probe {
  // `valid_until` exists from schema V2 on; below it nothing can be closed.
  const closed = hasValidity(sql) ? 'valid_until IS NOT NULL' : '0';
  const query = `SELECT scopes, kind, ${closed} AS closed FROM items WHERE seq = ?`;
  return (seq) => {
    const row = sql.exec<{ scopes: string; kind: string; closed: number }>(query, seq).toArray()[0];
    return row
      ? { scopes: JSON.parse(row.scopes) as string[], kind: row.kind, closed: row.closed === 1 }
      : null;
  };
}

function bm25Ranked(
  sql: SqlStorage,
  req: SearchRequest,
  accept: Accept,
  read: Probe,
  limit: number,
): Ranked[] {
  const out: Ranked[] = [];
  let scanned = 0;
  for (const hit of ftsSearch(sql, req.text)) {
    if (out.length >= limit || ++scanned > MAX_FTS_SCAN) break;
    const item = read(hit.seq);
    if (item && accept(item.scopes, item.kind, item.closed)) out.push(hit);
  }
  return out;
}

function vectorRanked(
  sql: SqlStorage,
  cache: VectorCache,
  req: SearchRequest,
  accept: Accept,
  limit: number,
): Ranked[] {
  if (!req.vector) return [];
  return vectorSearch(sql, cache, req.vector, limit, accept);
}

function rankMap(list: Ranked[]): Map<number, number> {
  return new Map(list.map((r, i) => [r.seq, i + 1]));
}

function fuse(lists: Map<number, number>[]): Ranked[] {
  const scores = new Map<number, number>();
  for (const ranks of lists) {
    for (const [seq, rank] of ranks) scores.set(seq, (scores.get(seq) ?? 0) + 1 / (RRF_K + rank));
  }
  return [...scores]
    .map(([seq, score]) => ({ seq, score }))
    .sort((a, b) => b.score - a.score || a.seq - b.seq);
}

/**
 * Graph expansion: every entity of a seed (the top fused hits) reaches the other items linked to
 * it (one hop), and the entities of the best-connected of those reach further (two hops, half
 * weight). An edge counts by the entity's rarity (idf), so a name shared by two facts says more
 * than a word shared by hundreds, and by the seed's rank.
 */
function graphRanked(
  sql: SqlStorage,
  accept: Accept,
  read: Probe,
  fused: Ranked[],
  limit: number,
): Ranked[] {
  const total = sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM items').one().n;
  const strength = new Map<number, number>();
  const expanded = new Set<number>();
  const expand = (from: number, weight: number): void => {
    for (const entityId of entitiesOf(sql, from)) {
      const linked = itemsOfEntity(sql, entityId);
      if (linked === null || linked.length < 2) continue;
      const idf = Math.log(1 + total / linked.length);
      for (const seq of linked) {
        if (seq !== from) strength.set(seq, (strength.get(seq) ?? 0) + weight * idf);
      }
    }
    expanded.add(from);
  };
  fused.slice(0, GRAPH_SEEDS).forEach((seed, i) => expand(seed.seq, 1 / (i + 1)));
  const hop1 = [...strength]
    .filter(([seq]) => !expanded.has(seq))
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, HOP2_SOURCES);
  hop1.forEach(([seq], i) => expand(seq, 0.5 / (i + 1)));
  const out: Ranked[] = [];
  for (const [seq, score] of [...strength].sort((a, b) => b[1] - a[1] || a[0] - b[0])) {
    if (out.length >= limit) break;
    const item = read(seq);
    if (item && accept(item.scopes, item.kind, item.closed)) out.push({ seq, score });
  }
  return out;
}

function hydrate(
  sql: SqlStorage,
  ranked: Ranked[],
  ranks?: (seq: number) => SearchRanks,
): SearchHit[] {
  const hits: SearchHit[] = [];
  for (const r of ranked) {
    const row = sql.exec<ItemRow>('SELECT * FROM items WHERE seq = ?', r.seq).toArray()[0];
    if (!row) continue;
    const rec = toRecord(row);
    const hit: SearchHit = {
      id: rec.id,
      kind: rec.kind,
      content: rec.content,
      score: r.score,
      scopes: rec.scopes,
      metadata: rec.metadata,
      created_at: rec.created_at,
    };
    if (rec.valid_until) hit.valid_until = rec.valid_until;
    if (ranks) hit.ranks = ranks(r.seq);
    hits.push(hit);
  }
  return hits;
}

/** Runs one query in the requested mode; results are lens-filtered and at most `k`. */
export function search(sql: SqlStorage, cache: VectorCache, req: SearchRequest): SearchHit[] {
  const k = req.k;
  const accept = accepts(req);
  if (req.mode === 'vector') return hydrate(sql, vectorRanked(sql, cache, req, accept, k));
  const read = probe(sql);
  if (req.mode === 'bm25') return hydrate(sql, bm25Ranked(sql, req, accept, read, k));
  const depth = Math.max(k * 3, 30);
  const bm25 = rankMap(bm25Ranked(sql, req, accept, read, depth));
  const vector = rankMap(vectorRanked(sql, cache, req, accept, depth));
  const fused = fuse([bm25, vector]);
  if (req.mode === 'hybrid') {
    return hydrate(sql, fused.slice(0, k), (seq) => ({
      bm25: bm25.get(seq) ?? null,
      vector: vector.get(seq) ?? null,
    }));
  }
  const graph = rankMap(graphRanked(sql, accept, read, fused, depth));
  const reranked = fuse([bm25, vector, graph]);
  return hydrate(sql, reranked.slice(0, k), (seq) => ({
    bm25: bm25.get(seq) ?? null,
    vector: vector.get(seq) ?? null,
    graph: graph.get(seq) ?? null,
  }));
}
