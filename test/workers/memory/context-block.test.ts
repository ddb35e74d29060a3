import { describe, expect, it } from 'vitest';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { call, expectProblem, issueKey, json, setup, writeFact } from './helpers.ts';

interface Block {
  context: string;
  items: { id: string; kind: string; content: string }[];
  tokens: number;
  max_tokens: number;
}

describe('POST /api/v1/{ctx}/context', () => {
  it('returns the most relevant facts and the session’s recent turns', async () => {
    const { ctx, key } = await setup();
    await writeFact(ctx, key, 'Erin is allergic to peanuts');
    await writeFact(ctx, key, 'The printer on floor 3 is broken');
    const { id } = await json<{ id: string }>(
      await call('POST', `/api/v1/${ctx}/sessions`, { key, body: {} }),
    );
    await call('POST', `/api/v1/${ctx}/sessions/${id}/turns`, {
      key,
      body: { role: 'user', content: 'What should I cook for Erin?' },
    });
    await call('POST', `/api/v1/${ctx}/sessions/${id}/turns`, {
      key,
      body: { role: 'assistant', content: 'Something without nuts.' },
    });
    const res = await call('POST', `/api/v1/${ctx}/context`, {
      key,
      body: { query: 'Erin allergy', session_id: id },
    });
    expect(res.status).toBe(200);
    const block = await json<Block>(res);
    expect(block.items[0]).toMatchObject({ kind: 'fact', content: 'Erin is allergic to peanuts' });
    expect(block.context).toContain('Erin is allergic to peanuts');
    expect(block.context.indexOf('user: What should I cook')).toBeLessThan(
      block.context.indexOf('assistant: Something without nuts.'),
    );
    expect(block.tokens).toBe(countTokens(block.context));
  });

  it('without a query, uses the newest facts inside the key’s read grant', async () => {
    const { ctx, key } = await setup();
    await writeFact(ctx, key, 'older fact', ['team:eng']);
    await writeFact(ctx, key, 'hidden fact', ['team:board']);
    await writeFact(ctx, key, 'newest fact', ['team:eng']);
    const eng = await issueKey(ctx, { 'memory:read': ['team:eng'] });
    const block = await json<Block>(
      await call('POST', `/api/v1/${ctx}/context`, { key: eng, body: {} }),
    );
    expect(block.items.map((i) => i.content)).toEqual(['newest fact', 'older fact']);
  });

  it('stays under max_tokens counted with o200k_base', async () => {
    const { ctx, key } = await setup();
    await call('POST', `/api/v1/${ctx}/facts/batch`, {
      key,
      body: {
        facts: Array.from({ length: 40 }, (_, i) => ({
          content: `Budget fact ${i}: the team agreed on a long and detailed plan number ${i}`,
        })),
      },
    });
    for (const max of [5, 40, 120]) {
      const block = await json<Block>(
        await call('POST', `/api/v1/${ctx}/context`, {
          key,
          body: { query: 'budget plan', max_tokens: max },
        }),
      );
      expect(block.tokens).toBeLessThanOrEqual(max);
      expect(countTokens(block.context)).toBe(block.tokens);
      expect(block.max_tokens).toBe(max);
    }
  });

  it('rejects bad input and unknown sessions; isolates Contexts', async () => {
    const { ctx, key } = await setup();
    await expectProblem(
      await call('POST', `/api/v1/${ctx}/context`, { key, body: { max_tokens: 0 } }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('POST', `/api/v1/${ctx}/context`, { key, body: { max_tokens: 'lots' } }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('POST', `/api/v1/${ctx}/context`, { key, body: { session_id: 'nope' } }),
      404,
      'not-found',
    );
    const other = await setup();
    await expectProblem(
      await call('POST', `/api/v1/${ctx}/context`, { key: other.key, body: {} }),
      403,
      'forbidden',
    );
  });
});

describe('POST /api/v1/{ctx}/context response cache', () => {
  it('serves a repeated identical request from the cache until any write empties it', async () => {
    const { ctx, key } = await setup();
    await writeFact(ctx, key, 'Farid takes the night train to Vienna');
    const ask = async (body: Record<string, unknown>, k = key) =>
      json<Block & { cached: boolean }>(
        await call('POST', `/api/v1/${ctx}/context`, { key: k, body }),
      );
    const first = await ask({ query: 'Farid train' });
    expect(first.cached).toBe(false);
    const again = await ask({ query: 'Farid train' });
    expect(again).toEqual({ ...first, cached: true });
    // Another request shape is its own entry.
    expect((await ask({ query: 'Farid train', max_tokens: 50 })).cached).toBe(false);

    // A fact write empties the cache: the next block is rebuilt and sees the new fact.
    await writeFact(ctx, key, 'Farid booked a sleeper cabin on the train');
    const afterWrite = await ask({ query: 'Farid train' });
    expect(afterWrite.cached).toBe(false);
    expect(afterWrite.context).toContain('sleeper cabin');

    // So does a turn, and a delete.
    const { id } = await json<{ id: string }>(
      await call('POST', `/api/v1/${ctx}/sessions`, { key, body: {} }),
    );
    expect((await ask({ query: 'Farid train' })).cached).toBe(true);
    await call('POST', `/api/v1/${ctx}/sessions/${id}/turns`, {
      key,
      body: { role: 'user', content: 'When does the train leave?' },
    });
    expect((await ask({ query: 'Farid train' })).cached).toBe(false);
    const fact = afterWrite.items.find((i) => i.content.includes('sleeper'));
    expect((await ask({ query: 'Farid train' })).cached).toBe(true);
    const del = await call('DELETE', `/api/v1/${ctx}/facts/${fact?.id ?? ''}`, { key });
    expect(del.status).toBe(204);
    const afterDelete = await ask({ query: 'Farid train' });
    expect(afterDelete.cached).toBe(false);
    expect(afterDelete.context).not.toContain('sleeper cabin');
  });

  it('never lets a cached block skip the key checks or cross read grants', async () => {
    const { ctx, key } = await setup();
    await writeFact(ctx, key, 'Ana manages the Lisbon office', ['team:ops']);
    const full = await json<Block & { cached: boolean }>(
      await call('POST', `/api/v1/${ctx}/context`, { key, body: { query: 'Ana office' } }),
    );
    expect(full.context).toContain('Lisbon office');
    const narrow = await issueKey(ctx, { 'memory:read': ['team:eng'] });
    const other = await json<Block & { cached: boolean }>(
      await call('POST', `/api/v1/${ctx}/context`, { key: narrow, body: { query: 'Ana office' } }),
    );
    expect(other.cached).toBe(false);
    expect(other.context).not.toContain('Lisbon office');
    const stranger = await setup();
    await expectProblem(
      await call('POST', `/api/v1/${ctx}/context`, {
        key: stranger.key,
        body: { query: 'Ana office' },
      }),
      403,
      'forbidden',
    );
  });
});
