import type { SchemaMigration } from './types.ts';

/**
 * Turns learn when they were said (additive): `valid_from`, ISO 8601, given on append or the
 * append time. Existing turns take their `created_at`. Facts extracted from a turn inherit it, so
 * a relative date in the turn ("last Saturday") resolves against the day it was said, not the
 * day the extraction job ran.
 */
export const turnTime: SchemaMigration = {
  version: 9,
  name: 'turn valid_from',
  up(sql) {
    sql.exec('ALTER TABLE turns ADD COLUMN valid_from TEXT');
    sql.exec('UPDATE turns SET valid_from = created_at');
  },
};
