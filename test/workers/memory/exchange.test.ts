import { describe, expect, it } from 'vitest';
import { call, issueKey, json, setup } from './helpers.ts';

// Issue 10 item 5: news is often told over an exchange: the news, the other speaker's question,
// then the teller's reply, which says little by itself ("Annoyingly happy."). A query that finds
// the news lends to that reply across the question (retrieval/conversation.ts `lendsTo`), and a
// question the reader may not read links nothing.

const EXCHANGE = [
  {
    content: 'Maya: Pia went off to Cardiff last year and keeps sending me photos of the bay.',
    scopes: ['team:eng'],
  },
  { content: 'Tobias: Is she happy there?', scopes: ['team:hr'] },
  { content: 'Maya: Annoyingly happy.', scopes: ['team:eng'] },
  { content: 'Tobias: Good for her, honestly.', scopes: ['team:eng'] },
];

const FILLER = [
  'Maya: The bus into town was late again this morning.',
  'Tobias: I finally fixed the leaking tap in the kitchen.',
  'Maya: My sister wants to start a book club, she has never read a book.',
  'Tobias: Work has been quiet, which suits me fine.',
  'Maya: We painted the living room a soft sage last week.',
  'Tobias: The new cafe on the corner does a brilliant flat white.',
  'Maya: I am trying to eat less sugar, it is not going well.',
  'Tobias: My neighbour keeps parking across my drive.',
  'Maya: Watched a documentary about whales last night.',
  'Tobias: The gym was heaving, so I went for a run instead.',
];

async function writeTurns(ctx: string, key: string, middleAsks: boolean): Promise<void> {
  const turns = EXCHANGE.map((t, i) =>
    i === 1 && !middleAsks ? { ...t, content: 'Tobias: She always wanted to live by the sea.' } : t,
  );
  const res = await call('POST', `/api/v1/${ctx}/facts/batch`, {
    key,
    body: {
      facts: [
        ...turns.map((t, position) => ({ ...t, session: 'news', position })),
        ...FILLER.map((content, i) => ({
          content,
          scopes: ['team:eng'],
          session: `chat-${i}`,
          position: 0,
        })),
      ],
    },
  });
  expect(res.status, await res.clone().text()).toBe(201);
}

/** Every turn for the question, best first (fourteen turns in all). */
async function ranked(ctx: string, key: string, mode: string): Promise<string[]> {
  const res = await call('POST', `/api/v1/${ctx}/query`, {
    key,
    body: { query: 'Does Pia like living in Cardiff?', mode, k: 20 },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await json<{ results: { content: string }[] }>(res)).results.map((r) => r.content);
}

const REPLY = 'Maya: Annoyingly happy.';

/** Where the reply ranks (1 = first) when its turns are written with or without the question. */
async function replyRank(mode: string, middleAsks: boolean, readerScopes?: string[]) {
  const { ctx, key } = await setup();
  await writeTurns(ctx, key, middleAsks);
  const reader = readerScopes ? await issueKey(ctx, { 'memory:read': readerScopes }) : key;
  const hits = await ranked(ctx, reader, mode);
  expect(hits[0]).toBe(EXCHANGE[0]?.content);
  return { rank: hits.indexOf(REPLY) + 1, hits };
}

// The reply shares no word with the question, so alone it ranks among the small talk (8th of 14
// with the local model). The news lends it its score across the question: it moves up into the
// top five, where the news already leads.
describe('news told over an exchange', () => {
  for (const mode of ['hybrid', 'hybrid_graph']) {
    it(`${mode}: the reply after the other speaker's question comes with the news`, async () => {
      const across = await replyRank(mode, true);
      const alone = await replyRank(mode, false);
      expect(across.rank).toBeGreaterThan(0);
      expect(across.rank).toBeLessThanOrEqual(5);
      expect(across.rank).toBeLessThan(alone.rank);
    });

    it(`${mode}: without a question between them the reply is just another turn`, async () => {
      const { rank } = await replyRank(mode, false);
      expect(rank).toBeGreaterThan(5);
    });

    it(`${mode}: a question the reader may not read links nothing`, async () => {
      const { rank, hits } = await replyRank(mode, true, ['team:eng']);
      expect(JSON.stringify(hits)).not.toContain('happy there');
      // Without the question in its lens, the reader sees the reply as if nobody had asked.
      expect(rank).toBeGreaterThan(5);
    });
  }
});
