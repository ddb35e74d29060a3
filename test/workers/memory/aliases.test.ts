import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { resolveAliases } from '../../../functions/memory/store/aliases.ts';
import { deleteItemRow, getItemRow, insertItems } from '../../../functions/memory/store/items.ts';
import { aliasesStep } from '../../../functions/memory/store/schema/aliases.ts';
import { applyMigrations } from '../../../functions/memory/store/schema/runner.ts';
import { search } from '../../../functions/memory/store/search.ts';
import { probe } from '../../../functions/memory/store/search-probe.ts';
import type { NewItem } from '../../../functions/memory/store/types.ts';
import { VectorCache } from '../../../functions/memory/store/vectors.ts';
import { call, json, plainItem, setup, writeTurns } from './helpers.ts';

const EVERYTHING = [['*']];

/** Chat turns of one session, in order, with `scopes`. */
function turns(session: string, contents: string[], scopes: string[] = []): NewItem[] {
  return contents.map((content, position) => ({
    ...plainItem(content),
    scopes,
    session,
    position,
    validFrom: `2024-03-${String(position + 1).padStart(2, '0')}T09:00:00Z`,
  }));
}

const DAY_ONE = [
  'Jo: Morning Sammy! How did you sleep?',
  'Samantha: Badly, the neighbours had a party until three.',
  'Jo: Night Sam x',
];
const DAY_TWO = [
  'Samantha: I booked the judo class for Saturday morning.',
  'Jo: I booked the judo class too.',
  'Jo: How was your weekend Sam?',
];

