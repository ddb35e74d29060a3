import { describe, expect, it } from 'vitest';
import { call, json, setup, writeTurns } from './helpers.ts';

// Issue 42, item 4: a question that gathers by kind ("What sports does Maya play?") meets the
// turns that name a member of the kind ("tennis", "judo") and never the kind itself: its bm25
// list also looks for the nouns WordNet files under the kind (retrieval/kinds.ts). bm25 mode
// shows it alone: without them no word of the question but the name is in those turns, and the
// chatty turn that says "sports" and Maya's shorter turns fill the top 3.
describe('kinds: a gathering question meets the members of its kind', () => {
  it('finds the turns naming sports for "What sports does Maya play?" (bm25, API)', async () => {
    const { ctx, key } = await setup();
    await writeTurns(ctx, key, 'd1', [
      'Tobias: Morning! Coffee first, then emails.',
      'Maya: Work is doing a sports day next month, I am dreading it.',
      'Tobias: The traffic on the bridge was terrible again.',
      'Maya: My cat knocked a glass off the table.',
    ]);
    const [tennis] = await writeTurns(ctx, key, 'd2', [
      'Maya: Lost my tennis match in straight sets, my backhand has left me.',
      'Tobias: Reading a long novel about sailors.',
    ]);
    const [judo] = await writeTurns(ctx, key, 'd3', [
      'Maya: Judo was brutal tonight, I got thrown about twenty times.',
      'Tobias: Lunch was a sad sandwich at the desk.',
      'Maya: I ordered new shoes, bright orange.',
      'Tobias: Did you see the news about the bridge?',
    ]);
    const ask = async (query: string) => {
      const res = await call('POST', `/api/v1/${ctx}/query`, {
        key,
        body: { query, mode: 'bm25', k: 3 },
      });
      expect(res.status, await res.clone().text()).toBe(200);
      return (await json<{ results: { id: string }[] }>(res)).results.map((r) => r.id);
    };
    const sports = await ask('What sports does Maya play?');
    expect(sports).toContain(tennis?.id);
    expect(sports).toContain(judo?.id);
    // Only a question that names the kind it asks for asks by kind: the same words as a yes/no
    // question match "sports" and Maya's shorter turns, not her tennis.
    const plain = await ask('Does Maya play sports?');
    expect(plain).not.toContain(tennis?.id);
  });
});
