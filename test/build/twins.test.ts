import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

describe('build output', () => {
  it('writes the homepage twin as index.md starting with a level-one heading', async () => {
    const md = await readFile('dist/index.md', 'utf8');
    expect(md.startsWith('# ')).toBe(true);
  });
});
