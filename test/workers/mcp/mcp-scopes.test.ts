import { beforeAll, describe, expect, it } from 'vitest';
import { MCP_TOOLS } from '../../../src/schemas/mcp-tools.ts';
import { PROMPTS } from '../../../functions/memory/mcp/prompts.ts';
import { rpc } from './mcp-client.ts';
import {
  HR_SESSION,
  MARKER,
  outcomeOf,
  scoped,
  seed,
  seedScopeFixture,
} from './mcp-scope-fixture.ts';
import { ROWS } from './mcp-scope-rows.ts';

/**
 * A key scoped to `team:eng` against every MCP tool, resource and prompt: it reaches what REST
 * would let it reach and nothing of `team:hr`. The HR memories carry a marker word, so any leak
 * in any answer (content, ids, names) fails the row.
 */
beforeAll(seedScopeFixture);

describe('a team:eng key against every MCP tool, resource and prompt', () => {
  it.each(ROWS.map((r) => [`${r.surface}: ${r.case}`, r] as const))('%s', async (_, row) => {
    const reply = await row.call();
    expect(reply.status).toBe(200);
    expect(outcomeOf(reply)).toBe(row.expected);
    const text = JSON.stringify(reply.body);
    for (const hrContent of ['91000', 'pay bands', 'salaries']) {
      expect(text).not.toContain(hrContent);
    }
    if (!row.namesHr) {
      expect(text).not.toContain(MARKER);
      expect(text).not.toContain(seed.hrFact);
      expect(text).not.toContain(seed.hrDoc.replace('document:', ''));
    }
    if (row.rest) {
      const status = await row.rest();
      expect(status >= 200 && status < 300 ? 'ok' : status).toBe(row.expected);
    }
  });

  it('covers every tool and prompt of the live server', () => {
    const surfaces = new Set(ROWS.map((r) => r.surface));
    for (const t of MCP_TOOLS) expect(surfaces, t.name).toContain(t.name);
    for (const p of PROMPTS) expect(surfaces, p.name).toContain(`prompts/get ${p.name}`);
    for (const m of ['resources/list', 'resources/read', 'completion/complete']) {
      expect(surfaces).toContain(m);
    }
  });

  it('completes session ids from the read grant only', async () => {
    const reply = await rpc(scoped, 'completion/complete', {
      ref: { type: 'ref/prompt', name: 'summarize_session' },
      argument: { name: 'session_id', value: '' },
    });
    const values = (reply.body.result as unknown as { completion: { values: string[] } }).completion
      .values;
    expect(values).toContain('eng-1');
    expect(values).not.toContain(HR_SESSION);
  });

  it('completes scopes from the read grant only', async () => {
    const reply = await rpc(scoped, 'completion/complete', {
      ref: { type: 'ref/prompt', name: 'recall_topic' },
      argument: { name: 'scope', value: 'team:' },
    });
    expect(reply.body.result).toMatchObject({ completion: { values: ['team:eng'] } });
  });
});
