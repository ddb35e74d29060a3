import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../fixtures/prng.ts';
import { bm25OfRows } from '../../../functions/memory/store/bm25-rows.ts';
import {
  CONJUNCTIVE_FROM,
  CONJUNCTIVE_ROWS,
  EXPANSION_ROWS,
  RECENT_ROWS,
} from '../../../functions/memory/store/fts-bounds.ts';
import {
  ftsDelete,
  ftsSearch,
  type FtsHit,
  type TermPolicy,
} from '../../../functions/memory/store/fts.ts';
import { budgetOf, setBudgetLimit } from '../../../functions/memory/store/memory-budget.ts';
import { postingsIndex } from '../../../functions/memory/store/postings-cache.ts';
import { applyMigrations } from '../../../functions/memory/store/schema/runner.ts';
import type { NewItem } from '../../../functions/memory/store/types.ts';
import { VectorCache } from '../../../functions/memory/store/vectors.ts';
import { indexAfterSearches, plainItem, writeInBatches } from './helpers.ts';

// A question whose words are common in a large Context (store/fts.ts `conjunction`): its list
// starts with the newest rows holding all of its words, best first, then the rest of the newest
// rows matching any of them.
// FTS5 (from disk) and the postings index (in memory) give the same list, so dropping the index
// changes no answer.

const COMMON = ['roadmap', 'billing', 'garden', 'kernel'];
const WEIGHED = ['amber', 'birch', 'cedar', 'delta'];
const RARE = ['osaka', 'lisbon', 'tennis', 'guitar', 'marathon', 'recipe', 'invoice', 'deploy'];

/**
 * Rows of words each in a share of rows (some twice), a rare word in each when `rare`, and
 * fillers. By default each common word is in about 70% of rows, so a 3-word question's postings
 * pass CONJUNCTIVE_FROM at this size.
 */
function facts(
  n: number,
  shares: readonly (readonly [string, number])[] = COMMON.map((w) => [w, 0.7] as const),
  seed = 3,
  rare = true,
): NewItem[] {
  const next = mulberry32(seed);
  return Array.from({ length: n }, (_, i) => {
    const words = shares.flatMap(([w, p]) => (next() < p ? (next() < 0.2 ? [w, w] : [w]) : []));
    if (rare) words.push(RARE[Math.floor(next() * RARE.length)] ?? 'osaka');
    const filler = Array.from(
      { length: Math.floor(next() * 6) },
      () => `note${Math.floor(next() * 50)}`,
    );
    return {
      ...plainItem([...words, ...filler].sort(() => next() - 0.5).join(' ') + ` row ${i}`),
      entities: [],
    };
  });
}

const read = (hits: Generator<FtsHit>, n: number): FtsHit[] => {
  const out: FtsHit[] = [];
  for (const hit of hits) {
    out.push(hit);
    if (out.length >= n) break;
  }
  return out;
};

