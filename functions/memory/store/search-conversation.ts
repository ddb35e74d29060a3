import type { Scored } from '../retrieval/fusion.ts';
import { EXCHANGE_REACH, withConversation, type Turn } from '../retrieval/conversation.ts';
import { admitted, type Accept, type Probe } from './search-probe.ts';

// A search's conversation structure over the Context's SQLite: the turns around its best hits,
// read once, for the neighbour and session scores of retrieval/conversation.ts.

/**
 * The admitted turns within EXCHANGE_REACH positions of each of `seqs` (retrieval/conversation.ts
 * `turnsAround`): one statement over the hits' places (`items_session_position`), then one read of
 * the rows not yet probed, for the lens.
 */
function turnsAround(
  sql: SqlStorage,
  seqs: readonly number[],
  accept: Accept,
  read: Probe,
): Turn[] {
  read.prefetch(seqs);
  const places = seqs.flatMap((seq) => {
    const item = read(seq);
    return item && item.session !== null && item.position !== null
      ? [[item.session, item.position]]
      : [];
  });
  if (places.length === 0) return [];
  const rows = sql
    .exec<{ seq: number; session: string; position: number; asks: number }>(
      `SELECT DISTINCT i.seq, i.session_label AS session, i.position,
              substr(rtrim(i.content), -1) = '?' AS asks
       FROM json_each(?) AS h
       JOIN items AS i ON i.session_label = h.value ->> 0
        AND i.position BETWEEN (h.value ->> 1) - ? AND (h.value ->> 1) + ?`,
      JSON.stringify(places),
      EXCHANGE_REACH,
      EXCHANGE_REACH,
    )
    .toArray();
  read.prefetch(rows.map((r) => r.seq));
  return rows
    .filter((r) => admitted(read, accept, r.seq))
    .map((r) => ({ seq: r.seq, session: r.session, position: r.position, asks: r.asks === 1 }));
}

/** Neighbour turns and session scores (retrieval/conversation.ts) over this Context's items. */
export function conversationRanked(
  sql: SqlStorage,
  fused: Scored[],
  accept: Accept,
  read: Probe,
  weights: { neighbour: number; session: number },
): Scored[] {
  if (weights.neighbour <= 0 && weights.session <= 0) return fused;
  return withConversation(fused, weights, {
    sessionOf: (seq) => read(seq)?.session ?? null,
    turnsAround: (seqs) => turnsAround(sql, seqs, accept, read),
  });
}
