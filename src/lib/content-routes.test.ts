import { describe, expect, it } from 'vitest';
import {
  blogPath,
  docPath,
  learnDepth,
  learnPath,
  pagePath,
  stripIndex,
} from './content-routes.ts';

describe('content routes', () => {
  it.each([
    ['index', ''],
    ['api/index', 'api'],
    ['api/facts', 'api/facts'],
    ['reindex', 'reindex'],
  ])('stripIndex(%s) = %j', (id, out) => {
    expect(stripIndex(id)).toBe(out);
  });

  it.each([
    ['index', '/docs'],
    ['quickstart', '/docs/quickstart'],
    ['api/facts', '/docs/api/facts'],
    ['sdk/index', '/docs/sdk'],
  ])('docs %s -> %s', (id, path) => {
    expect(docPath(id)).toBe(path);
  });

  it.each([
    ['memory-basics/index', '/learn/memory-basics', 1],
    ['memory-basics/retrieval/index', '/learn/memory-basics/retrieval', 2],
    ['memory-basics/retrieval/hybrid-search', '/learn/memory-basics/retrieval/hybrid-search', 3],
  ])('learn %s -> %s (depth %i below /learn)', (id, path, depth) => {
    expect(learnPath(id)).toBe(path);
    expect(learnDepth(id)).toBe(depth);
  });

  it('maps pages and posts to one segment under their section', () => {
    expect(pagePath('auth')).toBe('/auth');
    expect(blogPath('why-sqlite')).toBe('/blog/why-sqlite');
  });
});
