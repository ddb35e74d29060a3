-- Control plane of the memory service (D1). See docs/storage-schema.md for every column.
-- Per-Context data lives in each Context's own SQLite Durable Object, not here.

-- The registry of Contexts.
CREATE TABLE contexts (
  id TEXT PRIMARY KEY,
  namespace TEXT,
  token_limit INTEGER,
  enforcement_blocked INTEGER NOT NULL DEFAULT 0,
  -- Mirror of the store's `_meta.schema_version`, kept for the scheduler's "behind" scan.
  schema_version INTEGER NOT NULL DEFAULT 0,
  -- Model tokens consumed by LLM-backed paths (soft `token_limit` accounting).
  usage_tokens INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX contexts_schema_version ON contexts (schema_version);

-- Who holds keys: agents, supervisors and management principals.
CREATE TABLE principals (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('agent', 'supervisor', 'management')),
  display_name TEXT NOT NULL UNIQUE,
  external_id TEXT UNIQUE,
  created_at TEXT NOT NULL
);

-- API keys: only the SHA-256 hash of the secret is stored.
CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  principal_id TEXT NOT NULL REFERENCES principals (id),
  context_id TEXT NOT NULL,
  hash TEXT NOT NULL UNIQUE,
  -- First characters of the secret (`mem_agent_ab12`), to recognise a key in listings.
  prefix TEXT NOT NULL,
  -- JSON: {"memory:read": [scope...], "memory:write": [...], "memory:forget": [...]}
  grants TEXT NOT NULL,
  scope_floor TEXT,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE INDEX api_keys_context ON api_keys (context_id);
CREATE INDEX api_keys_principal ON api_keys (principal_id);

-- Fixed one-minute rate-limit windows per (key, Context) bucket.
CREATE TABLE rate_limit_windows (
  bucket TEXT NOT NULL,
  window_start INTEGER NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (bucket, window_start)
);
