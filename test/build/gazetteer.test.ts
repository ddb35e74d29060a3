import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildGazetteer, OUTPUT } from '../../scripts/gazetteer/build-gazetteer.ts';

// The committed gazetteer is a build artefact: exactly what the build script derives from the
// pinned `city-timezones` and `countries-list` packages (regenerate with
// `node scripts/gazetteer/build-gazetteer.ts`, then re-measure recall).
describe('gazetteer.generated.ts', () => {
  it('is byte for byte what scripts/gazetteer/build-gazetteer.ts derives from the packages', () => {
    expect(buildGazetteer() === readFileSync(OUTPUT, 'utf8')).toBe(true);
  });

  it('stays small enough to ship in the Worker bundle', () => {
    expect(readFileSync(OUTPUT, 'utf8').length).toBeLessThan(100_000);
  });
});