describe('a question whose words are common in a large Context', () => {
  it('lists the newest rows holding all its words first, the same from the index and from FTS5', async () => {
    await runInDurableObject(env.CONTEXT_STORE.getByName('fts-conjunctive'), (_obj, state) => {
      const sql = state.storage.sql;
      applyMigrations(state.storage);
      setBudgetLimit(sql, 64 * 1024 * 1024);
      writeInBatches(state.storage, new VectorCache(), facts(12_000), 2000);
      const rows = () => 12_000;
      const questions: [string, string[]][] = [
        ['roadmap billing garden osaka', ['roadmap', 'billing', 'garden', 'osaka']],
        ['garden kernel billing', ['garden', 'kernel', 'billing']],
      ];
      const policies: TermPolicy[] = ['all', 'weighed-first'];
      // Built from memory first (a few searches in), then dropped: FTS5 answers.
      expect(indexAfterSearches(sql, 10)).not.toBeNull();
      const fromIndex = questions.flatMap(([q]) =>
        policies.map((policy) => read(ftsSearch(sql, q, [], { policy, rows }, 200), 20_000)),
      );
      // An expansion arm's list reads fewer of the newest rows.
      const narrow = () =>
        questions.map(([q]) =>
          read(ftsSearch(sql, q, [], { policy: 'all', rows, recent: EXPANSION_ROWS }, 200), 20_000),
        );
      const narrowFromIndex = narrow();
      budgetOf(sql).limit = 0;
      budgetOf(sql).settle();
      setBudgetLimit(sql, 1024);
      expect(postingsIndex(sql)).toBeNull();
      const fromFts = questions.flatMap(([q]) =>
        policies.map((policy) => read(ftsSearch(sql, q, [], { policy, rows }, 200), 20_000)),
      );
      const narrowFromFts = narrow();
      // Newest first: every row's words, to tell which rows a bounded list may read.
      const texts = sql
        .exec<{ seq: number; content: string }>('SELECT seq, content FROM items ORDER BY seq DESC')
        .toArray()
        .map((r) => ({ seq: r.seq, words: new Set(r.content.split(' ')) }));
      questions.forEach(([, words], qi) => {
        const list = fromIndex[qi * policies.length] ?? [];
        // First the newest CONJUNCTIVE_ROWS rows holding every word, best first.
        const holding = texts.filter((t) => words.every((w) => t.words.has(w)));
        expect(holding.length).toBeGreaterThan(CONJUNCTIVE_ROWS);
        const newestHolding = new Set(holding.slice(0, CONJUNCTIVE_ROWS).map((t) => t.seq));
        const firstPart = list.slice(0, CONJUNCTIVE_ROWS);
        expect(new Set(firstPart.map((h) => h.seq))).toEqual(newestHolding);
        for (let i = 1; i < firstPart.length; i++)
          expect(firstPart[i]?.score).toBeLessThanOrEqual(firstPart[i - 1]?.score ?? Infinity);
        // Then, best first, the rest of the newest RECENT_ROWS rows holding any of the words:
        // an older row is never scored, even one holding them all.
        const newestAny = texts
          .filter((t) => words.some((w) => t.words.has(w)))
          .slice(0, RECENT_ROWS)
          .map((t) => t.seq)
          .filter((seq) => !newestHolding.has(seq));
        const rest = list.slice(CONJUNCTIVE_ROWS);
        expect(rest.length).toBeGreaterThan(100);
        expect(new Set(rest.map((h) => h.seq))).toEqual(new Set(newestAny));
        // With `recent`, the rest is of the newest EXPANSION_ROWS rows instead, from either path.
        const narrowRest = (narrowFromIndex[qi] ?? []).slice(CONJUNCTIVE_ROWS);
        const newestFew = texts
          .filter((t) => words.some((w) => t.words.has(w)))
          .slice(0, EXPANSION_ROWS)
          .map((t) => t.seq)
          .filter((seq) => !newestHolding.has(seq));
        expect(new Set(narrowRest.map((h) => h.seq))).toEqual(new Set(newestFew));
        expect(newestFew.length).toBeLessThan(newestAny.length);
        expect((narrowFromFts[qi] ?? []).map((h) => h.seq)).toEqual(
          (narrowFromIndex[qi] ?? []).map((h) => h.seq),
        );
        for (let i = 1; i < rest.length; i++)
          expect(rest[i]?.score).toBeLessThanOrEqual(rest[i - 1]?.score ?? Infinity);
        expect(Math.min(...rest.map((h) => h.seq))).toBeGreaterThan(10_000);
      });
      // The same rows in the same order, with the same scores (weighed-first: FTS5's halved
      // combined score, within the zero-weight terms' 1e-6 shares).
      fromIndex.forEach((list, i) => {
        const other = fromFts[i] ?? [];
        expect(other.map((h) => h.seq)).toEqual(list.map((h) => h.seq));
        list.forEach((h, j) =>
          expect(Math.abs(h.score - (other[j]?.score ?? NaN))).toBeLessThan(1e-5),
        );
      });
      expect(CONJUNCTIVE_FROM).toBeLessThan(3 * 0.65 * 12_000); // both questions pass it
    });
  }, 120_000);

  it('scores the rows holding every word from their text as FTS5 scores them', async () => {
    await runInDurableObject(env.CONTEXT_STORE.getByName('fts-conjunctive-text'), (_obj, state) => {
      const sql = state.storage.sql;
      applyMigrations(state.storage);
      setBudgetLimit(sql, 1024); // no postings index: the FTS5 path answers
      // Four words in 45% of rows each (weighed: in fewer than half), two in 70%, fillers.
      const shares = [
        ...WEIGHED.map((w) => [w, 0.45] as const),
        ...COMMON.slice(0, 2).map((w) => [w, 0.7] as const),
      ];
      const items = facts(12_000, shares, 11, false);
      // A row FTS5 reads but fts-tokens.ts does not mirror (Þ): a list holding it is FTS5's.
      items.push({ ...plainItem('Þórr roadmap amber birch cedar'), entities: [] });
      writeInBatches(state.storage, new VectorCache(), items, 2000);
      const rows = () => items.length;
      const rank = (q: string) =>
        new Map(
          sql
            .exec<{ seq: number; rank: number }>(
              'SELECT rowid AS seq, bm25(items_fts) AS rank FROM items_fts WHERE items_fts MATCH ?',
              q,
            )
            .toArray()
            .map((r) => [r.seq, r.rank]),
        );
      const vocabulary = (tokens: string[]) =>
        new Map(
          sql
            .exec<{ term: string; doc: number }>(
              `SELECT term, doc FROM items_fts_vocab WHERE term IN (${tokens.map(() => '?').join(', ')})`,
              ...tokens,
            )
            .toArray()
            .map((r) => [r.term, r.doc]),
        );
      const cases: {
        q: string;
        extra: string[];
        policy: TermPolicy;
        all: string[];
        match: string;
        fromText: boolean;
      }[] = [
        // every term, added ones included (a filler word; a word no row holds)
        {
          q: 'roadmap billing amber',
          extra: ['note7', 'zzzabsent'],
          policy: 'all',
          all: ['roadmap', 'billing', 'amber'],
          match: '"roadmap" OR "billing" OR "amber" OR "note7" OR "zzzabsent"',
          fromText: true,
        },
        // the weighed terms and every term, halved
        {
          q: 'amber birch cedar delta',
          extra: ['note3'],
          policy: 'weighed-first',
          all: ['amber', 'birch', 'cedar', 'delta'],
          match:
            '("amber" OR "birch" OR "cedar" OR "delta" OR "note3") AND ("amber" OR "birch" OR "cedar" OR "delta" OR "note3")',
          fromText: true,
        },
        // the Þ row holds every word: FTS5 scores this list
        {
          q: 'roadmap amber birch cedar',
          extra: [],
          policy: 'all',
          all: ['roadmap', 'amber', 'birch', 'cedar'],
          match: '"roadmap" OR "amber" OR "birch" OR "cedar"',
          fromText: false,
        },
      ];
      for (const c of cases) {
        const and = c.all.map((w) => `"${w}"`).join(' AND ');
        const own = rank(and);
        const both = rank(`(${and}) AND (${c.match})`);
        const half = c.policy === 'weighed-first' ? 2 : 1;
        // The newest CONJUNCTIVE_ROWS of them.
        const newest = [...own.keys()].sort((x, y) => y - x).slice(0, CONJUNCTIVE_ROWS);
        const list = read(
          ftsSearch(sql, c.q, c.extra, { policy: c.policy, rows }, 200),
          newest.length,
        );
        expect(own.size).toBeGreaterThan(100);
        expect(new Set(list.map((h) => h.seq))).toEqual(new Set(newest));
        for (const hit of list) {
          const fts5 = -((both.get(hit.seq) ?? NaN) - (own.get(hit.seq) ?? 0)) / half;
          expect(Math.abs(hit.score - fts5)).toBeLessThan(1e-9);
        }
        // Which path scored them: from the text, unless a row is outside the mirrored domain.
        const fromText = bm25OfRows(sql, newest, c.all, vocabulary);
        expect(fromText !== null).toBe(c.fromText);
      }

      // Past the rows holding every word, the bounded rest of a `weighed-first` list is scored
      // on the weighed terms alone (a zero-weight term would cost FTS5 a read of its doclist),
      // from FTS5 and from the postings index alike.
      // (The Þ row goes first: the postings index holds only text fts-tokens.ts mirrors.)
      ftsDelete(sql, items.length);
      const q = 'amber birch cedar delta roadmap';
      const whole = () =>
        read(ftsSearch(sql, q, ['note3'], { policy: 'weighed-first', rows }, 200), 3000);
      const fromFts = whole();
      const first = Math.min(
        CONJUNCTIVE_ROWS,
        rank('"amber" AND "birch" AND "cedar" AND "delta"').size,
      );
      const rest = fromFts.slice(first);
      expect(rest.length).toBeGreaterThan(100);
      const weighedOnly = rank('"amber" OR "birch" OR "cedar" OR "delta" OR "note3"');
      for (const hit of rest.slice(0, 200))
        expect(Math.abs(hit.score + (weighedOnly.get(hit.seq) ?? NaN))).toBeLessThan(1e-9);
      setBudgetLimit(sql, 64 * 1024 * 1024);
      expect(indexAfterSearches(sql, 10)).not.toBeNull();
      const fromIndex = whole();
      expect(fromIndex.map((h) => h.seq)).toEqual(fromFts.map((h) => h.seq));
      // The first part within the zero-weight shares FTS5's path halves; the rest exactly.
      fromIndex.forEach((h, i) =>
        expect(Math.abs(h.score - (fromFts[i]?.score ?? NaN))).toBeLessThan(
          i < first ? 1e-5 : 1e-9,
        ),
      );
    });
  }, 120_000);

  it('keeps one list best first for a small Context', async () => {
    await runInDurableObject(
      env.CONTEXT_STORE.getByName('fts-conjunctive-small'),
      (_obj, state) => {
        const sql = state.storage.sql;
        applyMigrations(state.storage);
        setBudgetLimit(sql, 1024); // FTS5 answers
        writeInBatches(state.storage, new VectorCache(), facts(2000), 2000);
        const list = read(
          ftsSearch(sql, 'roadmap billing osaka', [], { policy: 'all', rows: () => 2000 }, 50),
          2000,
        );
        for (let i = 1; i < list.length; i++)
          expect(list[i]?.score).toBeLessThanOrEqual(list[i - 1]?.score ?? Infinity);
      },
    );
  });
});