describe('aliases: who is called what in a chat', () => {
  it('learns a vocative from two turns and reads it as the label in a question (API)', async () => {
    const { ctx, key } = await setup();
    // Small talk of other people, so that bm25's word rarity means something.
    await writeTurns(ctx, key, 'd0', [
      'Tobias: Morning! Coffee first, then emails.',
      'Maya: The weather is lovely today.',
      'Tobias: Did you watch the match last night?',
      'Maya: Traffic on the bridge was terrible again.',
      'Tobias: Lunch was a sad sandwich at the desk.',
      'Maya: The cat knocked a glass off the table.',
      'Tobias: Reading a long novel about sailors.',
      'Maya: Ordered new running shoes, they are bright orange.',
    ]);
    await writeTurns(ctx, key, 'd1', DAY_ONE);
    const [samantha] = await writeTurns(ctx, key, 'd2', DAY_TWO);
    const res = await call('POST', `/api/v1/${ctx}/query`, {
      key,
      body: { query: 'Did Sam book the judo class?', mode: 'bm25', k: 3 },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const { results } = await json<{ results: { id: string }[] }>(res);
    // As if asked "Did Samantha book the judo class?": her first-person turn carries her label as
    // an index term. Without the alias "Sam" matches only the vocatives, and Jo's booking, the
    // same words in a shorter turn, ranks first.
    expect(results[0]?.id).toBe(samantha?.id);
  });

  it('needs two agreeing turns, counts only turns the lens reads, and forgets a deleted turn', async () => {
    const stub = env.CONTEXT_STORE.getByName('aliases-votes');
    await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      const cache = new VectorCache();
      applyMigrations(state.storage);
      const now = '2024-03-10T12:00:00.000Z';
      const resolve = (lens: string[][]) =>
        Object.fromEntries(resolveAliases(sql, 'What does Sam play?', lens, probe(sql, true)));
      const [first] = insertItems(sql, cache, turns('a', DAY_ONE, ['team:a']), now);
      // One vocative: not yet an alias.
      expect(resolve(EVERYTHING)).toEqual({});
      insertItems(sql, cache, turns('b', ['Samantha: Hi!', 'Jo: Hey Sam'], ['team:b']), now);
      expect(resolve(EVERYTHING)).toEqual({ sam: 'Samantha' });
      // "sammy" and "sam" are two aliases; each lens sees one vote of "sam" only.
      expect(resolve([['team:a']])).toEqual({});
      expect(resolve([['team:b']])).toEqual({});
      const row = first ? getItemRow(sql, first.id) : null;
      expect(row).not.toBeNull();
      if (row) deleteItemRow(sql, cache, row);
      expect(
        sql.exec('SELECT COUNT(*) AS n FROM item_aliases WHERE item_seq = ?', row?.seq ?? -1).one()
          .n,
      ).toBe(0);
    });
  });

  it("finds a reader's votes behind many more of other readers', newest first", async () => {
    const stub = env.CONTEXT_STORE.getByName('aliases-behind');
    await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      const cache = new VectorCache();
      applyMigrations(state.storage);
      const now = '2024-03-10T12:00:00.000Z';
      const resolve = (lens: string[][]) =>
        Object.fromEntries(resolveAliases(sql, 'What does Sam play?', lens, probe(sql, true)));
      // Team b's chats call Samuel "Sam" in 250 sessions (500 votes); team a's, written after,
      // call Samantha so twice. Read oldest first, the 400 votes a question reads were all b's.
      for (let i = 0; i < 250; i += 50)
        state.storage.transactionSync(() => {
          for (let j = i; j < i + 50; j++)
            insertItems(
              sql,
              cache,
              turns(`b${j}`, ['Samuel: Hi!', 'Jo: Hey Sam', 'Jo: Night Sam'], ['team:b']),
              now,
            );
        });
      insertItems(sql, cache, turns('a', DAY_ONE, ['team:a']), now);
      insertItems(sql, cache, turns('a2', ['Samantha: Hi!', 'Jo: Hey Sam'], ['team:a']), now);
      expect(resolve([['team:a']])).toEqual({ sam: 'Samantha' });
      expect(resolve([['team:b']])).toEqual({ sam: 'Samuel' });
      // Both lenses: 500 of b's votes against 2 of a's; the newest 400 hold a's two.
      expect(resolve(EVERYTHING)).toEqual({ sam: 'Samuel' });
    });
  });

  it('does not rewrite a name called to two people, or a label called by its own name', async () => {
    const stub = env.CONTEXT_STORE.getByName('aliases-ambiguous');
    await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      const cache = new VectorCache();
      applyMigrations(state.storage);
      const now = '2024-03-10T12:00:00.000Z';
      insertItems(
        sql,
        cache,
        turns('a', ['Jo: Hey Priya', 'Priya: Hi!', 'Jo: Night Priya x']),
        now,
      );
      insertItems(sql, cache, turns('b', ['Jo: Hey Kit', 'Katherine: Hi!', 'Jo: Night Kit']), now);
      insertItems(sql, cache, turns('c', ['Jo: Hey Kit', 'Kitty: Hi!', 'Jo: Night Kit']), now);
      const resolved = resolveAliases(
        sql,
        'What did Kit and Priya cook?',
        EVERYTHING,
        probe(sql, true),
      );
      expect(Object.fromEntries(resolved)).toEqual({});
    });
  });

  it('a session opening on a vocative counts it for the speaker who answers', async () => {
    const stub = env.CONTEXT_STORE.getByName('aliases-opening');
    await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      const cache = new VectorCache();
      applyMigrations(state.storage);
      const now = '2024-03-10T12:00:00.000Z';
      insertItems(sql, cache, turns('a', ['Jo: Morning Shiv!', 'Siobhan: Morning!']), now);
      insertItems(sql, cache, turns('b', ['Jo: Hey Shiv', 'Siobhan: Hey you']), now);
      const resolved = resolveAliases(sql, 'Where did Shiv go?', EVERYTHING, probe(sql, true));
      expect(Object.fromEntries(resolved)).toEqual({ shiv: 'Siobhan' });
      const hits = search(sql, cache, {
        mode: 'bm25',
        text: 'What did Shiv say in the morning?',
        vector: null,
        k: 5,
        lens: EVERYTHING,
      });
      expect(hits.length).toBeGreaterThan(0);
    });
  });

  it('schema step 13 gives turns written before it their votes', async () => {
    const stub = env.CONTEXT_STORE.getByName('aliases-step');
    await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      const cache = new VectorCache();
      applyMigrations(state.storage, aliasesStep.version - 1);
      const now = '2024-03-10T12:00:00.000Z';
      insertItems(sql, cache, turns('a', ['Jo: Morning Gaz!', 'Gareth: Alright']), now);
      insertItems(
        sql,
        cache,
        turns('b', ['Gareth: Back from the gym', 'Jo: Nice one Gaz', 'Jo: Night Gaz x']),
        now,
      );
      applyMigrations(state.storage);
      const resolved = resolveAliases(sql, 'What does Gaz lift?', EVERYTHING, probe(sql, true));
      expect(Object.fromEntries(resolved)).toEqual({ gaz: 'Gareth' });
      expect(sql.exec('SELECT COUNT(*) AS n FROM item_aliases').one().n).toBe(2);
    });
  });
});
