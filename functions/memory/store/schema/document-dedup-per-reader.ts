import type { SchemaMigration } from './types.ts';

/**
 * Documents may share bytes (additive in effect; rebuilds `documents`). V2 made `sha256` UNIQUE,
 * so an upload always collapsed into whichever document already held the bytes, even one in
 * scopes the uploader may not read. De-duplication now happens among the uploader's readable
 * documents only (store/documents-table.ts), so two rows may hold the same hash; a plain index
 * keeps the lookup fast. SQLite cannot drop an inline UNIQUE, so the table is rebuilt from its own
 * stored definition (which includes any column added since V2), rows and indexes carried over.
 */
export const documentDedupPerReader: SchemaMigration = {
  version: 6,
  name: 'documents: sha256 no longer unique',
  up(sql) {
    const table = sql
      .exec<{
        sql: string;
      }>(`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'documents'`)
      .one().sql;
    const rebuilt = table
      .replace(/^CREATE TABLE\s+"?documents"?/i, 'CREATE TABLE documents_rebuilt')
      .replace(/(\bsha256\s+TEXT\s+NOT\s+NULL)\s+UNIQUE/i, '$1');
    if (rebuilt === table || /\bsha256\b[^,]*\bUNIQUE\b/i.test(rebuilt)) {
      throw new Error('documents: unexpected table definition; sha256 UNIQUE not found');
    }
    const indexes = sql
      .exec<{ sql: string }>(
        `SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'documents' AND sql IS NOT NULL`,
      )
      .toArray()
      .map((r) => r.sql);
    sql.exec(rebuilt);
    sql.exec('INSERT INTO documents_rebuilt SELECT * FROM documents');
    sql.exec('DROP TABLE documents');
    sql.exec('ALTER TABLE documents_rebuilt RENAME TO documents');
    for (const index of indexes) sql.exec(index);
    sql.exec('CREATE INDEX documents_sha256 ON documents(sha256)');
  },
};
