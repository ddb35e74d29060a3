-- Background jobs (issue 4): every message sent to the `memory-jobs` queue has a row here, so the
-- state of in-flight work lives in the database, not in any process (spec section 9: in-flight jobs
-- are picked up by workers of a new version).
CREATE TABLE jobs (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  context_id TEXT NOT NULL,
  -- queued | running | retrying | succeeded | dead
  status TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  error TEXT,
  -- The message body as sent, so a dead-lettered job can be re-enqueued exactly.
  body TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  completed_at TEXT
);
CREATE INDEX jobs_context ON jobs (context_id, kind, created_at);

-- One row per pending job that must not be duplicated (e.g. `context_migrate:<context>`): the
-- scheduler inserts it with INSERT OR IGNORE before enqueueing, the job's end deletes it.
CREATE TABLE job_dedup (
  dedup_key TEXT PRIMARY KEY,
  job_id TEXT NOT NULL,
  created_at TEXT NOT NULL
);

-- What the `memory-jobs-dlq` consumer saw: a job that kept failing.
CREATE TABLE dlq_records (
  id TEXT PRIMARY KEY,
  job_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  context_id TEXT NOT NULL,
  error TEXT NOT NULL,
  attempts INTEGER NOT NULL,
  recorded_at TEXT NOT NULL,
  -- Set when a management call re-enqueued it (the new job's id).
  retried_at TEXT,
  retry_job_id TEXT
);
CREATE INDEX dlq_records_context ON dlq_records (context_id, recorded_at);

-- Per Context: when a context_migrate job last succeeded and when one was last dead-lettered.
-- A Context is migration-ready unless its last dead letter is newer than its last success.
CREATE TABLE context_job_health (
  context_id TEXT PRIMARY KEY,
  last_migrate_success_at TEXT,
  last_migrate_dead_at TEXT
);
