import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import {
  ftsDelete,
  ftsInsert,
  ftsQuery,
  ftsSearch,
  type FtsHit,
  type TermChoice,
  type TermPolicy,
} from '../../../functions/memory/store/fts.ts';
import { ftsTokens } from '../../../functions/memory/store/fts-tokens.ts';
import { beginSearch, postingsIndex } from '../../../functions/memory/store/postings-cache.ts';
import { applyMigrations } from '../../../functions/memory/store/schema/runner.ts';

// The in-memory postings index (store/postings-index.ts, kept by store/postings-cache.ts) answers
// bm25 searches in place of FTS5. Each answer must be FTS5's own, in workerd's SQLite: the same
// rows, in the same order, with the same scores, before and after writes, deletes, rollbacks and
// writes that bypass it. Every comparison below reads FTS5's list with plain SQL.

type Sql = SqlStorage;

/** A deterministic pseudo-random source (mulberry32), so every run writes the same rows. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'roadmap',
  'reviews',
  'reviewed',
  'billing',
  'Osaka',
  'office',
  'café',
  'naïve',
  'garden',
  'gardening',
  'hiking',
  'hikes',
  'sister',
  'wedding',
  'Lisbon',
  'painting',
  'painted',
  'dog',
  'dogs',
  'adopted',
  'marathon',
  'running',
  'ran',
  'guitar',
  'lessons',
  'piano',
  'recipe',
  'baking',
  'bread',
  '1990s',
  '5pm',
  'mp3',
  'don’t',
  'it’s',
  'e-mail',
  'Ada',
  'Grace',
  'Linus',
  'the',
  'a',
  'and',
  'to',
  'of',
  'in',
  'with',
  'on',
  'last',
  'Tuesday',
  'May',
  '2023',
];

function sentence(next: () => number): string {
  const n = 3 + Math.floor(next() * 14);
  const words: string[] = [];
  for (let i = 0; i < n; i++) {
    // Skewed choice: low indexes are common words, as in real text.
    const w = WORDS[Math.floor(WORDS.length * next() ** 1.6)] ?? 'the';
    words.push(w);
  }
  return `${words.join(' ')}${next() < 0.3 ? '!' : '.'}`;
}

const QUERIES = [
  'billing roadmap Osaka',
  'roadmap',
  'who reviews the roadmap',
  'café garden wedding',
  'naïve painting',
  'dogs adopted last Tuesday',
  'marathon running hikes',
  '1990s mp3 guitar',
  'recipe baking bread 5pm',
  'sister wedding Lisbon May 2023',
  'Ada Grace Linus',
  'the and of',
];

/** FTS5's own list for a MATCH expression, as plain SQL reads it (ties by rowid). */
function fts5Order(sql: Sql, match: string): FtsHit[] {
  return sql
    .exec<{ seq: number; rank: number }>(
      `SELECT rowid AS seq, bm25(items_fts) AS rank FROM items_fts WHERE items_fts MATCH ?
       ORDER BY bm25(items_fts), rowid`,
      match,
    )
    .toArray()
    .map((r) => ({ seq: r.seq, score: -r.rank }));
}

/** FTS5's ranking of every row matching any term of `query` (fts.ts's MATCH). */
function fts5Ranking(sql: Sql, query: string): FtsHit[] {
  const [first = '', ...rest] = query.split(' ');
  const match = ftsQuery(first, rest);
  return match === null ? [] : fts5Order(sql, match);
}

/** ftsSearch's whole list for `query` (every word a term, policy `all`). */
/** One search, as store/search.ts begins it (the index counts a search once). */
function searched(sql: Sql, query: string): FtsHit[] {
  beginSearch(sql);
  const [first = '', ...rest] = query.split(' ');
  return [...ftsSearch(sql, first, rest)];
}

function expectSameRanking(sql: Sql): void {
  for (const query of QUERIES) {
    const mine = searched(sql, query);
    const theirs = fts5Ranking(sql, query);
    expect(
      mine.map((h) => h.seq),
      query,
    ).toEqual(theirs.map((h) => h.seq));
    mine.forEach((hit, i) => expect(hit.score).toBeCloseTo(theirs[i]?.score ?? NaN, 9));
  }
}

function rows(
  from: number,
  n: number,
  seed: number,
): { seq: number; content: string; terms: string }[] {
  const next = random(seed);
  return Array.from({ length: n }, (_, i) => ({
    seq: from + i,
    content: sentence(next),
    terms: next() < 0.3 ? 'qadate yr2023 ym202305' : '',
  }));
}

