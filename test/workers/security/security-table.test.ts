import { describe, expect, it } from 'vitest';
import { call, json } from '../memory/helpers.ts';
import { ROUTES } from './security-routes.ts';
import { OAUTH_ORIGIN } from './oauth-token.ts';
import { KEYS, OAUTH_KEYS, OK, POLICY, World, type KeyName, type Route } from './security-world.ts';

// Issue 15 item 8: every memory route x key kind x grant (and the OAuth access tokens REST takes
// since issue 41), with the status it must answer. One row
// per case; the expected status comes from POLICY (the access rules of docs/security.md written
// as a table) unless a route names its own exception. MCP tools: security-table-mcp.test.ts.

interface Case {
  route: Route;
  key: KeyName;
  expected: number;
}

const CASES: Case[] = ROUTES.flatMap((route) =>
  KEYS.map((key) => {
    const policy = route.except?.[key] ?? POLICY[route.need][key];
    return { route, key, expected: policy === OK ? route.ok : policy };
  }),
);

let shared: World | undefined;
async function worldFor(route: Route): Promise<World> {
  if (route.fresh) return new World().init();
  shared ??= await new World().init();
  return shared;
}

describe('security table: every memory route x key kind x grant', () => {
  it('covers every /api/v1 operation of the memory OpenAPI description', async () => {
    const res = await call('GET', '/api/v1/openapi.json', { key: null });
    const doc = await json<{ paths: Record<string, Record<string, unknown>> }>(res);
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    const covered = new Set(ROUTES.map((r) => r.name.split(' (')[0]));
    const normalise = (op: string) =>
      op.replace('/api/v1', '').replace('{context_id}', '{ctx}').replace('{session_id}', '{sid}');
    const missing = documented.map(normalise).filter((op) => !covered.has(op));
    expect(missing).toEqual([]);
  });

  it.each(CASES.map((c) => [c.route.name, c.key, c.expected, c] as const))(
    '%s with %s key -> %i',
    async (_name, keyName, expected, c) => {
      const w = await worldFor(c.route);
      const req = await c.route.build(w, keyName === 'scoped' ? 'team:b' : 'team:a');
      const res = await call(req.method, req.path, {
        key: await w.key(keyName),
        ...(OAUTH_KEYS.has(keyName) ? { origin: OAUTH_ORIGIN } : {}),
        ...(req.body === undefined ? {} : { body: req.body }),
        ...(req.rawBody === undefined ? {} : { rawBody: req.rawBody }),
        ...(req.headers === undefined ? {} : { headers: req.headers }),
      });
      const text = await res.text();
      expect(res.status, `${req.method} ${req.path}: ${text.slice(0, 300)}`).toBe(expected);
      if (expected >= 400) expect(res.headers.get('content-type')).toContain('problem+json');
      // Fixtures live in team:b, outside the scoped key's grant: whatever it is answered names
      // none of them (no id, content or scope outside the caller's grant).
      if (keyName === 'scoped') {
        expect(text).not.toContain('Fixture');
        expect(text).not.toContain('"team:b"');
      }
    },
  );
});
