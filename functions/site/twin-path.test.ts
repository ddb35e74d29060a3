import { describe, expect, it } from 'vitest';
import { hasEncodedSlash, isValidTwinPath, pageOf, twinOf } from './twin-path.ts';

describe('twin paths', () => {
  it.each([
    ['/index.md', true],
    ['/pricing.md', true],
    ['/docs/quickstart.md', true],
    ['/learn/memory-basics/retrieval.md', true],
    ['/learn/memory-basics/retrieval/hybrid-search.md', true],
    ['/a/b/c/d/e.md', false],
    ['/docs%2Fquickstart.md', false],
    ['/docs/quick start.md', false],
    ['/docs//quickstart.md', false],
    ['/user@v1~x_y.md', true],
    ['/pricing', false],
    ['pricing.md', false],
  ])('%s is a valid twin path: %s', (path, valid) => {
    expect(isValidTwinPath(path)).toBe(valid);
  });

  it('maps pages to twins and back, the homepage to /index.md', () => {
    expect(twinOf('/')).toBe('/index.md');
    expect(twinOf('/pricing')).toBe('/pricing.md');
    expect(twinOf('/docs/api/facts/')).toBe('/docs/api/facts.md');
    expect(pageOf('/index.md')).toBe('/');
    expect(pageOf('/learn/a/b.md')).toBe('/learn/a/b');
  });

  it('detects a percent-encoded slash in either case', () => {
    expect(hasEncodedSlash('/docs%2Fquickstart.md')).toBe(true);
    expect(hasEncodedSlash('/docs%2fquickstart')).toBe(true);
    expect(hasEncodedSlash('/docs/quickstart%20x')).toBe(false);
  });
});
