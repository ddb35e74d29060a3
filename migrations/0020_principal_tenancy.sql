-- Tenancy of the control plane (issue 15, docs/security.md): a principal belongs to the Context
-- whose bound management key created it (`owner_context_id`), or to the deployment (NULL) when an
-- unbound (root) management key created it. Names and external ids are unique per owner, so a
-- Context-bound management key can neither see nor collide with another tenant's principals.
-- SQLite cannot drop a column's UNIQUE constraint in place, hence the rebuild; foreign keys from
-- `api_keys` are checked at commit, when the rebuilt table holds every id again.
PRAGMA defer_foreign_keys = on;

CREATE TABLE principals_next (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('agent', 'supervisor', 'management')),
  display_name TEXT NOT NULL,
  external_id TEXT,
  owner_context_id TEXT,
  created_at TEXT NOT NULL
);

-- Principals created before this migration belong to the deployment: only a root key created them
-- or could see every one of them anyway.
INSERT INTO principals_next (id, kind, display_name, external_id, owner_context_id, created_at)
  SELECT id, kind, display_name, external_id, NULL, created_at FROM principals;

DROP TABLE principals;
ALTER TABLE principals_next RENAME TO principals;

CREATE UNIQUE INDEX principals_owner_name ON principals (COALESCE(owner_context_id, ''), display_name);
CREATE UNIQUE INDEX principals_owner_external_id ON principals (COALESCE(owner_context_id, ''), external_id);

-- Keys: `context_id` becomes nullable for unbound (root) management keys, which only a root key
-- may issue and only for a management principal (functions/memory/operations/keys.ts), so that
-- day-to-day administration need not use the bootstrap secret.
CREATE TABLE api_keys_next (
  id TEXT PRIMARY KEY,
  principal_id TEXT NOT NULL REFERENCES principals (id),
  context_id TEXT,
  hash TEXT NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  grants TEXT NOT NULL,
  scope_floor TEXT,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
INSERT INTO api_keys_next (id, principal_id, context_id, hash, prefix, grants, scope_floor, created_at, revoked_at)
  SELECT id, principal_id, context_id, hash, prefix, grants, scope_floor, created_at, revoked_at FROM api_keys;
DROP TABLE api_keys;
ALTER TABLE api_keys_next RENAME TO api_keys;
CREATE INDEX api_keys_context ON api_keys (context_id);
CREATE INDEX api_keys_principal ON api_keys (principal_id);

PRAGMA defer_foreign_keys = off;
