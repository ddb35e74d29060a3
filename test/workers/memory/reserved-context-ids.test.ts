import { describe, expect, it } from 'vitest';
import { memoryApp } from '../../../functions/memory/app.ts';
import { reservedContextIds } from '../../../functions/memory/middleware/data-plane.ts';
import { BOOTSTRAP, call, expectProblem, setup } from './helpers.ts';

// A Context id equal to a management path word (`keys`, `contexts`, ...) would share
// `/api/v1/<id>/...` with a control-plane route. Such ids are refused at creation, and a
// data-plane path that starts with one is still a data-plane request: its handler never runs
// without the credential the Context's object checks (it used to answer 500).

const reserved = [...reservedContextIds(memoryApp.routes)];

/** Whether one request path could match both route templates (`:x` matches any one segment). */
function overlap(a: string, b: string): boolean {
  const x = a.split('/');
  const y = b.split('/');
  if (x.length !== y.length) return false;
  return x.every((s, i) => {
    const t = y[i] ?? '';
    return s === t || s.startsWith(':') || t.startsWith(':');
  });
}

describe('reserved Context ids', () => {
  it('are the literal first segments of the registered /api/v1 routes', () => {
    // Derived from the routes, so this names what the routes spell today; a new route group
    // under /api/v1/<word> joins the list without an edit.
    expect(reserved.sort()).toEqual([
      'contexts',
      'keys',
      'migrations',
      'openapi.json',
      'principals',
      'whoami',
    ]);
  });

  it('come first: no data-plane route is registered ahead of a control-plane route it could shadow', () => {
    // The first matching route answers. `/api/v1/{context_id}/sessions/{session_id}` ahead of
    // `/api/v1/contexts/{id}/export` would answer the export of a Context named `sessions`.
    const routes = memoryApp.routes.filter((r) => r.method !== 'ALL');
    const shadowed: string[] = [];
    routes.forEach((control, i) => {
      if (control.path.startsWith('/api/v1/:context_id/')) return;
      for (const data of routes.slice(0, i)) {
        if (!data.path.startsWith('/api/v1/:context_id/') || data.method !== control.method)
          continue;
        if (overlap(data.path, control.path))
          shadowed.push(`${control.method} ${control.path} behind ${data.path}`);
      }
    });
    expect([...new Set(shadowed)]).toEqual([]);
  });

  it('leave a Context named like a data-plane word (sessions) its export route', async () => {
    // Ids are unique per test file's storage; these words are free in this file.
    for (const id of ['sessions', 'facts', 'documents']) {
      const created = await call('POST', '/api/v1/contexts', { body: { id } });
      expect(created.status, await created.text()).toBe(201);
      const res = await call('GET', `/api/v1/contexts/${id}/export`);
      expect(res.status, `${id}: ${await res.clone().text()}`).toBe(200);
      expect(res.headers.get('content-type')).toContain('application/x-ndjson');
      expect(await res.text()).toContain(id);
    }
  });

  it('are refused at creation with a validation problem that names the reason, in any case', async () => {
    for (const id of [...reserved, 'Keys', 'CONTEXTS']) {
      const res = await call('POST', '/api/v1/contexts', { body: { id } });
      const problem = await expectProblem(res, 400, 'validation-error');
      expect(problem.detail).toContain('reserved');
      expect(problem.detail).toContain(`"${id}"`);
    }
  });

  it('still let an ordinary id through', async () => {
    const id = `keys-${crypto.randomUUID().slice(0, 8)}`;
    const res = await call('POST', '/api/v1/contexts', { body: { id } });
    expect(res.status, await res.text()).toBe(201);
  });

  it('make data-plane paths answer 4xx problems, never 500, for every key kind', async () => {
    const { key } = await setup();
    const paths: [string, string, unknown][] = [
      ['GET', '/api/v1/keys/facts/some-id', undefined],
      ['POST', '/api/v1/contexts/facts/batch', { facts: [{ content: 'x' }] }],
      ['POST', '/api/v1/principals/query', { query: 'x' }],
      ['GET', '/api/v1/migrations/sessions/s1', undefined],
      ['POST', '/api/v1/openapi.json/facts', { content: 'x' }],
      ['GET', '/api/v1/whoami/facts', undefined],
    ];
    for (const [method, path, body] of paths) {
      for (const caller of [key, BOOTSTRAP, null]) {
        const res = await call(method, path, { key: caller, body });
        const text = await res.text();
        expect(res.status, `${method} ${path}: ${text}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${method} ${path}: ${text}`).toBeLessThan(500);
        expect(res.headers.get('content-type')).toContain('application/problem+json');
      }
    }
    // The bootstrap key may reach any Context: the request goes to the object of a Context
    // named "keys", which cannot exist.
    await expectProblem(await call('GET', '/api/v1/keys/facts/some-id'), 404, 'context-not-found');
  });
});
