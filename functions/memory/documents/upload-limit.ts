/** The deployment default when `MAX_UPLOAD_BYTES` is unset or unreadable: 50 MB. */
export const DEFAULT_MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
/** The most a Context may allow per file: 1 GiB (R2 single-put territory, and a sane ceiling). */
export const MAX_CONTEXT_UPLOAD_BYTES = 1024 * 1024 * 1024;

/**
 * The effective per-file limit: the Context's own `max_upload_bytes`, else the deployment's
 * `MAX_UPLOAD_BYTES`, else 50 MB. Kept apart from the upload path so the Context view can show
 * the same number that uploads enforce.
 */
export function uploadLimit(
  context: { max_upload_bytes?: number | null },
  configured: string | undefined,
): number {
  if (typeof context.max_upload_bytes === 'number' && context.max_upload_bytes > 0)
    return context.max_upload_bytes;
  const n = Number.parseInt(configured ?? '', 10);
  return Number.isSafeInteger(n) && n > 0 ? n : DEFAULT_MAX_UPLOAD_BYTES;
}
