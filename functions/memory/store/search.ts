import { lensMatches } from '../scopes/lens.ts';
import { entitiesOf, neighbours } from './entities.ts';
import { ftsSearch } from './fts.ts';
import { toRecord, type ItemRow } from './items.ts';
import type { SearchHit, SearchRanks, SearchRequest } from './types.ts';
import { vectorSearch, type VectorCache } from './vectors.ts';

/** Reciprocal Rank Fusion constant (Cormack et al.): 60. */
export const RRF_K = 60;
/** How many of the fused top hits seed the entity-graph expansion. */
const GRAPH_SEEDS = 5;
/** Upper bound on FTS rows scanned while filtering by lens, so one query stays bounded. */
const MAX_FTS_SCAN = 5000;

interface Ranked {
  seq: number;
  score: number;
}

function accepts(req: SearchRequest): (scopes: string[], kind: string) => boolean {
  const kinds = req.kinds ? new Set<string>(req.kinds) : null;
  return (scopes, kind) => (kinds === null || kinds.has(kind)) && lensMatches(req.lens, scopes);
}

function bm25Ranked(sql: SqlStorage, req: SearchRequest, limit: number): Ranked[] {
  const accept = accepts(req);
  const out: Ranked[] = [];
  let scanned = 0;
  for (const hit of ftsSearch(sql, req.text)) {
    if (out.length >= limit || ++scanned > MAX_FTS_SCAN) break;
    const row = sql
      .exec<{ scopes: string; kind: string }>(
        'SELECT scopes, kind FROM items WHERE seq = ?',
        hit.seq,
      )
      .toArray()[0];
    if (row && accept(JSON.parse(row.scopes) as string[], row.kind)) out.push(hit);
  }
  return out;
}

function vectorRanked(
  sql: SqlStorage,
  cache: VectorCache,
  req: SearchRequest,
  limit: number,
): Ranked[] {
  if (!req.vector) return [];
  return vectorSearch(sql, cache, req.vector, limit, accepts(req));
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
 * Graph expansion: entities of the top fused hits reach other items in one hop (and, at half
 * weight, two hops); items are ranked by how strongly they are connected.
 */
function graphRanked(
  sql: SqlStorage,
  req: SearchRequest,
  fused: Ranked[],
  limit: number,
): Ranked[] {
  const seeds = fused.slice(0, GRAPH_SEEDS).map((r) => r.seq);
  const seedSet = new Set(seeds);
  const strength = new Map<number, number>();
  const seedEntities = [...new Set(seeds.flatMap((s) => entitiesOf(sql, s)))];
  const hop1 = neighbours(sql, seedEntities);
  for (const [seq, shared] of hop1) if (!seedSet.has(seq)) strength.set(seq, shared);
  const hop1Top = [...strength]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 10)
    .map(([seq]) => seq);
  const hop2Entities = [...new Set(hop1Top.flatMap((s) => entitiesOf(sql, s)))].filter(
    (e) => !seedEntities.includes(e),
  );
  for (const [seq, shared] of neighbours(sql, hop2Entities)) {
    if (seedSet.has(seq)) continue;
    strength.set(seq, (strength.get(seq) ?? 0) + shared * 0.5);
  }
  const accept = accepts(req);
  const out: Ranked[] = [];
  for (const [seq, score] of [...strength].sort((a, b) => b[1] - a[1] || a[0] - b[0])) {
    if (out.length >= limit) break;
    const row = sql
      .exec<{ scopes: string; kind: string }>('SELECT scopes, kind FROM items WHERE seq = ?', seq)
      .toArray()[0];
    if (row && accept(JSON.parse(row.scopes) as string[], row.kind)) out.push({ seq, score });
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
    if (ranks) hit.ranks = ranks(r.seq);
    hits.push(hit);
  }
  return hits;
}

/** Runs one query in the requested mode; results are lens-filtered and at most `k`. */
export function search(sql: SqlStorage, cache: VectorCache, req: SearchRequest): SearchHit[] {
  const k = req.k;
  if (req.mode === 'bm25') return hydrate(sql, bm25Ranked(sql, req, k));
  if (req.mode === 'vector') return hydrate(sql, vectorRanked(sql, cache, req, k));
  const depth = Math.max(k * 3, 30);
  const bm25 = rankMap(bm25Ranked(sql, req, depth));
  const vector = rankMap(vectorRanked(sql, cache, req, depth));
  const fused = fuse([bm25, vector]);
  if (req.mode === 'hybrid') {
    return hydrate(sql, fused.slice(0, k), (seq) => ({
      bm25: bm25.get(seq) ?? null,
      vector: vector.get(seq) ?? null,
    }));
  }
  const graph = rankMap(graphRanked(sql, req, fused, depth));
  const reranked = fuse([bm25, vector, graph]);
  return hydrate(sql, reranked.slice(0, k), (seq) => ({
    bm25: bm25.get(seq) ?? null,
    vector: vector.get(seq) ?? null,
    graph: graph.get(seq) ?? null,
  }));
}
