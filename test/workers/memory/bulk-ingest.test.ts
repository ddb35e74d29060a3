import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { extractEntities } from '../../../functions/memory/retrieval/entities.ts';
import {
  embedHashed,
  HASH_MODEL_ID,
} from '../../../functions/memory/retrieval/local-embeddings.ts';
import { analyseContent } from '../../../functions/memory/retrieval/text-analysis.ts';
import { contentTimeTerms } from '../../../functions/memory/retrieval/time-terms.ts';
import { answerTypeTerms } from '../../../functions/memory/retrieval/answer-type.ts';
import { placeTerms } from '../../../functions/memory/retrieval/places.ts';
import { insertItems } from '../../../functions/memory/store/items.ts';
import { applyMigrations } from '../../../functions/memory/store/schema/runner.ts';
import type { NewItem } from '../../../functions/memory/store/types.ts';
import { VectorCache, vectorSearch } from '../../../functions/memory/store/vectors.ts';

// insertItems writes a batch with one bulk statement per table (store/json-batches.ts); these
// tests read the rows back with plain SQL to show that each item lands exactly as it would alone.

function fact(content: string, values: Float32Array | null, extra: Partial<NewItem> = {}): NewItem {
  return {
    kind: 'fact',
    content,
    scopes: ['team:eng'],
    metadata: { n: content.length },
    sessionId: null,
    sourceId: null,
    vector: values ? { modelId: HASH_MODEL_ID, values } : null,
    ...extra,
  };
}

function bytes(v: Float32Array): number[] {
  return [...new Uint8Array(v.buffer, v.byteOffset, v.byteLength)];
}

