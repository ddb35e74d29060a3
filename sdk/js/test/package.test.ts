import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The package promise: ESM with types and no runtime dependencies.
const root = resolve('sdk/js');

describe('@engram/memory package', () => {
  it('is ESM with types and declares no runtime dependencies', async () => {
    const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(pkg.name).toBe('@engram/memory');
    expect(pkg.type).toBe('module');
    expect(pkg.dependencies).toBeUndefined();
    expect(pkg.exports).toEqual({
      '.': { types: './dist/index.d.ts', default: './dist/index.js' },
    });
  });

  it('imports nothing but its own modules', async () => {
    const files = (await readdir(join(root, 'src'))).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const source = await readFile(join(root, 'src', file), 'utf8');
      for (const [, spec] of source.matchAll(/from '([^']+)'/g)) {
        expect(spec, `${file} imports ${spec}`).toMatch(/^\.\/[a-z-]+\.ts$/);
      }
    }
  });
});
