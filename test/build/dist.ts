import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { AgentManifest } from '../../src/lib/agent-manifest.ts';
import { isAppPage } from '../../src/integrations/site-pages.ts';

/** Helpers for the build-output tests: they read dist/ as `npm run build` left it. */
export const DIST = 'dist';
export const CONTENT = process.env.ENGRAM_CONTENT_DIR ?? 'content';
export const SITE = (process.env.SITE_URL ?? 'https://engram.example').replace(/\/+$/, '');

export function read(path: string): string {
  return readFileSync(join(DIST, path), 'utf8');
}

export function readJson<T = Record<string, unknown>>(path: string): T {
  return JSON.parse(read(path)) as T;
}

export function distFiles(): string[] {
  return readdirSync(DIST, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(DIST, join(e.parentPath, e.name)).split(sep).join('/'));
}

/** Every page of the site: each HTML file except the 404 page and the console, as its URL path. */
export function htmlPages(): string[] {
  return distFiles()
    .filter((f) => f.endsWith('.html') && f !== '404.html' && !isAppPage(f))
    .map((f) => (f === 'index.html' ? '/' : `/${f.replace(/\.html$/, '')}`))
    .sort();
}

export function manifest(): AgentManifest {
  return readJson<AgentManifest>('_agent/manifest.json');
}
