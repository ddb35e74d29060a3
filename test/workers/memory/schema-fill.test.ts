import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { JobEnvelope } from '../../../functions/memory/jobs/messages.ts';
import { migrateContext } from '../../../functions/memory/jobs/migrate-context.ts';
import { contentTimeTerms, STATES_A_TIME } from '../../../functions/memory/retrieval/time-terms.ts';
import { deleteItemRow, getItemRow, insertItems } from '../../../functions/memory/store/items.ts';
import { search } from '../../../functions/memory/store/search.ts';
import { hasConversation } from '../../../functions/memory/store/validity.ts';
import { migrateFenced } from '../../../functions/memory/store/migrate-fenced.ts';
import type { NewItem } from '../../../functions/memory/store/types.ts';
import { aliasesStep } from '../../../functions/memory/store/schema/aliases.ts';
import { conversationTime } from '../../../functions/memory/store/schema/conversation-time.ts';
import { answerTypeTermsStep } from '../../../functions/memory/store/schema/answer-type-terms.ts';
import { LATEST_SCHEMA_VERSION } from '../../../functions/memory/store/schema/index.ts';
import { placeTermsStep } from '../../../functions/memory/store/schema/place-terms.ts';
import {
  applyMigrations,
  FILL_PIECE,
  readSchemaVersion,
} from '../../../functions/memory/store/schema/runner.ts';
import { VectorCache } from '../../../functions/memory/store/vectors.ts';
import { plainItem } from './helpers.ts';

// The schema steps that rewrite every row (answer-type terms, place terms) go in pieces of
// FILL_PIECE rows, a bounded number a migration call (store/migrate-fenced.ts), and end where one
// unbounded run ends: at a million facts one run took 39 s and held every row in memory.

const N = 4_500;
const SAYS = [
  'Maya: Pia had the baby last Friday!',
  'Tom: booked flights to Kyoto for the spring.',
  'Maya: I am relocating to Brighton.',
  'Tom: the blue kettle is on the shelf.',
];
const text = (i: number) => `${SAYS[i % SAYS.length] ?? ''} (${i})`;

/** A Context at the version before the steps, its rows as written then (without the tokens). */
function before(storage: DurableObjectStorage): void {
  const sql = storage.sql;
  applyMigrations(storage, answerTypeTermsStep.version - 1);
  for (let i = 0; i < N; i += 500)
    storage.transactionSync(() =>
      insertItems(
        sql,
        new VectorCache(),
        Array.from({ length: Math.min(500, N - i) }, (_, j) => plainItem(text(i + j))),
        '2023-06-04T18:00:00.000Z',
      ),
    );
  for (const token of [STATES_A_TIME, 'qaplace', 'qaperson', 'japan', 'city', 'country'])
    sql.exec(`UPDATE items_fts SET terms = trim(replace(terms, ?, ''))`, token);
}

function allTerms(sql: SqlStorage): string[] {
  return sql
    .exec<{ terms: string }>('SELECT terms FROM items_fts ORDER BY rowid')
    .toArray()
    .map((r) => r.terms);
}

