-- Deleting a Context leaves files in R2 that no registry row points at any more (issue 16):
-- its documents' files under documents/{context}/ and its scheduled backups under
-- backups/{context}/. DELETE /contexts/{id} records one row here; the scheduler deletes the
-- documents' files at its next tick and the backups once `backups_after_ms` has passed (a
-- deleted Context stays restorable from its backups until then). Only objects written before
-- `deleted_at_ms` are deleted, so a Context created again under the same id keeps its own.
CREATE TABLE context_purges (
  context_id TEXT NOT NULL,
  deleted_at_ms INTEGER NOT NULL,
  files_done INTEGER NOT NULL DEFAULT 0,
  backups_after_ms INTEGER NOT NULL,
  PRIMARY KEY (context_id, deleted_at_ms)
);
CREATE INDEX context_purges_due ON context_purges (files_done, backups_after_ms);
