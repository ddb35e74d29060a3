import { describe, expect, it } from 'vitest';
import {
  call,
  createContext,
  json,
  keyFor,
  listFacts,
  waitForFact,
  type Fact,
} from './model-api.ts';

interface InferredFact extends Fact {
  decision: { action: string; reason: string; replaces: string | null };
  model: { provider: string; model: string; extractive: boolean };
}

describe('POST /facts?infer=full with the local provider', () => {
  const ctx = 'models-infer-full';

  it('extracts atomic facts, resolves "I" to the speaker and names provider and model', async () => {
    await createContext(ctx);
    const body = await json<{ facts: InferredFact[] }>(
      await call(`/api/v1/${ctx}/facts?infer=full`, {
        body: {
          content: 'Hi! I live in Porto and I work as a nurse.',
          metadata: { speaker: 'Maya' },
        },
      }),
      201,
    );
    expect(body.facts.map((f) => f.content)).toEqual([
      'Maya lives in Porto.',
      'Maya works as a nurse.',
    ]);
    expect(body.facts.every((f) => f.decision.action === 'create')).toBe(true);
    expect(body.facts[0]?.model).toEqual({
      provider: 'local',
      model: 'local-extractive-v1',
      extractive: true,
    });
  });

  it('supersedes an older value with valid_until instead of overwriting it, and no-ops a repeat', async () => {
    const before = await listFacts(ctx);
    const porto = before.find((f) => f.content === 'Maya lives in Porto.');
    const moved = await json<{ facts: InferredFact[] }>(
      await call(`/api/v1/${ctx}/facts?infer=full`, {
        body: { content: 'I moved to Lisbon. I work as a nurse.', metadata: { speaker: 'Maya' } },
      }),
      201,
    );
    expect(moved.facts.map((f) => [f.content, f.decision.action])).toEqual([
      ['Maya moved to Lisbon.', 'supersede'],
      ['Maya works as a nurse.', 'noop'],
    ]);
    expect(moved.facts[0]?.decision.replaces).toBe(porto?.id);
    // The old fact is still there, readable, just closed.
    const old = await json<Fact>(await call(`/api/v1/${ctx}/facts/${porto?.id ?? ''}`), 200);
    expect(old.content).toBe('Maya lives in Porto.');
    // Listed as history only when asked for: one new current fact replaced one closed one.
    expect((await listFacts(ctx)).length).toBe(before.length);
    expect((await listFacts(ctx, 'fact', true)).length).toBe(before.length + 1);
  });

  it('keeps infer=none (the default) a literal write', async () => {
    const body = await json<{ facts: Fact[] }>(
      await call(`/api/v1/${ctx}/facts`, { body: { content: 'I like tea and I hate coffee.' } }),
      201,
    );
    expect(body.facts.map((f) => f.content)).toEqual(['I like tea and I hate coffee.']);
  });
});

