import { describe, expect, it } from 'vitest';
import { parseRecallArgs } from '../../scripts/bench/recall.ts';

describe('npm run bench -- recall: flags', () => {
  it('reads the committed set by default, over both splits and every mode', () => {
    const options = parseRecallArgs(['recall']);
    expect(options.seed).toBeNull();
    expect(options.locomo).toBeNull();
    expect(options.splits).toEqual(['dev', 'heldout']);
    expect(options.modes).toEqual(['default', 'bm25', 'vector', 'hybrid', 'hybrid_graph']);
  });

  it('takes --seed for a set generated in memory, a 32-bit unsigned integer only', () => {
    expect(parseRecallArgs(['--seed', '777']).seed).toBe(777);
    expect(parseRecallArgs(['--seed', '4294967295']).seed).toBe(4_294_967_295);
    for (const bad of ['-1', '1.5', 'abc', '4294967296'])
      expect(() => parseRecallArgs(['--seed', bad])).toThrow(/--seed needs an integer/);
  });

  it('narrows splits and modes, and refuses what it does not know', () => {
    const options = parseRecallArgs(['--split', 'heldout', '--modes', 'bm25,hybrid']);
    expect(options.splits).toEqual(['heldout']);
    expect(options.modes).toEqual(['bm25', 'hybrid']);
    expect(() => parseRecallArgs(['--modes', 'bm25,fuzzy'])).toThrow(/unknown mode fuzzy/);
    expect(() => parseRecallArgs(['--frobnicate'])).toThrow(/unexpected argument/);
  });
});
