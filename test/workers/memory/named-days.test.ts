import { describe, expect, it } from 'vitest';
import { call, issueKey, json, setup } from './helpers.ts';

// Issue 42 item 3: "a question naming a day matches turns whose `valid_from` falls on it". A chat
// tells what happened that day (or the next morning: "last night"), in words the question does
// not use, while other days' small talk shares the question's words. The day's turns are lifted
// above the others (retrieval/named-days.ts), the other arms still ordering them.

/** One session a day, a few turns each: [day, speaker's turns]. */
const DAYS: [string, string[]][] = [
  [
    '2024-12-10',
    [
      'Maya: What should I cook for dinner this week, I am out of ideas.',
      'Tobias: Cook something with lots of garlic.',
    ],
  ],
  [
    '2024-12-12',
    [
      'Maya: Cooking dinner for my sister tonight, wish me luck.',
      'Tobias: You will be fine, just do not cook fish.',
    ],
  ],
  // The day itself: small talk, which holds the day's date token too.
  [
    '2024-12-14',
    [
      'Maya: Morning! The bus was late again.',
      'Tobias: Typical. Mine was fine for once.',
      'Maya: My sister says hi.',
      'Tobias: Hi back!',
      'Maya: Off to the shops, talk later.',
    ],
  ],
  // The answer: told the next morning, "last night" being the 14th.
  [
    '2024-12-15',
    [
      'Maya: Made a huge pot of chilli last night, eating the leftovers now.',
      'Tobias: Save me some!',
    ],
  ],
  [
    '2024-12-17',
    ['Maya: I hate cooking when I am tired.', 'Tobias: Dinner from the freezer then.'],
  ],
  ['2024-12-18', ['Maya: Did you cook the curry I sent you?', 'Tobias: I will cook it tonight.']],
  ['2024-12-20', ['Maya: I want to cook more, I keep buying takeaways.', 'Tobias: Same.']],
  ['2024-12-21', ['Maya: My mum taught me to cook her soup.', 'Tobias: Lucky you.']],
];

/** The turns, each day its own session; `scopes` of the answer's day. */
async function writeDays(ctx: string, key: string, answerScopes: string[]): Promise<void> {
  const facts = DAYS.flatMap(([day, turns]) =>
    turns.map((content, position) => ({
      content,
      scopes: day === '2024-12-15' ? answerScopes : ['team:eng'],
      session: `chat-${day}`,
      position,
      valid_from: `${day}T${String(8 + position).padStart(2, '0')}:00:00.000Z`,
    })),
  );
  const res = await call('POST', `/api/v1/${ctx}/facts/batch`, { key, body: { facts } });
  expect(res.status, await res.clone().text()).toBe(201);
}

async function ranked(ctx: string, key: string, query: string, mode: string): Promise<string[]> {
  const res = await call('POST', `/api/v1/${ctx}/query`, { key, body: { query, mode, k: 3 } });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await json<{ results: { content: string }[] }>(res)).results.map((r) => r.content);
}

const ANSWER = 'Maya: Made a huge pot of chilli last night, eating the leftovers now.';

describe('a question naming a day (issue 42, item 3)', () => {
  for (const mode of ['hybrid', 'hybrid_graph']) {
    it(`${mode}: finds what was told of that day first, in whichever form the day is written`, async () => {
      const { ctx, key } = await setup();
      await writeDays(ctx, key, ['team:eng']);
      for (const question of [
        'What did Maya cook on 14.12.2024?',
        'What did Maya cook on Dec 14, 2024?',
        'What did Maya cook on 2024-12-14?',
      ])
        expect((await ranked(ctx, key, question, mode))[0], question).toBe(ANSWER);
      // Without a day, the turns that share the question's words come first.
      expect(await ranked(ctx, key, 'What did Maya cook?', mode)).not.toContain(ANSWER);
    });

    it(`${mode}: a turn of that day the reader may not read is not lifted into view`, async () => {
      const { ctx, key } = await setup();
      await writeDays(ctx, key, ['team:hr']);
      const reader = await issueKey(ctx, { 'memory:read': ['team:eng'] });
      const hits = await ranked(ctx, reader, 'What did Maya cook on 14.12.2024?', mode);
      expect(hits).toHaveLength(3);
      expect(JSON.stringify(hits)).not.toContain('chilli');
    });
  }
});
