import { gitLastModified, newest } from '../lib/git-lastmod.ts';
import type { ApiSource } from './operations.ts';

/** The source files each API's reference pages are generated from. */
const SOURCES: Record<ApiSource['api'], string> = {
  memory: 'functions/memory/routes',
  site: 'src/integrations/openapi.ts',
};

export function referenceSource(api: ApiSource['api']): string {
  return SOURCES[api];
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
