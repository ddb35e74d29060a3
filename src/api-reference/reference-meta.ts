import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitLastModified, newest } from '../lib/git-lastmod.ts';
import type { ApiSource } from './operations.ts';

/** The source each API's reference pages are generated from. */
const SOURCES: Record<ApiSource['api'], string> = {
  memory: 'functions/memory/routes',
  site: 'src/integrations/openapi.ts',
};

let routeFiles: Map<string, string> | undefined;

/** operationId -> the route file that declares it (`operationId: 'x'`), read once. */
function memoryRouteFiles(): Map<string, string> {
  if (routeFiles) return routeFiles;
  routeFiles = new Map();
  const dir = SOURCES.memory;
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.ts') || name.endsWith('.test.ts')) continue;
    const file = join(dir, name);
    for (const m of readFileSync(file, 'utf8').matchAll(/operationId: '([A-Za-z]+)'/g)) {
      if (m[1]) routeFiles.set(m[1], file);
    }
  }
  return routeFiles;
}

/**
 * The file a reader edits to change one operation's page: its route definition (summary,
 * description, schemas) for the memory API, the OpenAPI builder for the website API.
 */
export function referenceSource(api: ApiSource['api'], operationId: string): string {
  if (api === 'site') return SOURCES.site;
  const file = memoryRouteFiles().get(operationId);
  if (!file) throw new Error(`No route file in ${SOURCES.memory} declares ${operationId}`);
  return file;
}

/**
 * A reference page's lastmod: the last change of its generator or its API's source, never the
 * build time, so sitemaps only move when the description can have changed.
 */
export function referenceLastmod(api: ApiSource['api']): string {
  return newest(
    [gitLastModified(SOURCES[api]), gitLastModified('src/api-reference')],
    '1970-01-01',
  );
}
