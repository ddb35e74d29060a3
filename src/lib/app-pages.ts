/**
 * Pages that are an application, not content: the memory console (`/console`, docs/console.md)
 * renders nothing until the reader signs in, so it has no markdown twin, stays out of llms.txt,
 * the sitemaps and the search index, and its `Link` header names no twin. One definition for the
 * build (src/integrations/site-pages.ts) and the Worker (functions/site/page-routes.ts).
 */

/** An HTML file of dist/, relative (`console.html`, `console/facts.html`). */
export function isAppPage(htmlFile: string): boolean {
  return htmlFile === 'console.html' || htmlFile.startsWith('console/');
}

/** A request path (`/console`, `/console/facts`). */
export function isAppPath(path: string): boolean {
  return path === '/console' || path.startsWith('/console/');
}
