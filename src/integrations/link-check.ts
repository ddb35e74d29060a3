import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Every URL a discovery document names must resolve: to a file in dist/ (already there or about
 * to be written) or to a route the Worker serves itself. The build fails listing every dangling
 * link and the document that names it.
 */

/** Served by the Worker (memory service, MCP, OAuth), never by dist/. */
export const WORKER_ROUTES: readonly RegExp[] = [
  /^\/api\/v1(\/.*)?$/,
  /^\/mcp$/,
  /^\/health$/,
  /^\/\.well-known\/oauth-[a-z-]+$/,
  /^\/oauth\/(authorize|token|register)$/,
];

export function isWorkerRoute(path: string): boolean {
  return WORKER_ROUTES.some((r) => r.test(path));
}

/** dist-relative candidates for a URL path, in the Worker's lookup order. */
export function candidateFiles(path: string): string[] {
  if (path === '/' || path === '') return ['index.html'];
  const clean = path.replace(/^\/+/, '');
  return [clean, `${clean}.html`, `${clean}/index.html`];
}

export interface LinkSource {
  /** URL path of the document, for the error message. */
  document: string;
  urls: readonly string[];
}

export function checkLinks(
  origin: string,
  outDir: string,
  pending: (path: string) => boolean,
  sources: readonly LinkSource[],
): void {
  const broken: string[] = [];
  for (const { document, urls } of sources) {
    for (const raw of urls) {
      let url: URL;
      try {
        url = new URL(raw, `${origin}/`);
      } catch {
        broken.push(`${document}: "${raw}" is not a URL`);
        continue;
      }
      if (url.origin !== origin) continue;
      const path = decodeURIComponent(url.pathname);
      if (isWorkerRoute(path)) continue;
      const found = candidateFiles(path).some(
        (f) => pending(`/${f}`) || existsSync(join(outDir, f)),
      );
      if (!found) broken.push(`${document}: ${url.href} points to nothing in dist/`);
    }
  }
  if (broken.length > 0) {
    throw new Error(`Broken links in discovery documents:\n  ${broken.join('\n  ')}`);
  }
}

/** Every absolute URL inside a JSON value (string leaves starting with http). */
export function urlsInJson(value: unknown): string[] {
  if (typeof value === 'string') return /^https?:\/\//.test(value) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(urlsInJson);
  if (value && typeof value === 'object') return Object.values(value).flatMap(urlsInJson);
  return [];
}

/** Link targets of a markdown link list: `[title](url)`. */
export function urlsInMarkdown(text: string): string[] {
  return [...text.matchAll(/\]\((https?:\/\/[^)\s]+)\)/g)].map((m) => m[1] ?? '');
}

export function urlsInXml(text: string): string[] {
  return [...text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1] ?? '');
}
