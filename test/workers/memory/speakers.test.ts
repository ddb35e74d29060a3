import { describe, expect, it } from 'vitest';
import { call, json, setup, writeTurns } from './helpers.ts';

interface Hit {
  id: string;
  content: string;
}

async function ask(ctx: string, key: string, query: string, mode: string): Promise<Hit[]> {
  const res = await call('POST', `/api/v1/${ctx}/query`, { key, body: { query, mode, k: 5 } });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await json<{ results: Hit[] }>(res)).results;
}

/** Small talk in another session, so that bm25's word rarity means something. */
const SMALL_TALK = [
  'Tobias: Morning! Coffee first, then emails.',
  'Maya: The weather is lovely today.',
  'Tobias: Did you watch the match last night?',
  'Maya: Traffic on the bridge was terrible again.',
  'Tobias: Lunch was a sad sandwich at the desk.',
  'Maya: The cat knocked a glass off the table.',
  'Tobias: Reading a long novel about sailors.',
  'Maya: Ordered new running shoes, they are bright orange.',
];

async function context(): Promise<{ ctx: string; key: string }> {
  const { ctx, key } = await setup();
  await writeTurns(ctx, key, 's0', SMALL_TALK);
  return { ctx, key };
}

describe('speaker names and question analysis in retrieval', () => {
  it('a first-person turn answers a question about its speaker before a turn that names them', async () => {
    const { ctx, key } = await context();
    const [, own] = await writeTurns(ctx, key, 's1', [
      'Melanie: Caroline keeps telling everyone about the support group.',
      'Caroline: I went to the support group on Tuesday, it was so powerful.',
      'Melanie: The group chat has been quiet all week.',
    ]);
    // bm25 is where the speaker's name acts (an index term of the first-person turn); without it
    // the shorter turn that merely names Caroline ranks first. The fused modes also weigh
    // thesaurus and graph arms, for which both turns are about Caroline and the support group.
    const hits = await ask(ctx, key, 'When did Caroline go to the support group?', 'bm25');
    expect(hits[0]?.id).toBe(own?.id);
  });

  it('"your" in a reply is the previous speaker, so a possessive question finds it', async () => {
    const { ctx, key } = await context();
    const [, reply] = await writeTurns(ctx, key, 's1', [
      'Caroline: The twins started at the new school this week.',
      'Melanie: How are your kids finding the teachers at the new school so far?',
      'Melanie: My kids are finding the teachers strict.',
    ]);
    const hits = await ask(ctx, key, "How are Caroline's kids finding the teachers?", 'bm25');
    expect(hits[0]?.id).toBe(reply?.id);
  });

  it('a past-tense turn matches the base form of the verb in the question', async () => {
    const { ctx, key } = await context();
    const [bought] = await writeTurns(ctx, key, 's1', [
      'Maya: I bought a second-hand piano from the neighbours.',
      'Tobias: The piano at the community hall is out of tune.',
    ]);
    const hits = await ask(ctx, key, 'What did Maya buy?', 'bm25');
    expect(hits[0]?.id).toBe(bought?.id);
  });
});

describe('expected answer types in the fused modes', () => {
  it('"which city" finds the turn that names one over a turn that shares its words', async () => {
    const { ctx, key } = await context();
    const [lease] = await writeTurns(ctx, key, 's1', [
      'Priya: Signed a lease last Friday! I am relocating to Brighton at the end of next month.',
      'Priya: We painted the living room a deep forest green last Saturday.',
      'Priya: My cousin is moving house again, third time this year.',
    ]);
    // Without the answer type the living-room turn ranks first ("live" / "living").
    for (const mode of ['hybrid', 'hybrid_graph']) {
      const hits = await ask(ctx, key, 'Which city does Priya live in now?', mode);
      expect(hits[0]?.id, mode).toBe(lease?.id);
    }
  });
});

describe('expected answer types in bm25 (as index terms)', () => {
  it('"which city" ranks the turn naming a place first when the shared word is everywhere', async () => {
    const { ctx, key } = await context();
    const [lease] = await writeTurns(ctx, key, 's1', [
      'Priya: Signed a lease! I am relocating to Brighton at the end of next month.',
      'Priya: We painted the living room a deep forest green.',
      'Priya: Living off toast this week, payday cannot come soon enough.',
      'Priya: The neighbours live on takeaway, I swear.',
      'Priya: My cousin is moving house again, third time this year.',
    ]);
    // Without `qaplace` the short "live" turns rank first: "Brighton" shares no word with it.
    const hits = await ask(ctx, key, 'Which city does Priya live in now?', 'bm25');
    expect(hits[0]?.id).toBe(lease?.id);
  });
});
