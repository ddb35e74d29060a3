import { env } from 'cloudflare:test';
import { exports } from 'cloudflare:workers';
import type { AgentManifest, PageEntry } from '../../../src/lib/agent-manifest.ts';
import { MANIFEST_PATH } from '../../../src/lib/agent-manifest.ts';
export { OPERATIONS } from '../../support/origin-operations.ts';

/** Helpers for the conformance suite: the real Worker over the real dist/ (run `npm run build`). */
export const BASE = 'https://engram.example';

export function get(path: string, init: RequestInit = {}): Promise<Response> {
  return exports.default.fetch(`${BASE}${path}`, init);
}

export async function getJson<T = Record<string, unknown>>(path: string): Promise<T> {
  const res = await get(path);
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
  return (await res.json()) as T;
}

let manifest: Promise<AgentManifest> | undefined;

/** The build's manifest, read the way the Worker reads it (it is not public). */
export function pages(): Promise<PageEntry[]> {
  manifest ??= env.ASSETS.fetch(`${BASE}${MANIFEST_PATH}`).then(async (res) => {
    if (!res.ok) throw new Error('dist/_agent/manifest.json is missing: run `npm run build`');
    return (await res.json()) as AgentManifest;
  });
  return manifest.then((m) => Object.values(m.pages));
}

export function depth(path: string): number {
  return path === '/' ? 0 : path.split('/').length - 1;
}

/** A page at the given URL depth (1..4), e.g. 4 -> /learn/<course>/<module>/<lesson>. */
/** The first page `d` segments deep, optionally under a path prefix such as `/learn/`. */
export async function pageAtDepth(d: number, under = '/'): Promise<PageEntry> {
  const found = (await pages()).find((p) => depth(p.path) === d && p.path.startsWith(under));
  if (!found) throw new Error(`the built site has no page at depth ${d}`);
  return found;
}

export interface OpenApiOperation {
  operationId: string;
  parameters?: { name: string; in: string; required?: boolean; schema?: { pattern?: string } }[];
  requestBody?: unknown;
  security?: unknown[];
  responses: Record<string, { content?: Record<string, unknown> }>;
}

export interface OpenApiDocument {
  openapi: string;
  info: { version: string };
  security?: unknown[];
  paths: Record<string, Record<string, OpenApiOperation>>;
}

export function operations(doc: OpenApiDocument): [string, string, OpenApiOperation][] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]): [string, string, OpenApiOperation] => [
      path,
      method,
      op,
    ]),
  );
}

export const MD = 'text/markdown; charset=utf-8';
