-- Control plane: the registry of Contexts. Later migrations add principals, keys and jobs.
CREATE TABLE contexts (
  id TEXT PRIMARY KEY,
  created_at TEXT NOT NULL
);
