import type { NeighbourTurn, SearchHit } from './types.ts';

/** The filter of the search the hits came from: a neighbour is shown only if the hit could be. */
type Admits = (scopes: string[], kind: string, closed: boolean) => boolean;

interface NeighbourRow {
  id: string;
  content: string;
  position: number;
  valid_from: string | null;
  created_at: string;
  scopes: string;
  kind: string;
  closed: number;
  [column: string]: SqlStorageValue;
}

/**
 * Each hit with the turns around it in its session (`span` before and after, by position), for a
 * caller that wants the question with its answer, or the answer with what it answers: in a
 * conversation they sit in adjacent turns, and a query often finds only one of the two. A
 * neighbour passes the search's own filter (lens, kinds, superseded), so it never shows a
 * caller a turn that the search itself would have withheld. Hits without a session get `[]`.
 */
export function withNeighbours(
  sql: SqlStorage,
  hits: SearchHit[],
  span: number,
  admits: Admits,
): SearchHit[] {
  if (span <= 0) return hits;
  return hits.map((hit) => {
    // A hit has a session only where the schema has `session_label` (and `valid_until`).
    if (hit.session === null || hit.position === null) return { ...hit, neighbours: [] };
    const rows = sql.exec<NeighbourRow>(
      `SELECT id, content, position, valid_from, created_at, scopes, kind,
              valid_until IS NOT NULL AS closed
         FROM items
        WHERE session_label = ? AND position BETWEEN ? AND ? AND id <> ?
        ORDER BY position, seq`,
      hit.session,
      hit.position - span,
      hit.position + span,
      hit.id,
    );
    const neighbours: NeighbourTurn[] = [];
    for (const row of rows) {
      if (!admits(JSON.parse(row.scopes) as string[], row.kind, row.closed === 1)) continue;
      neighbours.push({
        id: row.id,
        content: row.content,
        position: row.position,
        valid_from: row.valid_from ?? row.created_at,
      });
    }
    return { ...hit, neighbours };
  });
}
