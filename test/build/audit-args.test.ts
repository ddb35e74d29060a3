import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { AUDITED_PAGES, CONSOLE_PAGES, parseAuditArgs } from '../../scripts/audit/options.ts';
import { describeTargets } from '../../scripts/audit/report.ts';
import { SESSION_NAMES, signInScript } from '../../scripts/audit/sign-in-script.ts';

describe('npm run audit: flags', () => {
  it('audits the site pages by default, every console page with --console, and writes both', () => {
    expect(parseAuditArgs([], undefined)).toEqual({
      console: false,
      pages: AUDITED_PAGES,
      complete: true,
      runs: 3,
    });
    const all = parseAuditArgs(['--console'], '1');
    expect(all).toMatchObject({ console: true, complete: true, runs: 1 });
    expect(all.pages).toEqual(CONSOLE_PAGES);
  });

  it('narrows to --page paths in the list order, and then writes nothing', () => {
    const some = parseAuditArgs(
      ['--console', '--page', '/console/query', '--page=/console'],
      undefined,
    );
    expect(some.pages).toEqual(['/console', '/console/query']);
    expect(some.complete).toBe(false);
  });

  it('refuses a page outside the chosen list, and an unknown flag', () => {
    expect(() => parseAuditArgs(['--page', '/console/facts'], undefined)).toThrow(
      /not audited without --console/,
    );
    expect(() => parseAuditArgs(['--console', '--page', '/pricing'], undefined)).toThrow(
      /choose among \/console,/,
    );
    expect(() => parseAuditArgs(['--consol'], undefined)).toThrow();
  });

  it('reads AUDIT_RUNS as at least one run, three when unreadable', () => {
    expect(parseAuditArgs([], '0').runs).toBe(3);
    expect(parseAuditArgs([], 'x').runs).toBe(3);
    expect(parseAuditArgs([], '-2').runs).toBe(1);
    expect(parseAuditArgs([], '5').runs).toBe(5);
  });
});

describe('npm run audit: targets in words', () => {
  it('writes 100 without ≥ and the rest with it', () => {
    expect(
      describeTargets({ performance: 95, accessibility: 98, 'best-practices': 100, seo: 100 }),
    ).toBe(
      'performance ≥ 95, accessibility ≥ 98, best practices 100, SEO 100 apart from `robots-txt`',
    );
  });
});

describe('npm run audit -- --console: the sign-in script', () => {
  const who = { key_id: 'k1', context_id: null, principal: { kind: 'management' } };
  const script = signInScript({
    origin: 'http://127.0.0.1:8787',
    key: 'mem_management_abc"\'</script>',
    contextId: 'ctx-1',
    who,
  });

  function runAt(origin: string): Map<string, string> {
    const stored = new Map<string, string>();
    const sessionStorage = { setItem: (k: string, v: string) => stored.set(k, v) };
    runInNewContext(script, { location: { origin }, sessionStorage });
    return stored;
  }

  it('keeps what the sign-in form keeps, quotes and all', () => {
    const stored = runAt('http://127.0.0.1:8787');
    expect(stored.get(SESSION_NAMES.key)).toBe('mem_management_abc"\'</script>');
    expect(stored.get(SESSION_NAMES.context)).toBe('ctx-1');
    expect(JSON.parse(stored.get(SESSION_NAMES.who) ?? '')).toEqual(who);
  });

  it('writes nothing into a document of another origin (about:blank first)', () => {
    expect(runAt('null').size).toBe(0);
    expect(runAt('http://127.0.0.1:9999').size).toBe(0);
  });

  it('uses the names of the console session module', () => {
    const session = readFileSync('src/client/console/session.ts', 'utf8');
    for (const name of Object.values(SESSION_NAMES)) expect(session).toContain(`'${name}'`);
  });

  it('lists the nine console views and the OAuth callback', () => {
    expect(CONSOLE_PAGES).toEqual([
      '/console',
      ...[
        'facts',
        'query',
        'entities',
        'sessions',
        'documents',
        'contexts',
        'keys',
        'migrations',
        'callback',
      ].map((v) => `/console/${v}`),
    ]);
  });
});
