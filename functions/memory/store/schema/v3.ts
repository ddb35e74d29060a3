import type { SchemaMigration } from './types.ts';

/**
 * V3 (destructive): drops `legacy_document_text`, retired by V2's successor design (chunks carry
 * the text). After V3 an older binary must not run against the Context; downgrading means
 * restoring the Context from its NDJSON export (docs/operations.md).
 */
export const v3: SchemaMigration = {
  version: 3,
  name: 'drop legacy_document_text',
  up(sql) {
    sql.exec('DROP TABLE IF EXISTS legacy_document_text');
  },
};
