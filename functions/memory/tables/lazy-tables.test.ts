import dictionary from 'synonyms/dictionary.js';
import { describe, expect, it } from 'vitest';
import { call, setup, writeFact } from '../../../test/workers/memory/helpers.ts';
import { o200kDecoded } from '../models/o200k-tokenizer.ts';
import { thesaurusDecoded, thesaurusEntry } from '../retrieval/synonyms.ts';
import { wordVectorsDecoded } from '../retrieval/word-vector-table.ts';

// A cold question pays only for the tables its mode reads: the tables' bytes arrive when the
// Context's object wakes, each is decoded on its first use. This file runs in an isolate of its
// own (its Context's object included), whose setup has loaded the tables and decoded none, so the
// steps below are in order: each asks what the requests so far have decoded.
async function ask(ctx: string, key: string, query: string, mode: string): Promise<void> {
  const res = await call('POST', `/api/v1/${ctx}/query`, { key, body: { query, mode } });
  expect(res.status, await res.clone().text()).toBe(200);
}

describe('the read-only tables, decoded on first use', () => {
  it('a bm25 question decodes neither the word vectors, the thesaurus nor the tokenizer', async () => {
    expect([wordVectorsDecoded(), thesaurusDecoded(), o200kDecoded()]).toEqual([
      false,
      false,
      false,
    ]);
    const { ctx, key } = await setup();
    await ask(ctx, key, 'who moved the quarterly review to Osaka', 'bm25');
    expect([wordVectorsDecoded(), thesaurusDecoded(), o200kDecoded()]).toEqual([
      false,
      false,
      false,
    ]);
  });

  it('a write and a hybrid question decode the word vectors and the thesaurus, never the tokenizer', async () => {
    const { ctx, key } = await setup();
    await writeFact(ctx, key, 'Priya moved the quarterly review to Osaka in March');
    expect(wordVectorsDecoded()).toBe(true);
    await ask(ctx, key, 'where is the quarterly meeting', 'hybrid');
    expect(thesaurusDecoded()).toBe(true);
    // The local model's embedding usage is counted only when read, and nothing reads it.
    expect(o200kDecoded()).toBe(false);
    const res = await call('POST', `/api/v1/${ctx}/context`, {
      key,
      body: { query: 'quarterly review' },
    });
    expect(res.status).toBe(200);
    expect(o200kDecoded()).toBe(true);
  });

  it('the thesaurus asset gives every head word the synonyms package gives it, and no other', () => {
    const heads = Object.keys(dictionary);
    expect(heads.length).toBeGreaterThan(10_000);
    for (const head of heads) expect(thesaurusEntry(head), head).toEqual(dictionary[head]);
    for (const absent of ['', 'zzyzx', 'constructor', '__proto__', 'a\tb'])
      expect(thesaurusEntry(absent), absent).toBe(
        Object.hasOwn(dictionary, absent) ? dictionary[absent] : undefined,
      );
  });
});