describe('turns trigger background extraction', () => {
  const ctx = 'models-turns';

  it('stores the turn, queues extraction and later shows the extracted fact', async () => {
    await createContext(ctx);
    await json(
      await call(`/api/v1/${ctx}/sessions`, {
        body: { id: 'chat-1', metadata: { speaker: 'Omar' } },
      }),
      201,
    );
    const turn = await json<{ id: string; extraction: { status: string } }>(
      await call(`/api/v1/${ctx}/sessions/chat-1/turns`, {
        body: { role: 'user', content: 'I have a cat named Miso.' },
      }),
      201,
    );
    expect(turn.extraction.status).toBe('queued');
    const fact = await waitForFact(ctx, (f) => f.content === 'Omar has a cat named Miso.');
    expect(fact.metadata).toMatchObject({ source_turn_id: turn.id, inferred: true });
  });

  it('does not extract from assistant turns and says so', async () => {
    const turn = await json<{ extraction: { status: string; detail: string } }>(
      await call(`/api/v1/${ctx}/sessions/chat-1/turns`, {
        body: { role: 'assistant', content: 'I am an assistant.' },
      }),
      201,
    );
    expect(turn.extraction).toMatchObject({ status: 'skipped' });
  });

  it('GET /sessions/{id}/context returns the prompt-ready context, cached until a write', async () => {
    const first = await json<{ context: string; cached: boolean; items: { kind: string }[] }>(
      await call(`/api/v1/${ctx}/sessions/chat-1/context`),
      200,
    );
    expect(first.context).toContain('user: I have a cat named Miso.');
    expect(first.context).toContain('Omar has a cat named Miso.');
    expect(first.cached).toBe(false);
    const again = await json<{ cached: boolean; context: string }>(
      await call(`/api/v1/${ctx}/sessions/chat-1/context`),
      200,
    );
    expect(again).toMatchObject({ cached: true, context: first.context });
    await json(await call(`/api/v1/${ctx}/facts`, { body: { content: 'Omar likes chess.' } }), 201);
    const after = await json<{ cached: boolean }>(
      await call(`/api/v1/${ctx}/sessions/chat-1/context`),
      200,
    );
    expect(after.cached).toBe(false);
  });

  it('answers 404 for the context of an unknown session', async () => {
    const res = await call(`/api/v1/${ctx}/sessions/nope/context`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
  });
});

interface ChatBody {
  answer: string;
  citations: { ref: number; id: string; kind: string; quote: string }[];
  known: boolean;
  provider: string;
  model: string;
  extractive: boolean;
  cached: boolean;
  usage: { total_tokens: number };
}

describe('POST /chat with the local provider', () => {
  const ctx = 'models-chat';

  it('answers with a cited quote of stored memory, labelled extractive', async () => {
    await createContext(ctx);
    await json(
      await call(`/api/v1/${ctx}/facts?infer=full`, {
        body: {
          content: 'I work as a pilot. My favourite food is ramen.',
          metadata: { speaker: 'Ines' },
        },
      }),
      201,
    );
    const res = await call(`/api/v1/${ctx}/chat`, {
      body: { message: "What is Ines's favourite food?" },
    });
    const body = await json<ChatBody>(res, 200);
    expect(body.answer).toContain('ramen');
    expect(body.answer).toMatch(/extractive/);
    expect(body.citations[0]).toMatchObject({
      ref: 1,
      kind: 'fact',
      quote: "Ines's favourite food is ramen.",
    });
    expect(body).toMatchObject({
      provider: 'local',
      model: 'local-extractive-v1',
      extractive: true,
      known: true,
    });
    expect(body.usage.total_tokens).toBeGreaterThan(0);
    expect(res.headers.get('x-model-provider')).toBe('local');
    const cited = await json<Fact>(
      await call(`/api/v1/${ctx}/facts/${body.citations[0]?.id ?? ''}`),
      200,
    );
    expect(cited.content).toBe("Ines's favourite food is ramen.");
  });

  it('says when it does not know', async () => {
    const body = await json<ChatBody>(
      await call(`/api/v1/${ctx}/chat`, { body: { message: 'What is the capital of Mars?' } }),
      200,
    );
    expect(body.known).toBe(false);
    expect(body.citations).toEqual([]);
    expect(body.answer).toMatch(/do not know/);
  });

  it('serves a repeated identical request from the cache, and a write invalidates it', async () => {
    const message = 'What does Ines do for work?';
    const first = await json<ChatBody>(
      await call(`/api/v1/${ctx}/chat`, { body: { message } }),
      200,
    );
    const second = await json<ChatBody>(
      await call(`/api/v1/${ctx}/chat`, { body: { message } }),
      200,
    );
    expect(first.cached).toBe(false);
    expect(second).toMatchObject({ cached: true, answer: first.answer });
    await json(
      await call(`/api/v1/${ctx}/facts`, { body: { content: 'Ines flies for Tidewater Air.' } }),
      201,
    );
    const third = await json<ChatBody>(
      await call(`/api/v1/${ctx}/chat`, { body: { message } }),
      200,
    );
    expect(third.cached).toBe(false);
  });

  it('streams Server-Sent Events for Accept: text/event-stream', async () => {
    const res = await call(`/api/v1/${ctx}/chat`, {
      body: { message: 'Which food does Ines like best?' },
      accept: 'text/event-stream',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const text = await res.text();
    const events = [...text.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
    expect(events[0]).toBe('meta');
    expect(events).toContain('delta');
    expect(events.at(-1)).toBe('done');
    const done = /event: done\ndata: (.*)\n/.exec(text)?.[1] ?? '{}';
    expect((JSON.parse(done) as ChatBody).citations.length).toBeGreaterThan(0);
  });

  it('streams as well for "stream": true in the body', async () => {
    const res = await call(`/api/v1/${ctx}/chat`, {
      body: { message: 'Ines food?', stream: true },
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    expect(await res.text()).toMatch(/^event: meta$/m);
  });

  it('rejects a missing message with a validation problem', async () => {
    const res = await call(`/api/v1/${ctx}/chat`, { body: { session_id: 'x' } });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
  });
});

interface ReflectBody {
  insights: { entity: string; insight: string; sources: string[]; reflection_id: string | null }[];
  persisted: boolean;
  provider: string;
}

describe('POST /reflect', () => {
  const ctx = 'models-reflect';

  it('summarises per entity; persist needs a supervisor (agent key is 403)', async () => {
    await createContext(ctx);
    await json(
      await call(`/api/v1/${ctx}/facts?infer=full`, {
        body: { content: 'I live in Osaka. I play the harp.', metadata: { speaker: 'Kenji' } },
      }),
      201,
    );
    const agent = await keyFor(ctx, 'agent', 'models-reflect-agent');
    const supervisor = await keyFor(ctx, 'supervisor', 'models-reflect-supervisor');

    const preview = await json<ReflectBody>(
      await call(`/api/v1/${ctx}/reflect`, { body: {}, key: agent }),
      200,
    );
    expect(preview.insights[0]).toMatchObject({ entity: 'Kenji', reflection_id: null });
    expect(preview.insights[0]?.sources.length).toBe(2);

    const denied = await call(`/api/v1/${ctx}/reflect`, { body: { persist: true }, key: agent });
    expect(denied.status).toBe(403);
    expect(((await denied.json()) as { detail: string }).detail).toMatch(/supervisor/);
    expect(await listFacts(ctx, 'reflection')).toEqual([]);

    const stored = await json<ReflectBody>(
      await call(`/api/v1/${ctx}/reflect`, { body: { persist: true }, key: supervisor }),
      200,
    );
    const id = stored.insights[0]?.reflection_id ?? '';
    const reflection = await json<Fact>(await call(`/api/v1/${ctx}/facts/${id}`), 200);
    expect(reflection.kind).toBe('reflection');
    expect(reflection.metadata).toMatchObject({
      entity: 'Kenji',
      sources: stored.insights[0]?.sources,
    });
  });
});

describe('POST /consolidate', () => {
  const ctx = 'models-consolidate';

  it('previews with dry_run and then merges duplicates and supersedes older values', async () => {
    await createContext(ctx);
    for (const content of [
      'Lucia lives in Ghent.',
      'Lucia likes jazz.',
      'lucia likes jazz',
      'Lucia moved to Seville.',
    ]) {
      await json(await call(`/api/v1/${ctx}/facts`, { body: { content } }), 201);
    }
    type Body = {
      decisions: { action: string; id: string }[];
      applied: number;
      summary: Record<string, number>;
    };
    const preview = await json<Body>(
      await call(`/api/v1/${ctx}/consolidate`, { body: { dry_run: true } }),
      200,
    );
    expect(preview.summary).toEqual({ merge: 1, supersede: 1, keep: 2 });
    expect(preview.applied).toBe(0);
    const again = await json<Body>(
      await call(`/api/v1/${ctx}/consolidate`, { body: { dry_run: true } }),
      200,
    );
    expect(again.summary).toEqual(preview.summary);

    const applied = await json<Body>(await call(`/api/v1/${ctx}/consolidate`, { body: {} }), 200);
    expect(applied.applied).toBe(2);
    const after = await json<Body>(
      await call(`/api/v1/${ctx}/consolidate`, { body: { dry_run: true } }),
      200,
    );
    expect(after.summary).toEqual({ merge: 0, supersede: 0, keep: 2 });
  });
});
