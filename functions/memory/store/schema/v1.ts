import type { SchemaMigration } from './types.ts';

/**
 * V1: memory items (facts now; document chunks and reflections reuse the same rows), their FTS5
 * index, vectors, entities and edges, sessions with turns, and idempotency records.
 */
export const v1: SchemaMigration = {
  version: 1,
  name: 'items, fts, vectors, entities, sessions, idempotency',
  up(sql) {
    sql.exec(`CREATE TABLE items (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      kind TEXT NOT NULL,
      content TEXT NOT NULL,
      scopes TEXT NOT NULL DEFAULT '[]',
      metadata TEXT,
      session_id TEXT,
      source_id TEXT,
      created_at TEXT NOT NULL
    )`);
    sql.exec('CREATE INDEX items_kind ON items(kind, seq)');
    sql.exec('CREATE INDEX items_source ON items(source_id)');
    sql.exec(`CREATE VIRTUAL TABLE items_fts USING fts5(content, tokenize = 'porter unicode61')`);
    sql.exec(`CREATE TABLE item_vectors (
      item_seq INTEGER PRIMARY KEY,
      model_id TEXT NOT NULL,
      dims INTEGER NOT NULL,
      vector BLOB NOT NULL
    )`);
    sql.exec('CREATE INDEX item_vectors_model ON item_vectors(model_id)');
    sql.exec(`CREATE TABLE entities (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      name TEXT NOT NULL UNIQUE,
      display TEXT NOT NULL
    )`);
    sql.exec(`CREATE TABLE item_entities (
      item_seq INTEGER NOT NULL,
      entity_id INTEGER NOT NULL,
      PRIMARY KEY (item_seq, entity_id)
    ) WITHOUT ROWID`);
    sql.exec('CREATE INDEX item_entities_entity ON item_entities(entity_id, item_seq)');
    sql.exec(`CREATE TABLE sessions (
      id TEXT PRIMARY KEY,
      metadata TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`);
    sql.exec(`CREATE TABLE turns (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      session_id TEXT NOT NULL,
      role TEXT NOT NULL,
      content TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`);
    sql.exec('CREATE INDEX turns_session ON turns(session_id, seq)');
    sql.exec(`CREATE TABLE idempotency (
      principal_id TEXT NOT NULL,
      key TEXT NOT NULL,
      request_hash TEXT NOT NULL,
      state TEXT NOT NULL,
      status INTEGER,
      body TEXT,
      created_at INTEGER NOT NULL,
      PRIMARY KEY (principal_id, key)
    ) WITHOUT ROWID`);
  },
};
