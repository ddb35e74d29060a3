import { DOCUMENT_DDL } from '../documents-table.ts';
import type { SchemaMigration } from './types.ts';

/**
 * V2 (additive): uploaded documents, and a validity window on items so that a superseded fact is
 * closed (`valid_until`) instead of deleted. An older binary keeps working against V2: it never
 * reads the new table or columns.
 *
 * It also creates `legacy_document_text`, the first design's whole-text copy of each extracted
 * document. Chunks carry the text, so nothing writes it and V3 retires it: the table exists so
 * that the destructive path of the migration machinery runs from day one (see docs/operations.md).
 */
export const v2: SchemaMigration = {
  version: 2,
  name: 'documents, item validity window',
  up(sql) {
    sql.exec(DOCUMENT_DDL);
    sql.exec('CREATE INDEX documents_status ON documents(status)');
    sql.exec('ALTER TABLE items ADD COLUMN valid_from TEXT');
    sql.exec('ALTER TABLE items ADD COLUMN valid_until TEXT');
    sql.exec(`CREATE TABLE legacy_document_text (
      document_id TEXT PRIMARY KEY,
      text TEXT NOT NULL
    )`);
  },
};
