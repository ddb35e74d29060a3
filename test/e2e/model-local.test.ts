import { describe, expect, inject, it, vi } from 'vitest';

// The "done when" walk of the model-backed issue, offline with the default local provider,
// against the shared `wrangler dev` (real queue consumer for turn extraction).
describe('a conversation through the model-backed paths with AI_PROVIDER=local', () => {
  const base = inject('baseUrl');
  const key = inject('bootstrapKey');
  const ctx = 'e2e-model-local';
  const call = (path: string, body?: unknown, method?: string) =>
    fetch(`${base}/api/v1${path}`, {
      method: method ?? (body === undefined ? 'GET' : 'POST'),
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it('turns become facts in the background', async () => {
    expect((await call('/contexts', { id: ctx })).status).toBe(201);
    expect(
      (await call(`/${ctx}/sessions`, { id: 'day-1', metadata: { speaker: 'Hana' } })).status,
    ).toBe(201);
    for (const content of [
      'I live in Kyoto and I work as a potter.',
      'My favourite tea is sencha.',
    ]) {
      const res = await call(`/${ctx}/sessions/day-1/turns`, { role: 'user', content });
      expect(res.status).toBe(201);
      expect(((await res.json()) as { extraction: { status: string } }).extraction.status).toBe(
        'queued',
      );
    }
    await vi.waitFor(
      async () => {
        const facts = (await (await call(`/${ctx}/facts`)).json()) as {
          facts: { content: string }[];
        };
        expect(facts.facts.map((f) => f.content)).toEqual(
          expect.arrayContaining([
            'Hana lives in Kyoto.',
            'Hana works as a potter.',
            "Hana's favourite tea is sencha.",
          ]),
        );
      },
      { timeout: 20_000, interval: 200 },
    );
  });

  it('/chat answers with a citation; reflect and consolidate run', async () => {
    const chat = (await (
      await call(`/${ctx}/chat`, { message: 'What does Hana do for work?', session_id: 'day-1' })
    ).json()) as {
      answer: string;
      citations: { id: string }[];
      provider: string;
    };
    expect(chat.answer).toContain('potter');
    expect(chat.citations.length).toBeGreaterThan(0);
    expect(chat.provider).toBe('local');
    const reflect = (await (await call(`/${ctx}/reflect`, {})).json()) as {
      insights: { entity: string }[];
    };
    expect(reflect.insights[0]?.entity).toBe('Hana');
    const consolidate = await call(`/${ctx}/consolidate`, { dry_run: true });
    expect(consolidate.status).toBe(200);
  });

  it('a blocked Context refuses only the model-backed paths', async () => {
    expect((await call(`/contexts/${ctx}`, { enforcement_blocked: true }, 'PATCH')).status).toBe(
      200,
    );
    const refused = await call(`/${ctx}/chat`, { message: 'Where does Hana live?' });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { type: string }).type).toMatch(/rate-limited$/);
    expect((await call(`/${ctx}/query`, { query: 'Hana', mode: 'hybrid' })).status).toBe(200);
    expect((await call(`/${ctx}/facts`, { content: 'Hana owns a kiln.' })).status).toBe(201);
    expect((await call(`/${ctx}/facts?infer=full`, { content: 'I own a kiln.' })).status).toBe(429);
  });
});
