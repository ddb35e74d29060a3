import { describe, expect, it } from 'vitest';
import { CODES_BASE64, WORDS } from '../../functions/memory/retrieval/word-vectors.generated.ts';
import { bundleWorker, FREE_PLAN_SCRIPT_LIMIT } from '../support/worker-bundle.ts';

// The Worker must deploy on Workers Free, whose limit is on the compressed script: the size is
// deterministic for a tree, so it is tested here (`npm run bench -- bundle` reports the figure).
// The read-only tables are static assets (functions/memory/tables/load-tables.ts), not script.
describe('the Worker script (wrangler deploy --dry-run)', () => {
  const { script, gzipBytes } = bundleWorker();

  it(`compresses to at most ${FREE_PLAN_SCRIPT_LIMIT.toLocaleString('en')} bytes (Workers Free)`, () => {
    expect(gzipBytes).toBeGreaterThan(100_000);
    expect(gzipBytes).toBeLessThanOrEqual(FREE_PLAN_SCRIPT_LIMIT);
  });

  // V8 keeps a script's source one byte a character only while every character is below U+0100;
  // one typographic quote in a regular expression doubles the 4.4 MB the isolate holds
  // (scripts/ascii-dependencies.mjs escapes the dependencies' at install).
  it('is ASCII, so the isolate keeps its source one byte a character', () => {
    const text = script.toString('utf8');
    const outside = [...text.matchAll(/[^\x00-\x7f]/gu)].map(
      (m) => `${JSON.stringify(text.slice(Math.max(0, m.index - 40), m.index + 1))}`,
    );
    expect(outside).toEqual([]);
  });

  it('carries neither the word vectors nor the tokenizer ranks', () => {
    const text = script.toString('utf8');
    // A run of the packed codes and of the word list, and a merge rank of o200k_base only.
    expect(text.includes(CODES_BASE64.slice(100_000, 100_080))).toBe(false);
    expect(text.includes(WORDS.slice(50_000, 50_080))).toBe(false);
    expect(text.includes('" patrones",')).toBe(false);
  });
});