/** Runs `fn` in a fresh Context object's storage, migrated to the latest schema. */
async function inObject<T>(
  name: string,
  fn: (sql: Sql, storage: DurableObjectStorage) => T,
): Promise<T> {
  return runInDurableObject(env.CONTEXT_STORE.getByName(name), (_obj, state) => {
    applyMigrations(state.storage);
    return fn(state.storage.sql, state.storage);
  });
}

/**
 * A Context object holding `n` generated rows (one write), then searched once in a later turn so
 * that its index is built; the index's row count then (undefined when there is none).
 */
async function withIndex(name: string, n: number, seed: number): Promise<number | undefined> {
  await inObject(name, (sql) => ftsInsert(sql, rows(1, n, seed), true));
  return inObject(name, (sql) => {
    searched(sql, 'roadmap');
    beginSearch(sql); // a second search
    return postingsIndex(sql)?.rows;
  });
}

describe('ftsTokens mirrors workerd FTS5’s porter unicode61 tokenizer', () => {
  it('for every character it claims, and declines the ones it does not', async () => {
    await inObject('postings-tokens', (sql) => {
      sql.exec(`CREATE VIRTUAL TABLE tok USING fts5(content, tokenize = 'porter unicode61')`);
      sql.exec(`CREATE VIRTUAL TABLE tok_instances USING fts5vocab(tok, 'instance')`);
      const texts: string[] = [];
      for (const [first, last] of [
        [0x20, 0x7e],
        [0xa0, 0x24f],
        [0x2000, 0x206f],
        [0x2600, 0x27bf],
        [0xfe00, 0xfe0f],
        [0x1f300, 0x1faff],
      ] as const)
        for (let code = first; code <= last; code++) {
          const ch = String.fromCodePoint(code);
          texts.push(`Running${ch}dogs x${ch} ${ch}cats caf${ch}s`);
        }
      texts.forEach((text, i) =>
        sql.exec('INSERT INTO tok (rowid, content) VALUES (?, ?)', i + 1, text),
      );
      const stored: string[][] = texts.map(() => []);
      for (const row of sql.exec<{ term: string; doc: number }>(
        'SELECT term, doc FROM tok_instances ORDER BY doc, col, offset',
      ))
        stored[row.doc - 1]?.push(row.term);
      let claimed = 0;
      texts.forEach((text, i) => {
        const mine = ftsTokens(text);
        if (mine === null) return;
        claimed++;
        expect(mine, text).toEqual(stored[i]);
      });
      // ASCII, Latin-1, General Punctuation, Miscellaneous Symbols and the emoji block (those of
      // Unicode 6 separators, later ones token characters, as chat writes them: "lol🤩").
      expect(claimed).toBeGreaterThan(2500);
      expect(ftsTokens('lol🤩 so tired😴')).toEqual(['lol🤩', 'so', 'tire']);
      expect(ftsTokens('love it❤️✨')).toEqual(['love', 'it']);
      for (const ch of ['æ', 'ø', 'д', '中', 'ą']) expect(ftsTokens(`x${ch}y`), ch).toBeNull();
    });
  });
});

