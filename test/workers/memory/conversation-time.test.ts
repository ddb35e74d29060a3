import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { STATES_A_TIME } from '../../../functions/memory/retrieval/time-terms.ts';
import { conversationTime } from '../../../functions/memory/store/schema/conversation-time.ts';
import { answerTypeTermsStep } from '../../../functions/memory/store/schema/answer-type-terms.ts';
import { applyMigrations } from '../../../functions/memory/store/schema/runner.ts';
import { getItemRow, insertItems, toRecord } from '../../../functions/memory/store/items.ts';
import { search } from '../../../functions/memory/store/search.ts';
import { VectorCache } from '../../../functions/memory/store/vectors.ts';
import { call, countFacts, expectProblem, json, plainItem, setup } from './helpers.ts';

interface Fact {
  id: string;
  content: string;
  valid_from: string;
  session: string | null;
  position: number | null;
}

async function write(ctx: string, key: string, body: Record<string, unknown>): Promise<Fact> {
  const res = await call('POST', `/api/v1/${ctx}/facts`, { key, body });
  expect(res.status, await res.clone().text()).toBe(201);
  const fact = (await json<{ facts: Fact[] }>(res)).facts[0];
  if (!fact) throw new Error('no fact returned');
  return fact;
}

async function ask(
  ctx: string,
  key: string,
  query: string,
  mode: string,
): Promise<{ mode: string; results: Fact[] }> {
  const res = await call('POST', `/api/v1/${ctx}/query`, { key, body: { query, mode, k: 10 } });
  expect(res.status, await res.clone().text()).toBe(200);
  return json(res);
}

describe('valid_from, session and position on facts', () => {
  it('round-trip through create, batch, get, list and query (UTC-normalised; null when absent)', async () => {
    const { ctx, key } = await setup();
    const one = await write(ctx, key, {
      content: 'Maya: Signed a lease last Thursday!',
      valid_from: '2023-04-15T20:00:00+02:00',
      session: 'c01-s13',
      position: 9,
    });
    expect(one).toMatchObject({
      valid_from: '2023-04-15T18:00:00.000Z',
      session: 'c01-s13',
      position: 9,
    });
    const plain = await write(ctx, key, { content: 'Tobias: Photos please.' });
    expect(plain.session).toBeNull();
    expect(plain.position).toBeNull();
    expect(Date.parse(plain.valid_from)).toBeGreaterThan(Date.parse('2024-01-01'));

    const batch = await call('POST', `/api/v1/${ctx}/facts/batch`, {
      key,
      body: {
        facts: [
          {
            content: 'Maya: Welcome home!',
            valid_from: '2023-04-15T17:59:00Z',
            session: 'c01-s13',
            position: 8,
          },
          {
            content: 'Maya: Off to Cardiff.',
            valid_from: '2023-04-15T18:01:00Z',
            session: 'c01-s13',
            position: 10,
          },
        ],
      },
    });
    expect(batch.status).toBe(201);
    const stored = (await json<{ facts: Fact[] }>(batch)).facts;
    expect(stored.map((f) => [f.session, f.position])).toEqual([
      ['c01-s13', 8],
      ['c01-s13', 10],
    ]);

    const got = await json<Fact>(await call('GET', `/api/v1/${ctx}/facts/${one.id}`, { key }));
    expect(got).toMatchObject({
      valid_from: '2023-04-15T18:00:00.000Z',
      session: 'c01-s13',
      position: 9,
    });
    const list = await json<{ facts: Fact[] }>(await call('GET', `/api/v1/${ctx}/facts`, { key }));
    expect(list.facts.find((f) => f.id === one.id)?.position).toBe(9);
    for (const mode of ['bm25', 'hybrid', 'hybrid_graph']) {
      const hit = (await ask(ctx, key, 'lease signed', mode)).results.find((r) => r.id === one.id);
      expect(hit).toMatchObject({
        valid_from: '2023-04-15T18:00:00.000Z',
        session: 'c01-s13',
        position: 9,
      });
    }
  });

  it.each([
    [{ valid_from: 'last Tuesday' }, 'valid_from'],
    [{ valid_from: '2023-13-45T00:00:00Z' }, 'valid_from'],
    [{ position: -1 }, 'position'],
    [{ position: 1.5 }, 'position'],
    [{ session: '' }, 'session'],
    [{ session: 'x'.repeat(129) }, 'session'],
  ])(
    'rejects %j with a validation problem naming the field, storing nothing',
    async (extra, field) => {
      const { ctx, key } = await setup();
      const single = await expectProblem(
        await call('POST', `/api/v1/${ctx}/facts`, { key, body: { content: 'x', ...extra } }),
        400,
        'validation-error',
      );
      expect(single.detail).toContain(field);
      await expectProblem(
        await call('POST', `/api/v1/${ctx}/facts/batch`, {
          key,
          body: { facts: [{ content: 'fine' }, { content: 'x', ...extra }] },
        }),
        400,
        'validation-error',
      );
      expect(await countFacts(ctx, key)).toBe(0);
    },
  );
});