describe('schema steps that rewrite every row', () => {
  it('go in pieces a bounded number of rows a call and end as one unbounded run does', async () => {
    const whole = await runInDurableObject(
      env.CONTEXT_STORE.getByName('schema-fill-whole'),
      (_obj, state) => {
        before(state.storage);
        applyMigrations(state.storage);
        return allTerms(state.storage.sql);
      },
    );
    expect(whole.filter((t) => t.includes('qaplace')).length).toBeGreaterThan(N / 3);
    await runInDurableObject(env.CONTEXT_STORE.getByName('schema-fill-pieces'), (_obj, state) => {
      const sql = state.storage.sql;
      before(state.storage);
      expect(allTerms(sql)).not.toEqual(whole);
      const versions: number[] = [];
      let calls = 0;
      for (;;) {
        const run = migrateFenced(state.storage, 1, LATEST_SCHEMA_VERSION, FILL_PIECE);
        if (!run.ok) throw new Error(run.error);
        calls++;
        versions.push(readSchemaVersion(sql));
        if (!run.pending || calls > 20) break;
      }
      // 4,500 rows in pieces of 2,000 a call: three calls a step; then step 13's one piece (these
      // items are no conversation turns) after step 12, and the steps after it.
      expect(calls).toBe(7);
      expect(versions.slice(0, 2)).toEqual([9, 9]);
      expect(versions[2]).toBe(answerTypeTermsStep.version);
      expect(versions[4]).toBe(answerTypeTermsStep.version);
      expect(versions[5]).toBe(aliasesStep.version - 1);
      expect(versions[6]).toBe(LATEST_SCHEMA_VERSION);
      expect(placeTermsStep.version).toBe(answerTypeTermsStep.version + 1);
      expect(allTerms(sql)).toEqual(whole);
    });
  });

  it('step 7 builds its index beside the one readers use, in pieces, and swaps it in with the last', async () => {
    await runInDurableObject(env.CONTEXT_STORE.getByName('schema-fill-step7'), (_obj, state) => {
      const sql = state.storage.sql;
      const cache = new VectorCache();
      const write = (texts: string[], at: string) =>
        state.storage.transactionSync(() => insertItems(sql, cache, texts.map(plainItem), at));
      const count = (table: string) =>
        sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`).one().n;
      const tables = () =>
        sql
          .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE name LIKE 'items_fts%'")
          .toArray()
          .map((r) => r.name);
      applyMigrations(state.storage, conversationTime.version - 1);
      for (let i = 0; i < N; i += 500)
        write(
          Array.from({ length: Math.min(500, N - i) }, (_, j) => text(i + j)),
          '2023-06-04T18:00:00.000Z',
        );
      const step = () => migrateFenced(state.storage, 1, conversationTime.version, FILL_PIECE);
      const first = step();
      expect(first).toMatchObject({ ok: true, pending: true });
      // One piece is in the new index; readers and writers meanwhile are the version before's.
      expect(readSchemaVersion(sql)).toBe(conversationTime.version - 1);
      expect(count('items_fts_next')).toBe(FILL_PIECE);
      expect(count('items_fts')).toBe(N);
      expect(hasConversation(sql)).toBe(false);
      const bm25 = (q: string) =>
        search(sql, cache, { mode: 'bm25', text: q, vector: null, k: 5, lens: [['*']] });
      expect(bm25('blue kettle shelf')).toHaveLength(5);
      // Written during the fill (after the pieces done so far), and one deleted that a piece copied.
      const [late] = write(['Tom: the red kettle whistles at dawn.'], '2024-02-29T07:00:00.000Z');
      const copied = sql.exec<{ id: string }>('SELECT id FROM items WHERE seq = 7').one().id;
      const row = getItemRow(sql, copied);
      if (!row) throw new Error('no row 7');
      state.storage.transactionSync(() => deleteItemRow(sql, cache, row));
      expect(bm25('red kettle whistles')[0]?.id).toBe(late?.id);
      let calls = 1;
      for (let run = step(); run.ok && calls < 10; run = step()) {
        calls++;
        if (!run.pending) break;
      }
      // 4,501 rows, 2,000 a call: the last call copies the 501 left and swaps.
      expect(calls).toBe(3);
      expect(readSchemaVersion(sql)).toBe(conversationTime.version);
      expect(tables()).not.toContain('items_fts_next');
      expect(hasConversation(sql)).toBe(true);
      // Every item once, with its date terms (from its stored valid_from), and nothing else.
      const items = sql
        .exec<{ seq: number; content: string; valid_from: string | null }>(
          'SELECT seq, content, valid_from FROM items ORDER BY seq',
        )
        .toArray();
      expect(items.every((r) => r.valid_from !== null)).toBe(true);
      expect(items.some((r) => r.seq === 7)).toBe(false);
      expect(items).toHaveLength(N);
      const index = sql
        .exec<{ seq: number; content: string; terms: string }>(
          'SELECT rowid AS seq, content, terms FROM items_fts ORDER BY rowid',
        )
        .toArray();
      expect(index).toEqual(
        items.map((r) => ({
          seq: r.seq,
          content: r.content,
          terms: contentTimeTerms(r.content, r.valid_from ?? '').join(' '),
        })),
      );
      expect(index.at(-1)?.terms).toContain('dy20240229');
      expect(count('items_fts_vocab')).toBeGreaterThan(10);
      expect(bm25('red kettle whistles')[0]?.id).toBe(late?.id);
    });
  });

  it('a migration job whose call left rows to do hands the rest to a successor', async () => {
    const sent: JobEnvelope[] = [];
    const calls: number[] = [];
    const store = {
      migrateSchema: async (_token: number, target: number) => {
        calls.push(target);
        return { ok: true, version: 10, applied: [], pending: calls.length === 1 };
      },
    };
    const scripted = {
      ...env,
      CONTEXT_STORE: { getByName: () => store },
      JOBS: { send: async (job: JobEnvelope) => void sent.push(job) },
    } as unknown as Env;
    const job = {
      kind: 'context_migrate',
      job_id: 'job_fill_1',
      context_id: 'schema-fill-job',
      target_version: LATEST_SCHEMA_VERSION,
    } as const;
    await migrateContext(job, scripted);
    expect(sent).toEqual([{ ...job, job_id: expect.stringMatching(/^job_/) }]);
    expect(sent[0]?.job_id).not.toBe(job.job_id);
    // The successor's run finishes the step: no further job.
    await migrateContext({ ...job, job_id: sent[0]?.job_id ?? '' }, scripted);
    expect(sent).toHaveLength(1);
    expect(calls).toEqual([LATEST_SCHEMA_VERSION, LATEST_SCHEMA_VERSION]);
  });

  it('step 13 casts the votes of whole sessions a piece at a time, a long session read whole', async () => {
    // Sessions of 2, 7 (longer than a piece of 3 rows) and 3 turns, labels out of write order.
    const sessions: [string, string[]][] = [
      ['b', ['Jo: Morning Gaz!', 'Gareth: Alright']],
      [
        'a',
        [
          'Gareth: Back from the gym',
          'Jo: Nice one Gaz',
          'Gareth: Legs tomorrow',
          'Jo: Rather you than me Gaz',
          'Mia: Hi Jo!',
          'Jo: Hey Mimi',
          'Jo: Night Gaz x',
        ],
      ],
      ['c', ['Mia: Cinema later?', 'Jo: Sure Mimi', 'Mia: 8pm then']],
    ];
    const write = (storage: DurableObjectStorage): void => {
      applyMigrations(storage, aliasesStep.version - 1);
      for (const [session, contents] of sessions) {
        const items = contents.map((content, position): NewItem => ({
          ...plainItem(content),
          session,
          position,
        }));
        insertItems(storage.sql, new VectorCache(), items, '2024-03-10T12:00:00.000Z');
      }
    };
    const votes = (sql: SqlStorage) =>
      sql
        .exec<{ alias: string; item_seq: number; name: string }>(
          'SELECT alias, item_seq, name FROM item_aliases ORDER BY item_seq, alias',
        )
        .toArray();
    const whole = await runInDurableObject(
      env.CONTEXT_STORE.getByName('schema-fill-aliases-whole'),
      (_obj, state) => {
        write(state.storage);
        applyMigrations(state.storage);
        return votes(state.storage.sql);
      },
    );
    expect(whole.length).toBeGreaterThan(3);
    await runInDurableObject(
      env.CONTEXT_STORE.getByName('schema-fill-aliases-pieces'),
      (_obj, state) => {
        write(state.storage);
        const cursors: (string | undefined)[] = [];
        for (let calls = 0; calls < 20; calls++) {
          const run = migrateFenced(state.storage, 1, aliasesStep.version, 3);
          if (!run.ok) throw new Error(run.error);
          cursors.push(
            state.storage.sql
              .exec<{ value: string }>(`SELECT value FROM _meta WHERE key = 'filling'`)
              .toArray()[0]?.value,
          );
          if (!run.pending) break;
        }
        // Session a (7 turns) whole, then b, then c with the last piece.
        expect(cursors).toEqual(['13:a', '13:b', undefined]);
        expect(readSchemaVersion(state.storage.sql)).toBe(aliasesStep.version);
        expect(votes(state.storage.sql)).toEqual(whole);
      },
    );
  });
});