describe('the postings index ranks as FTS5 does', () => {
  it('builds once searches keep coming, and gives FTS5’s list, scores and ties', async () => {
    await inObject('postings-rank', (sql) => {
      ftsInsert(sql, rows(1, 400, 1), true);
    });
    await inObject('postings-rank', (sql) => {
      expect(postingsIndex(sql)).toBeNull(); // the first search a fresh object sees: FTS5's
      expectSameRanking(sql);
      const index = postingsIndex(sql);
      expect(index?.rows).toBe(400);
      expectSameRanking(sql);
    });
  });

  it('keeps fts.ts’s term policies: weighed terms only, and weighed rows first', async () => {
    const name = 'postings-policies';
    expect(await withIndex(name, 400, 9)).not.toBeUndefined();
    await inObject(name, (sql) => {
      const choice = (policy: TermPolicy): TermChoice => ({ policy, rows: () => 400 });
      for (const query of QUERIES) {
        const all = fts5Order(sql, ftsQuery(query) ?? '""');
        // `weighed-first` reads a list of 10 that the weighed rows can fill: FTS5's own order.
        const firstTen = [...ftsSearch(sql, query, [], choice('weighed-first'), 10)];
        expect(
          firstTen.map((h) => h.seq),
          query,
        ).toEqual(all.map((h) => h.seq));
        // `weighed`: FTS5's list for the terms fewer than half the rows hold.
        const terms = (ftsQuery(query) ?? '').split(' OR ').filter((t) => t !== '');
        const weighed = terms.filter((phrase) => {
          const n = sql
            .exec<{ n: number }>(
              'SELECT count(*) AS n FROM items_fts WHERE items_fts MATCH ?',
              phrase,
            )
            .one().n;
          return n > 0 && 2 * n < 400;
        });
        const expected = weighed.length === 0 ? [] : fts5Order(sql, weighed.join(' OR '));
        expect(
          [...ftsSearch(sql, query, [], choice('weighed'))].map((h) => h.seq),
          query,
        ).toEqual(expected.map((h) => h.seq));
        expect(weighed.length).toBeLessThanOrEqual(terms.length);
      }
    });
  });

  it('counts a search once, however many bm25 lists it reads', async () => {
    const name = 'postings-once-a-search';
    await inObject(name, (sql) => ftsInsert(sql, rows(1, 300, 9), true));
    await inObject(name, (sql) => {
      // A fused question after a wake: its bm25 arm and its synonym arm both ask. Neither builds:
      // the first question an object serves pays nothing proportional to the Context.
      beginSearch(sql);
      expect(postingsIndex(sql)).toBeNull();
      expect(postingsIndex(sql)).toBeNull();
      expect(postingsIndex(sql)).toBeNull();
      // The second question is the one that builds it.
      beginSearch(sql);
      expect(postingsIndex(sql)?.rows).toBe(300);
      expectSameRanking(sql);
    });
  });

  it('follows inserts and deletes once committed, and leaves uncommitted ones to FTS5', async () => {
    const name = 'postings-writes';
    expect(await withIndex(name, 300, 2)).toBe(300);
    await inObject(name, (sql) => {
      ftsInsert(sql, rows(301, 40, 3), true);
      for (const seq of [5, 17, 250, 320]) ftsDelete(sql, seq);
      // Written in this turn, not committed: FTS5 (which sees its own pending rows) answers.
      expect(postingsIndex(sql)).toBeNull();
      expectSameRanking(sql);
    });
    await inObject(name, (sql) => {
      expect(postingsIndex(sql)?.rows).toBe(336);
      expectSameRanking(sql);
    });
  });

  it('a rolled-back write leaves the index as FTS5 is', async () => {
    const name = 'postings-rollback';
    expect(await withIndex(name, 200, 4)).toBe(200);
    await inObject(name, (sql, storage) => {
      expect(() =>
        storage.transactionSync(() => {
          ftsInsert(sql, rows(201, 10, 5), true);
          ftsDelete(sql, 7);
          throw new Error('abandon the write');
        }),
      ).toThrow('abandon the write');
      expectSameRanking(sql);
    });
    await inObject(name, (sql) => {
      expectSameRanking(sql);
      ftsInsert(sql, rows(201, 5, 6), true);
    });
    await inObject(name, (sql) => {
      // Row 7 was reported deleted and re-read: it is still there, as in FTS5.
      expect(postingsIndex(sql)?.has(7)).toBe(true);
      expect(postingsIndex(sql)?.rows).toBe(205);
      expectSameRanking(sql);
    });
  });

  it('drops itself after a write that bypassed fts.ts, and rebuilds from FTS5', async () => {
    const name = 'postings-bypass';
    expect(await withIndex(name, 200, 7)).not.toBeUndefined();
    await inObject(name, (sql) => {
      // A schema step rewriting a row's terms, as place-terms.ts does.
      sql.exec(`UPDATE items_fts SET terms = 'qaplace japan country' WHERE rowid = 3`);
    });
    await inObject(name, (sql) => {
      expect(postingsIndex(sql)).toBeNull();
      expectSameRanking(sql);
      expect(postingsIndex(sql)?.rows).toBe(200);
      expectSameRanking(sql);
    });
  });

  it('steps aside for text it cannot mirror, and FTS5 answers', async () => {
    const name = 'postings-inexact';
    await inObject(name, (sql) => {
      ftsInsert(sql, rows(1, 100, 8), true);
      ftsInsert(sql, [{ seq: 101, content: 'Дмитрий reviews the roadmap', terms: '' }], true);
    });
    await inObject(name, (sql) => {
      for (let i = 0; i < 4; i++) expectSameRanking(sql);
      expect(postingsIndex(sql)).toBeNull();
    });
  });
});
