import { readFileSync } from 'node:fs';
import { buildOpenApi } from '../integrations/openapi.ts';
import type { OpenApiDocument } from './openapi-types.ts';
import { operationsOf, type ApiSource, type OperationView } from './operations.ts';

/**
 * Where the build keeps the memory API's OpenAPI document: written at `astro:config:setup` by
 * src/integrations/memory-openapi.ts from the real app, read here by the reference pages.
 * `.astro/` is Astro's own cache folder, ignored by git.
 */
export const MEMORY_OPENAPI_FILE = '.astro/api-reference/memory-openapi.json';

export function apiSources(site: string): ApiSource[] {
  const memory = JSON.parse(readFileSync(MEMORY_OPENAPI_FILE, 'utf8')) as OpenApiDocument;
  const origin = buildOpenApi(new URL(site).origin) as unknown as OpenApiDocument;
  return [
    { api: 'memory', title: 'Memory API', doc: memory },
    { api: 'site', title: 'Website API', doc: origin },
  ];
}

let cached: OperationView[] | undefined;

/** Every operation of both documents, memory API first, each in its document's path order. */
export function allOperations(site: string): OperationView[] {
  cached ??= apiSources(site).flatMap(operationsOf);
  return cached;
}
