/**
 * Maps content collection ids (file paths without extension) to page paths, so the pages and the
 * build integration agree on every URL. `index` files name their folder.
 */

/** `index` -> ``, `api/index` -> `api`, `api/facts` -> `api/facts`. */
export function stripIndex(id: string): string {
  return id.replace(/(^|\/)index$/, '');
}

/** content/docs id -> page path: `index` -> `/docs`, `api/facts` -> `/docs/api/facts`. */
export function docPath(id: string): string {
  const rest = stripIndex(id);
  return rest === '' ? '/docs' : `/docs/${rest}`;
}

/** content/learn id -> page path: `c/index` -> `/learn/c`, `c/m/l` -> `/learn/c/m/l`. */
export function learnPath(id: string): string {
  const rest = stripIndex(id);
  return rest === '' ? '/learn' : `/learn/${rest}`;
}

/** Depth of a learn entry below /learn: 1 course, 2 module, 3 lesson. */
export function learnDepth(id: string): number {
  return stripIndex(id).split('/').filter(Boolean).length;
}

/** The `/learn/...` rest parameter for getStaticPaths. */
export function learnParam(id: string): string {
  return stripIndex(id);
}

/** A content/pages id is its slug. */
export function pagePath(id: string): string {
  return `/${id}`;
}

export function blogPath(id: string): string {
  return `/blog/${id}`;
}
