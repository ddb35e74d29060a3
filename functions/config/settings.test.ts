import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { parseBearer } from '../memory/auth/bearer.ts';
import { BOOTSTRAP_PREFIX, BOOTSTRAP_RANDOM_MAX, BOOTSTRAP_RANDOM_MIN } from './bootstrap-key.ts';
import { parseSettings } from './settings.ts';

function problems(overrides: Record<string, unknown>): Record<string, string> {
  const result = parseSettings({ ...env, ...overrides });
  if (result.ok) return {};
  return Object.fromEntries(result.invalid.map((i) => [i.name, i.problem]));
}

describe('settings read from vars', () => {
  it('accepts the wrangler.toml values and the test bootstrap key', () => {
    const result = parseSettings(env);
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.settings.maxInFlight).toBe(256);
      expect(result.settings.roles).toEqual(['api', 'worker', 'scheduler']);
      expect(result.settings.aiProvider).toBe('local');
    }
  });

  it('refuses a bootstrap key the API key parser would reject, naming the rule and the fix', () => {
    const short = problems({ MEMORY_BOOTSTRAP_KEY: `${BOOTSTRAP_PREFIX}abcdefghijkl` });
    expect(short.MEMORY_BOOTSTRAP_KEY).toMatch(
      /mem_management_ followed by 20 to 128 characters from A-Z a-z 0-9 _ -, but it has only 12 characters after the prefix; fix: .*\.dev\.vars/,
    );
    expect(
      problems({ MEMORY_BOOTSTRAP_KEY: `mem_agent_${'a'.repeat(30)}` }).MEMORY_BOOTSTRAP_KEY,
    ).toContain('does not start with mem_management_');
    expect(
      problems({ MEMORY_BOOTSTRAP_KEY: `${BOOTSTRAP_PREFIX}${'a'.repeat(25)}!` })
        .MEMORY_BOOTSTRAP_KEY,
    ).toContain('characters outside A-Z a-z 0-9 _ -');
    expect(problems({ MEMORY_BOOTSTRAP_KEY: undefined }).MEMORY_BOOTSTRAP_KEY).toContain(
      'is not set',
    );
  });

  it('states the same limits as the parser that reads Authorization headers', () => {
    const key = (n: number) => `Bearer ${BOOTSTRAP_PREFIX}${'k'.repeat(n)}`;
    expect(parseBearer(key(BOOTSTRAP_RANDOM_MIN))?.kind).toBe('management');
    expect(parseBearer(key(BOOTSTRAP_RANDOM_MIN - 1))).toBeNull();
    expect(parseBearer(key(BOOTSTRAP_RANDOM_MAX))?.kind).toBe('management');
    expect(parseBearer(key(BOOTSTRAP_RANDOM_MAX + 1))).toBeNull();
  });

  it('refuses every numeric setting that is not a whole number of 1 or more', () => {
    for (const name of ['MAX_IN_FLIGHT', 'RATE_LIMIT_PER_MINUTE', 'MAX_UPLOAD_BYTES']) {
      for (const bad of ['', '0', '-5', '1.5', 'lots', '1e3', ' 12']) {
        expect(problems({ [name]: bad })[name], `${name}=${JSON.stringify(bad)}`).toMatch(
          /^must be a whole number of 1 or more/,
        );
      }
    }
  });

  it('refuses an unknown AI_PROVIDER or role, and bad URLs', () => {
    expect(problems({ AI_PROVIDER: 'gpt' }).AI_PROVIDER).toBe(
      'must be one of local, workers-ai, openai, not "gpt"',
    );
    expect(problems({ ROLES: 'api,web' }).ROLES).toContain('not "api,web"');
    expect(problems({ SITE_URL: 'engram.example' }).SITE_URL).toContain('absolute http(s) URL');
    expect(problems({ OPENAI_BASE_URL: 'ftp://x' }).OPENAI_BASE_URL).toContain('http(s)');
    expect(problems({ ERROR_TYPE_BASE: 'errors' }).ERROR_TYPE_BASE).toContain('or empty');
    expect(problems({ DOCS_SEARCH_ORIGIN: '' })).toEqual({});
    expect(problems({ OPENAI_TEXT_MODEL: ' ' }).OPENAI_TEXT_MODEL).toContain('not be empty');
  });

  it('reads an empty ROLES as all three roles', () => {
    const result = parseSettings({ ...env, ROLES: '' });
    expect(result.ok && result.settings.roles).toEqual(['api', 'worker', 'scheduler']);
  });

  it('lists every bad setting at once, not only the first', () => {
    expect(Object.keys(problems({ MAX_IN_FLIGHT: 'x', AI_PROVIDER: 'y' })).sort()).toEqual([
      'AI_PROVIDER',
      'MAX_IN_FLIGHT',
    ]);
  });
});
