import type { SchemaMigration } from './types.ts';

/**
 * Turns learn when they were said (additive): `valid_from`, ISO 8601, given on append or the
 * append time. Existing turns take their `created_at`. Facts extracted from a turn inherit it, so
 * a relative date in the turn ("last Saturday") resolves against the day it was said, not the
 * day the extraction job ran.
 *
 * The existing turns are filled in pieces (runner.ts `migrateInPieces`), by `seq`: one `UPDATE` of
 * every turn rewrote the whole table in one transaction, which at a million turns is past a
 * request's CPU limit. Readers need nothing of the fill: they read `COALESCE(valid_from,
 * created_at)` (sessions.ts `turnTimeColumn`), and a turn appended meanwhile carries its own.
 */
export const turnTime: SchemaMigration = {
  version: 9,
  name: 'turn valid_from',
  up(sql) {
    sql.exec('ALTER TABLE turns ADD COLUMN valid_from TEXT');
  },
  fill(sql, after, rows) {
    const from = after === '' ? 0 : Number(after);
    const piece = sql
      .exec<{ n: number; last: number | null }>(
        'SELECT COUNT(*) AS n, MAX(seq) AS last FROM (SELECT seq FROM turns WHERE seq > ? ORDER BY seq LIMIT ?)',
        from,
        rows,
      )
      .one();
    if (piece.last === null) return null;
    sql.exec(
      'UPDATE turns SET valid_from = created_at WHERE seq > ? AND seq <= ? AND valid_from IS NULL',
      from,
      piece.last,
    );
    return piece.n < rows ? null : String(piece.last);
  },
};
