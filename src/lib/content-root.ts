/**
 * Folder holding the site content. `content` in the repository; ENGRAM_CONTENT_DIR points the
 * build at another tree (test fixtures) without touching the real one.
 */
export const CONTENT_ROOT = (process.env.ENGRAM_CONTENT_DIR ?? 'content').replace(/\/+$/, '');
