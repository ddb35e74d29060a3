-- Scheduled backups to R2, opt-in per Context (issue 16): every `backup_every_hours` the
-- scheduler enqueues a context_backup job that writes backups/{context}/{timestamp}.ndjson and
-- keeps the newest `backup_keep`. NULL hours = no scheduled backups. `backup_last_ms` is when the
-- last one was enqueued (epoch ms), so a slow backup is not enqueued again every tick.
ALTER TABLE contexts ADD COLUMN backup_every_hours INTEGER;
ALTER TABLE contexts ADD COLUMN backup_keep INTEGER;
ALTER TABLE contexts ADD COLUMN backup_last_ms INTEGER;
