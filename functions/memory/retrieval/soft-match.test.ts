import { stemmer } from 'stemmer';
import { describe, expect, it } from 'vitest';
import type { Scored } from './fusion.ts';
import { rowOf, sifWeight } from './sif-embeddings.ts';
import { SOFT_FLOOR, softMatchRanked, unitOf } from './soft-match.ts';
import { contentWords, expandContractions, queryWords } from './text.ts';
import { wordVectorTable } from './word-vector-table.ts';

/** Soft matching as first written: one question word at a time, one dot product at a time. */
function reference(question: string, pool: { seq: number; content: string }[]): Scored[] {
  const table = wordVectorTable();
  const dot = (a: Float32Array, b: Float32Array) => {
    let s = 0;
    for (let d = 0; d < a.length; d++) s += (a[d] ?? 0) * (b[d] ?? 0);
    return s;
  };
  const words = (list: string[]) => list.map((w) => ({ stem: stemmer(w), row: rowOf(table, w) }));
  const asked = words(queryWords(question));
  if (asked.length === 0) return [];
  const weights = asked.map((q) => (q.row === undefined ? 1 : sifWeight(q.row)));
  const total = weights.reduce((a, b) => a + b, 0);
  const out: Scored[] = [];
  for (const { seq, content } of pool) {
    const said = words(contentWords(expandContractions(content)));
    let score = 0;
    asked.forEach((q, i) => {
      let best = 0;
      for (const d of said) {
        if (d.stem === q.stem) {
          best = 1;
          break;
        }
        if (q.row === undefined || d.row === undefined) continue;
        const cos = dot(unitOf(q.row), unitOf(d.row));
        if (cos > best) best = cos;
      }
      const s = best >= 1 ? 1 : Math.max(0, (best - SOFT_FLOOR) / (1 - SOFT_FLOOR));
      score += (weights[i] ?? 0) * s;
    });
    if (score > 0) out.push({ seq, score: score / total });
  }
  return out.sort((a, b) => b.score - a.score || a.seq - b.seq);
}

describe('soft matching', () => {
  it('finds the turn whose words mean the question’s words when none of them are the same', () => {
    const ranked = softMatchRanked('Would she enjoy a ceramics workshop?', [
      { seq: 1, content: 'Maya: There is a food festival in the park this weekend.' },
      { seq: 2, content: 'Maya: Glazed my first bowl at the pottery studio, I adore it.' },
      { seq: 3, content: 'Maya: Hmm, tell me more.' },
    ]);
    expect(ranked[0]?.seq).toBe(2);
    const scores = new Map(ranked.map((r) => [r.seq, r.score]));
    expect(scores.get(2) ?? 0).toBeGreaterThan(scores.get(1) ?? 0);
  });

  it('scores an exact word (same stem) fully, and a turn sharing nothing not at all', () => {
    const ranked = softMatchRanked('hiking', [
      { seq: 1, content: 'Went hiking on Sunday' },
      { seq: 2, content: 'zzqx' },
    ]);
    expect(ranked).toEqual([{ seq: 1, score: 1 }]);
  });

  it('returns nothing for a question of stop words only', () => {
    expect(softMatchRanked('what is the', [{ seq: 1, content: 'anything at all' }])).toEqual([]);
  });

  it('scores a turn by its content, not by a cached seq, and the same on every call', () => {
    const question = 'Would she enjoy a ceramics workshop?';
    const pottery = { seq: 7, content: 'Maya: Glazed my first bowl at the pottery studio.' };
    const first = softMatchRanked(question, [pottery]);
    expect(softMatchRanked(question, [pottery])).toEqual(first);
    // The same seq with other words (a reused or rewritten row) is scored afresh.
    const other = softMatchRanked(question, [{ seq: 7, content: 'Zzqx qqzx.' }]);
    expect(other).toEqual([]);
    expect(first[0]?.score ?? 0).toBeGreaterThan(0);
  });

  it('gives exactly the scores of one question word and one dot product at a time', () => {
    const pool = [
      'Maya: Glazed my first bowl at the pottery studio, I adore it.',
      'Jon: We drove to the coast and watched the surfers until sunset.',
      'Maya: My sister moved to Krakow for a job at a software company.',
      'Jon: The new puppy chewed through my running shoes again.',
      'Maya: Hmm, tell me more.',
      'Jon: Grabbed dinner at that ramen place near the station with Priya.',
    ].map((content, i) => ({ seq: i + 1, content }));
    // One to seven question words with vectors (the cosines are computed four words at a time),
    // and a word the table lacks.
    const questions = [
      'beach',
      'dog shoes',
      'ocean waves sunset',
      'sister relocated abroad work',
      'dinner noodles restaurant friend train',
      'ceramics class bowl clay hobby enjoy weekend',
      'zzqxv puppy trainers',
    ];
    for (const question of questions) {
      const ranked = softMatchRanked(question, pool);
      expect(ranked.length).toBeGreaterThan(0);
      expect(ranked).toEqual(reference(question, pool));
    }
  });
});
