import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { insertItems } from '../../../functions/memory/store/items.ts';
import { applyMigrations } from '../../../functions/memory/store/schema/runner.ts';
import { search } from '../../../functions/memory/store/search.ts';
import { VectorCache } from '../../../functions/memory/store/vectors.ts';
import { plainItem } from './helpers.ts';

// A neural embedding model's id (any id other than the local models' reads as neural).
const NEURAL = '@cf/baai/bge-base-en-v1.5';

function unit(dims: number, axis: number): Float32Array {
  return Float32Array.from({ length: dims }, (_, i) => (i === axis ? 1 : 0));
}

describe('fusion with a neural embedding model', () => {
  it('gates the vector arm when the best lexical hit already holds the question’s words', async () => {
    const stub = env.CONTEXT_STORE.getByName('neural-fusion-gate');
    await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      const cache = new VectorCache();
      applyMigrations(state.storage);
      const withVector = (content: string, values: Float32Array) => ({
        ...plainItem(content),
        vector: { modelId: NEURAL, values },
      });
      // The question's words are all in the first note; only the vector points at the second.
      const [audit, chat] = insertItems(
        sql,
        cache,
        [
          withVector('The quarterly billing audit moved to the Lisbon office.', unit(8, 0)),
          withVector('Hiya, long time no chat, how have you been?', unit(8, 1)),
          withVector('Rent went up again this spring.', unit(8, 2)),
        ],
        '2024-03-01T09:00:00.000Z',
      );
      const hits = search(sql, cache, {
        mode: 'hybrid',
        text: 'Tell me about the quarterly billing audit move to Lisbon.',
        vector: { modelId: NEURAL, values: unit(8, 1) },
        k: 2,
        lens: [['*']],
      });
      // Ungated, the neural arm's weight (2.5 against bm25's 1) would put the small talk first.
      expect(hits.map((h) => h.id)).toEqual([audit?.id, chat?.id]);
    });
  });
});