describe('bulk insertItems', () => {
  it('stores every row, FTS entry, vector and entity link of a batch in batch order', async () => {
    const stub = env.CONTEXT_STORE.getByName('bulk-ingest-rows');
    await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      applyMigrations(state.storage);
      const contents = Array.from(
        { length: 100 },
        (_, i) =>
          `Fact ${i}: "Project Falcon" moved to Berlin with Ana Souza on 3 March 2024 ${i % 7 ? '#ops' : '@lead'}`,
      );
      contents[5] = 'Plain words with no entities and no dates';
      const items = contents.map((c, i) =>
        fact(c, i === 9 ? null : embedHashed(c), {
          ...(i === 1 ? { entities: ['Falcon Team', 'falcon team', 'Zed'] } : {}),
          ...(i === 2 ? { validFrom: '2023-05-08T10:00:00.000Z', session: 's1', position: 4 } : {}),
        }),
      );
      const now = '2024-06-01T12:00:00.000Z';
      const cache = new VectorCache();
      const records = state.storage.transactionSync(() => insertItems(sql, cache, items, now));

      expect(records.map((r) => r.content)).toEqual(contents);
      expect(new Set(records.map((r) => r.id)).size).toBe(100);
      for (const r of records) expect(r.id).toMatch(/^fact_[0-9a-z]{21}$/);
      const rows = sql
        .exec<{
          seq: number;
          id: string;
          scopes: string;
          metadata: string;
          valid_from: string;
          session_label: string | null;
          position: number | null;
        }>(
          'SELECT seq, id, scopes, metadata, valid_from, session_label, position FROM items ORDER BY seq',
        )
        .toArray();
      expect(rows.map((r) => r.id)).toEqual(records.map((r) => r.id));
      expect(rows[0]?.scopes).toBe('["team:eng"]');
      expect(JSON.parse(rows[3]?.metadata ?? 'null')).toEqual({ n: contents[3]?.length });
      expect(rows[2]).toMatchObject({
        valid_from: '2023-05-08T10:00:00.000Z',
        session_label: 's1',
        position: 4,
      });
      expect(rows[4]).toMatchObject({ valid_from: now, session_label: null, position: null });

      // FTS rows carry the item's seq as rowid, its content, its resolved date, answer-type and place terms.
      const fts = sql
        .exec<{ rowid: number; content: string; terms: string }>(
          'SELECT rowid, content, terms FROM items_fts ORDER BY rowid',
        )
        .toArray();
      expect(fts.map((f) => f.rowid)).toEqual(rows.map((r) => r.seq));
      fts.forEach((f, i) => {
        expect(f.content).toBe(contents[i]);
        // The resolved dates, then the text analysis's index words (lemmas, number spellings).
        expect(f.terms).toBe(
          [
            ...contentTimeTerms(contents[i] ?? '', i === 2 ? '2023-05-08T10:00:00.000Z' : now),
            ...answerTypeTerms(contents[i] ?? ''),
            ...placeTerms(contents[i] ?? ''),
            ...analyseContent(contents[i] ?? '').terms,
          ].join(' '),
        );
      });

      // Vectors come back byte for byte; the item without one has none.
      const vectors = sql
        .exec<{ item_seq: number; model_id: string; dims: number; vector: ArrayBuffer }>(
          'SELECT item_seq, model_id, dims, vector FROM item_vectors ORDER BY item_seq',
        )
        .toArray();
      expect(vectors).toHaveLength(99);
      const bySeq = new Map(vectors.map((v) => [v.item_seq, v]));
      rows.forEach((row, i) => {
        const v = bySeq.get(row.seq);
        const expected = items[i]?.vector?.values;
        if (!expected) return expect(v).toBeUndefined();
        expect(v?.model_id).toBe(HASH_MODEL_ID);
        expect(v?.dims).toBe(expected.length);
        expect([...new Uint8Array(v?.vector ?? new ArrayBuffer(0))]).toEqual(bytes(expected));
      });

      // Entity links: extracted names, or the given ones; a name keeps its first display.
      const links = sql
        .exec<{ item_seq: number; name: string }>(
          `SELECT ie.item_seq, e.name FROM item_entities ie JOIN entities e ON e.id = ie.entity_id`,
        )
        .toArray();
      rows.forEach((row, i) => {
        const names = links.filter((l) => l.item_seq === row.seq).map((l) => l.name);
        const expected = i === 1 ? ['falcon team', 'zed'] : extractEntities(contents[i] ?? '');
        expect(names.sort()).toEqual([...new Set(expected)].sort());
      });
      const display = sql
        .exec<{ display: string }>(`SELECT display FROM entities WHERE name = 'falcon team'`)
        .one().display;
      expect(display).toBe('Falcon Team');
      // Entity ids follow first mention, item by item, as one upsert per name would assign them.
      const order = sql.exec<{ name: string }>('SELECT name FROM entities ORDER BY id').toArray();
      const firstSeen = [...new Set([...extractEntities(contents[0] ?? ''), 'falcon team', 'zed'])];
      expect(order.slice(0, firstSeen.length).map((o) => o.name)).toEqual(firstSeen);

      // The in-memory vector cache saw the batch too.
      const hit = vectorSearch(
        sql,
        cache,
        { modelId: HASH_MODEL_ID, values: embedHashed(contents[42] ?? '') },
        1,
        () => true,
      );
      expect(hit[0]?.seq).toBe(rows[42]?.seq);
    });
  });

  it('splits a batch too large for one bound parameter into several statements', async () => {
    const stub = env.CONTEXT_STORE.getByName('bulk-ingest-large');
    await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      applyMigrations(state.storage);
      // 100 × 12,000 characters is several JSON chunks; 100 × 3,072 dims × 4 bytes is over 1 MiB.
      const items = Array.from({ length: 100 }, (_, i) => {
        const values = new Float32Array(3072).map((_, j) => ((i * 31 + j) % 97) / 97);
        return fact(`${'lorem ipsum '.repeat(1000)}marker${i}`, values);
      });
      const records = state.storage.transactionSync(() =>
        insertItems(sql, new VectorCache(), items, '2024-06-01T12:00:00.000Z'),
      );
      expect(records).toHaveLength(100);
      expect(sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM items').one().n).toBe(100);
      const found = sql
        .exec<{ rowid: number }>(`SELECT rowid FROM items_fts WHERE items_fts MATCH 'marker99'`)
        .toArray();
      expect(found).toHaveLength(1);
      for (const i of [0, 57, 99]) {
        const row = sql
          .exec<{ vector: ArrayBuffer }>(
            'SELECT v.vector FROM item_vectors v JOIN items i ON i.seq = v.item_seq WHERE i.id = ?',
            records[i]?.id ?? '',
          )
          .one();
        expect([...new Uint8Array(row.vector)]).toEqual(
          bytes(items[i]?.vector?.values ?? new Float32Array()),
        );
      }
    });
  });

  it('leaves nothing behind when a later table of the batch fails', async () => {
    const stub = env.CONTEXT_STORE.getByName('bulk-ingest-atomic');
    await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      applyMigrations(state.storage);
      const items = [
        fact('first fact', embedHashed('first fact')),
        fact('second fact', embedHashed('second')),
      ];
      // A vector without a model id breaks item_vectors' NOT NULL after items and FTS are written.
      const broken = items.map((item, i) =>
        i === 1 && item.vector
          ? { ...item, vector: { ...item.vector, modelId: null as unknown as string } }
          : item,
      );
      expect(() =>
        state.storage.transactionSync(() =>
          insertItems(sql, new VectorCache(), broken, '2024-06-01T12:00:00.000Z'),
        ),
      ).toThrow();
      for (const table of ['items', 'items_fts', 'item_vectors', 'entities', 'item_entities'])
        expect(sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`).one().n, table).toBe(
          0,
        );
    });
  });
});
