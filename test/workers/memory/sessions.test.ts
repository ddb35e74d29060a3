import { describe, expect, it } from 'vitest';
import { call, expectProblem, issueKey, json, setup } from './helpers.ts';

interface Session {
  id: string;
  turn_count: number;
  metadata: Record<string, unknown> | null;
}
interface Turn {
  id: string;
  role: string;
  content: string;
}

describe('sessions', () => {
  it('creates, gets, lists and deletes sessions', async () => {
    const { ctx, key } = await setup();
    const created = await call('POST', `/api/v1/${ctx}/sessions`, {
      key,
      body: { metadata: { channel: 'slack' } },
    });
    expect(created.status).toBe(201);
    const session = await json<Session>(created);
    expect(session).toMatchObject({ turn_count: 0, metadata: { channel: 'slack' } });
    const named = await json<Session>(
      await call('POST', `/api/v1/${ctx}/sessions`, { key, body: { id: 'support-42' } }),
    );
    expect(named.id).toBe('support-42');
    await expectProblem(
      await call('POST', `/api/v1/${ctx}/sessions`, { key, body: { id: 'support-42' } }),
      409,
      'conflict',
    );
    expect(
      (await json<Session>(await call('GET', `/api/v1/${ctx}/sessions/${session.id}`, { key }))).id,
    ).toBe(session.id);
    const list = await json<{ sessions: Session[]; total: number }>(
      await call('GET', `/api/v1/${ctx}/sessions`, { key }),
    );
    expect(list.total).toBe(2);
    expect((await call('DELETE', `/api/v1/${ctx}/sessions/${session.id}`, { key })).status).toBe(
      204,
    );
    await expectProblem(
      await call('GET', `/api/v1/${ctx}/sessions/${session.id}`, { key }),
      404,
      'not-found',
    );
    await expectProblem(
      await call('DELETE', `/api/v1/${ctx}/sessions/${session.id}`, { key }),
      404,
      'not-found',
    );
  });

  it('rejects bad bodies and ids', async () => {
    const { ctx, key } = await setup();
    await expectProblem(
      await call('POST', `/api/v1/${ctx}/sessions`, { key, rawBody: '{' }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('POST', `/api/v1/${ctx}/sessions`, { key, body: { id: 'has space' } }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('POST', `/api/v1/${ctx}/sessions`, { key, body: { metadata: 'x' } }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('GET', `/api/v1/${ctx}/sessions?limit=1000`, { key }),
      400,
      'validation-error',
    );
    expect(
      (await json<{ total: number }>(await call('GET', `/api/v1/${ctx}/sessions`, { key }))).total,
    ).toBe(0);
  });

  it('appends turns and lists them with limit (max 500) and offset', async () => {
    const { ctx, key } = await setup();
    const { id } = await json<Session>(
      await call('POST', `/api/v1/${ctx}/sessions`, { key, body: {} }),
    );
    for (let i = 0; i < 5; i++) {
      const res = await call('POST', `/api/v1/${ctx}/sessions/${id}/turns`, {
        key,
        body: { role: i % 2 ? 'assistant' : 'user', content: `turn ${i}` },
      });
      expect(res.status).toBe(201);
    }
    const page = await json<{ turns: Turn[]; total: number }>(
      await call('GET', `/api/v1/${ctx}/sessions/${id}/turns?limit=2&offset=1`, { key }),
    );
    expect(page.total).toBe(5);
    expect(page.turns.map((t) => t.content)).toEqual(['turn 1', 'turn 2']);
    expect(
      (await call('GET', `/api/v1/${ctx}/sessions/${id}/turns?limit=500`, { key })).status,
    ).toBe(200);
    await expectProblem(
      await call('GET', `/api/v1/${ctx}/sessions/${id}/turns?limit=501`, { key }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('GET', `/api/v1/${ctx}/sessions/${id}/turns?offset=-1`, { key }),
      400,
      'validation-error',
    );
    expect(
      (await json<Session>(await call('GET', `/api/v1/${ctx}/sessions/${id}`, { key }))).turn_count,
    ).toBe(5);
  });

  it('rejects bad turns and turns of unknown sessions, storing nothing', async () => {
    const { ctx, key } = await setup();
    const { id } = await json<Session>(
      await call('POST', `/api/v1/${ctx}/sessions`, { key, body: {} }),
    );
    const path = `/api/v1/${ctx}/sessions/${id}/turns`;
    await expectProblem(
      await call('POST', path, { key, body: { role: 'robot', content: 'x' } }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('POST', path, { key, body: { role: 'user' } }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('POST', path, { key, body: { role: 'user', content: 'x'.repeat(40_000) } }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('POST', `/api/v1/${ctx}/sessions/nope/turns`, {
        key,
        body: { role: 'user', content: 'x' },
      }),
      404,
      'not-found',
    );
    await expectProblem(
      await call('GET', `/api/v1/${ctx}/sessions/nope/turns`, { key }),
      404,
      'not-found',
    );
    expect((await json<{ total: number }>(await call('GET', path, { key }))).total).toBe(0);
  });

  it('needs the verb: write to create and append, read to list, forget to delete', async () => {
    const { ctx, key } = await setup();
    const { id } = await json<Session>(
      await call('POST', `/api/v1/${ctx}/sessions`, { key, body: {} }),
    );
    const reader = await issueKey(ctx, { 'memory:read': ['*'] });
    await expectProblem(
      await call('POST', `/api/v1/${ctx}/sessions`, { key: reader, body: {} }),
      403,
      'forbidden',
    );
    await expectProblem(
      await call('POST', `/api/v1/${ctx}/sessions/${id}/turns`, {
        key: reader,
        body: { role: 'user', content: 'x' },
      }),
      403,
      'forbidden',
    );
    await expectProblem(
      await call('DELETE', `/api/v1/${ctx}/sessions/${id}`, { key: reader }),
      403,
      'forbidden',
    );
    expect((await call('GET', `/api/v1/${ctx}/sessions/${id}/turns`, { key: reader })).status).toBe(
      200,
    );
    const writer = await issueKey(ctx, { 'memory:write': ['*'] });
    await expectProblem(
      await call('GET', `/api/v1/${ctx}/sessions`, { key: writer }),
      403,
      'forbidden',
    );
  });

  it('a key for one Context never reads or writes another Context’s sessions', async () => {
    const a = await setup();
    const b = await setup();
    const { id } = await json<Session>(
      await call('POST', `/api/v1/${b.ctx}/sessions`, { key: b.key, body: {} }),
    );
    const base = `/api/v1/${b.ctx}/sessions`;
    await expectProblem(await call('POST', base, { key: a.key, body: {} }), 403, 'forbidden');
    await expectProblem(await call('GET', base, { key: a.key }), 403, 'forbidden');
    await expectProblem(await call('GET', `${base}/${id}`, { key: a.key }), 403, 'forbidden');
    await expectProblem(await call('DELETE', `${base}/${id}`, { key: a.key }), 403, 'forbidden');
    await expectProblem(
      await call('POST', `${base}/${id}/turns`, {
        key: a.key,
        body: { role: 'user', content: 'x' },
      }),
      403,
      'forbidden',
    );
    await expectProblem(await call('GET', `${base}/${id}/turns`, { key: a.key }), 403, 'forbidden');
    await expectProblem(
      await call('GET', `/api/v1/${a.ctx}/sessions/${id}`, { key: a.key }),
      404,
      'not-found',
    );
  });
});

describe('turn append response', () => {
  it('carries the extraction state, and the OpenAPI document says so', async () => {
    const { ctx, key } = await setup();
    await call('POST', `/api/v1/${ctx}/sessions`, { key, body: { id: 's-extract' } });
    const res = await call('POST', `/api/v1/${ctx}/sessions/s-extract/turns`, {
      key,
      body: { role: 'assistant', content: 'Hello there.' },
    });
    expect(res.status).toBe(201);
    const turn = await json<Turn & { extraction: { status: string; detail: string | null } }>(res);
    expect(turn.extraction).toEqual({ status: 'skipped', detail: expect.any(String) });

    type Schema = {
      $ref?: string;
      allOf?: Schema[];
      properties?: Record<string, Schema>;
      required?: string[];
    };
    const doc = await json<{
      paths: Record<
        string,
        { post?: { responses: Record<string, { content: Record<string, { schema: Schema }> }> } }
      >;
      components: { schemas: Record<string, Schema> };
    }>(await call('GET', '/api/v1/openapi.json', { key: null }));
    // Follows $refs and flattens allOf (the generator emits `extend` as allOf of the base).
    const resolve = (s: Schema | undefined): Schema => {
      if (!s) return {};
      if (s.$ref)
        return resolve(doc.components.schemas[s.$ref.replace('#/components/schemas/', '')]);
      const parts = (s.allOf ?? []).map(resolve);
      return {
        properties: Object.assign({}, ...parts.map((p) => p.properties), s.properties),
        required: [...parts.flatMap((p) => p.required ?? []), ...(s.required ?? [])],
      };
    };
    const created = resolve(
      doc.paths['/api/v1/{context_id}/sessions/{session_id}/turns']?.post?.responses['201']
        ?.content['application/json']?.schema,
    );
    expect(created.required).toEqual(expect.arrayContaining(['id', 'content', 'extraction']));
    const extraction = resolve(created.properties?.['extraction']);
    expect(Object.keys(extraction.properties ?? {})).toEqual(['status', 'detail']);
    expect(extraction.required).toContain('status');
  });
});
