import { describe, expect, it } from 'vitest';
import { call, json, setup, writeTurns } from './helpers.ts';

interface Hit {
  id: string;
  content: string;
}

async function ask(ctx: string, key: string, query: string, mode: string): Promise<string[]> {
  const res = await call('POST', `/api/v1/${ctx}/query`, { key, body: { query, mode, k: 3 } });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await json<{ results: Hit[] }>(res)).results.map((h) => h.content);
}

// Bologna: a city compromise's lexicon does not list, so only the gazetteer makes it a place.
const TRIP = 'Maya: Booked flights to Bologna! Ten whole days, no laptop.';

/** A conversation where only the gazetteer joins "country" and "Poland" to the trip. */
async function conversation(): Promise<{ ctx: string; key: string }> {
  const { ctx, key } = await setup();
  await writeTurns(
    ctx,
    key,
    's1',
    [
      'Maya: Saoirse wants us all to go on holiday together next summer. It will never happen.',
      'Tobias: Watched a documentary about the desert last night and now I want to go.',
      TRIP,
      'Tobias: Rent went up again. Every time I think about moving I remember how much I hate packing.',
      'Maya: The family group chat is arguing about who hosts Sunday lunch.',
      'Tobias: Hiya, long time no chat.',
      'Maya: Friends keep recommending a podcast about planning, I have not started it.',
    ],
    '2023-02',
  );
  return { ctx, key };
}

describe('places named in memories (gazetteer)', () => {
  it('answers "which country" with the turn that names a city of it', async () => {
    const { ctx, key } = await conversation();
    // bm25 ranks it first on "country" and the place answer type alone: the holiday small talk
    // shares "holiday" with the question and the trip shares no word with it.
    const question = 'Which country did Maya choose for the big holiday?';
    expect((await ask(ctx, key, question, 'bm25'))[0]).toBe(TRIP);
    for (const mode of ['hybrid', 'hybrid_graph']) {
      expect(await ask(ctx, key, question, mode), mode).toContain(TRIP);
    }
  });

  it('finds the city when the question names only its country', async () => {
    const { ctx, key } = await conversation();
    for (const mode of ['bm25', 'hybrid', 'hybrid_graph']) {
      const top = await ask(ctx, key, 'Would Maya recommend Italy to a friend?', mode);
      expect(top, mode).toContain(TRIP);
    }
  });
});
