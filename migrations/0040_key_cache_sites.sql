-- Which Context objects cache which key (issue 12, docs/hot-path.md). A Context's ContextStore
-- answers auth from its own cache; when it first reads a key from D1 it records itself here in the
-- same batch, so that revoking the key, deleting its principal or changing its grants can tell
-- every object that holds a copy (an unbound management key may be cached in many). Rows go when
-- the Context is deleted; a stale row costs one harmless notification.
CREATE TABLE key_cache_sites (
  key_id TEXT NOT NULL,
  context_id TEXT NOT NULL,
  PRIMARY KEY (key_id, context_id)
);
CREATE INDEX key_cache_sites_context ON key_cache_sites (context_id);