describe('relative dates resolved at write time', () => {
  it('a question naming a date finds the turn that said "yesterday" the day after', async () => {
    const { ctx, key } = await setup();
    const may = await write(ctx, key, {
      content: 'Mel: We took the kids to the lake yesterday',
      valid_from: '2023-05-08T13:56:00Z',
    });
    const june = await write(ctx, key, {
      content: 'Mel: We took the kids to the lake yesterday',
      valid_from: '2023-06-20T09:00:00Z',
    });
    for (const mode of ['bm25', 'hybrid', 'hybrid_graph']) {
      const may7 = await ask(ctx, key, 'Where did Mel take the kids on 7 May 2023?', mode);
      expect(may7.results[0]?.id, mode).toBe(may.id);
      const june19 = await ask(ctx, key, 'Where did Mel take the kids on 19 June 2023?', mode);
      expect(june19.results[0]?.id, mode).toBe(june.id);
    }
  });
});

describe('a question asking when', () => {
  it('ranks the turn that says when something happened above turns sharing only its words', async () => {
    const { ctx, key } = await setup();
    const small = [
      'The weather has been grim all week.',
      'Made a lasagne and ate half of it standing up.',
      'My cousin got a new games console and has not been seen since.',
      'Hmm, tell me more.',
      'Rent went up again.',
      'The cat knocked a plant off the shelf.',
      'Work is fine, mostly meetings.',
      'Watched a documentary about whales.',
      'I need a new coat before winter.',
      'The bus was late again.',
    ];
    const batch = await call('POST', `/api/v1/${ctx}/facts/batch`, {
      key,
      body: {
        facts: [
          ...small.map((text, i) => ({
            content: `Maya: ${text}`,
            valid_from: `2023-05-${String(10 + i).padStart(2, '0')}T18:00:00Z`,
          })),
          { content: 'Maya: Pia says hi.', valid_from: '2023-05-21T18:00:00Z' },
          {
            content: 'Maya: I feel for the parents at the school gate.',
            valid_from: '2023-05-22T18:00:00Z',
          },
        ],
      },
    });
    expect(batch.status, await batch.clone().text()).toBe(201);
    const baby = await write(ctx, key, {
      content: 'Maya: Pia had the baby last Friday! A little boy called Arlo.',
      valid_from: '2023-06-04T18:00:00Z',
    });
    for (const mode of ['bm25', 'hybrid', 'hybrid_graph']) {
      const found = await ask(ctx, key, 'When did Pia become a parent?', mode);
      expect(found.results[0]?.id, mode).toBe(baby.id);
    }
  });
});

describe('schema step conversation-time', () => {
  it('migrates existing items: valid_from from created_at, FTS rebuilt with date terms', async () => {
    const stub = env.CONTEXT_STORE.getByName('conversation-time-migration');
    await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      const cache = new VectorCache();
      applyMigrations(state.storage, conversationTime.version - 1);
      const [before] = insertItems(
        sql,
        cache,
        [
          {
            kind: 'fact',
            content: 'The boiler was serviced in March',
            scopes: [],
            metadata: null,
            sessionId: null,
            sourceId: null,
            vector: null,
          },
        ],
        '2024-03-05T10:00:00.000Z',
      );
      expect(before?.session).toBeNull();
      applyMigrations(state.storage);
      const row = before ? getItemRow(sql, before.id) : null;
      expect(row && toRecord(row)).toMatchObject({
        valid_from: '2024-03-05T10:00:00.000Z',
        session: null,
        position: null,
      });
      const req = { vector: null, k: 5, lens: [['*']] };
      expect(search(sql, cache, { ...req, mode: 'bm25', text: 'boiler serviced' })).toHaveLength(1);
      // The date terms of the rebuilt index: written on 5 March 2024.
      expect(
        search(sql, cache, { ...req, mode: 'bm25', text: 'what happened on 5 March 2024' })[0]
          ?.content,
      ).toBe('The boiler was serviced in March');
    });
  });
});

describe('schema step answer-type-terms', () => {
  it('gives existing items the answer-type terms of what they state (time, place, person), and only those', async () => {
    const stub = env.CONTEXT_STORE.getByName('answer-type-terms-migration');
    await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      const cache = new VectorCache();
      applyMigrations(state.storage, answerTypeTermsStep.version - 1);
      const [said, plain, moved] = insertItems(
        sql,
        cache,
        [
          plainItem('Maya: Pia had the baby last Friday!'),
          plainItem('Maya: Pia says hi.'),
          plainItem('Maya: I am relocating to Brighton.'),
        ],
        '2023-06-04T18:00:00.000Z',
      );
      // As written before the step: the same terms without the tokens.
      for (const token of [STATES_A_TIME, 'qaplace', 'qaperson'])
        sql.exec(`UPDATE items_fts SET terms = trim(replace(terms, ?, ''))`, token);
      const terms = (id: string | undefined) => {
        const row = id ? getItemRow(sql, id) : null;
        return sql
          .exec<{ terms: string }>('SELECT terms FROM items_fts WHERE rowid = ?', row?.seq ?? -1)
          .one()
          .terms.split(' ');
      };
      expect(terms(said?.id)).not.toContain(STATES_A_TIME);
      expect(terms(moved?.id)).not.toContain('qaplace');
      applyMigrations(state.storage);
      expect(terms(said?.id)).toContain(STATES_A_TIME);
      expect(terms(said?.id)).toContain('dy20230602');
      expect(terms(said?.id)).toContain('qaperson');
      expect(terms(plain?.id)).toEqual(expect.arrayContaining(['qaperson']));
      expect(terms(plain?.id)).not.toContain(STATES_A_TIME);
      expect(terms(plain?.id)).not.toContain('qaplace');
      expect(terms(moved?.id)).toContain('qaplace');
      expect(terms(moved?.id)).not.toContain('qaperson');
    });
  });
});
