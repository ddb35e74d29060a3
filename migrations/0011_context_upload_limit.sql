-- Per-Context upload limit in bytes (issue 4). NULL means the deployment's MAX_UPLOAD_BYTES
-- (50 MB by default).
ALTER TABLE contexts ADD COLUMN max_upload_bytes INTEGER;
