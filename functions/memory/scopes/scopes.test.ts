import { describe, expect, it } from 'vitest';
import type { KeyGrant } from '../auth/principal.ts';
import { checkPaths, itemWithinGrant } from './grants.ts';
import { lensMatches, parseLens, type LensInput } from './lens.ts';
import { covers, scopePathProblem, strictlyBelow } from './path.ts';

function lens(input: LensInput): string[][] {
  const parsed = parseLens(input);
  if ('problem' in parsed) throw new Error(parsed.problem);
  return parsed.lens;
}

// [lens, fact scopes, expected match, why]
const MATCHING: [LensInput, string[], boolean, string][] = [
  [['team:eng'], ['team:eng'], true, 'equal path'],
  [['team:eng'], ['team:eng/user:alice'], true, 'lens path is an ancestor'],
  [['team:eng/user:alice'], ['team:eng'], false, 'lens path is a descendant'],
  [['team:eng'], ['team:engineering'], false, 'prefix of a segment is not an ancestor'],
  [['team:eng'], ['team:sales'], false, 'unrelated path'],
  [['team:eng', 'team:sales'], ['team:sales'], true, 'flat array is OR (second)'],
  [
    ['team:eng', 'team:sales'],
    ['team:eng/user:bob'],
    true,
    'flat array is OR (first, via ancestor)',
  ],
  [['team:eng', 'team:sales'], ['team:ops'], false, 'flat array is OR (neither)'],
  [
    [['team:eng', 'region:eu']],
    ['team:eng', 'region:eu'],
    true,
    'nested array is AND (both present)',
  ],
  [[['team:eng', 'region:eu']], ['team:eng'], false, 'nested array is AND (one missing)'],
  [
    [['team:eng', 'region:eu']],
    ['team:eng/user:alice', 'region:eu/city:paris'],
    true,
    'AND via ancestors',
  ],
  [
    [['team:eng', 'team:eng/user:alice']],
    ['team:eng/user:alice'],
    true,
    'AND of ancestor and self',
  ],
  [
    ['team:ops', ['team:eng', 'region:eu']],
    ['team:eng', 'region:eu'],
    true,
    'mixed: OR of a path and an AND clause (clause)',
  ],
  [
    ['team:ops', ['team:eng', 'region:eu']],
    ['team:ops/user:x'],
    true,
    'mixed: OR of a path and an AND clause (path)',
  ],
  [['team:ops', ['team:eng', 'region:eu']], ['team:eng'], false, 'mixed: neither branch'],
  [['*'], [], true, 'root matches unscoped facts'],
  [['*'], ['team:eng/user:alice'], true, 'root matches everything'],
  [['team:eng'], [], false, 'a scoped lens never matches an unscoped fact'],
  [[['*', 'team:eng']], ['team:eng'], true, 'root inside an AND clause is neutral'],
  [['a/b/c'], ['a/b/c/d/e'], true, 'deep ancestor'],
  [['a/b'], ['a/bc'], false, 'segment boundary respected at depth'],
];

describe('lens matching: flat = OR, nested = AND, equal or ancestor', () => {
  it.each(MATCHING)('%j vs %j -> %s (%s)', (input, scopes, expected) => {
    expect(lensMatches(lens(input), scopes)).toBe(expected);
  });
});

describe('scope paths', () => {
  it.each([
    ['team:eng', null],
    ['team:eng/user:alice', null],
    ['*', null],
    ['plain', null],
  ])('%s is valid', (path, problem) => {
    expect(scopePathProblem(path)).toBe(problem);
  });

  it.each(['', 'team:', 'team eng', 'a//b', '/a', 'a/', 'x'.repeat(300), 'a:b:c'])(
    '%j is invalid',
    (path) => {
      expect(scopePathProblem(path)).not.toBeNull();
    },
  );

  it('covers and strictlyBelow', () => {
    expect(covers('a', 'a')).toBe(true);
    expect(covers('a', 'a/b')).toBe(true);
    expect(covers('a/b', 'a')).toBe(false);
    expect(strictlyBelow('a/b', 'a')).toBe(true);
    expect(strictlyBelow('a', 'a')).toBe(false);
    expect(strictlyBelow('b', 'a')).toBe(false);
  });

  it('rejects empty lenses and empty clauses', () => {
    expect(parseLens([])).toHaveProperty('problem');
    expect(parseLens([[]])).toHaveProperty('problem');
    expect(parseLens(['bad path'])).toHaveProperty('problem');
  });
});

const key = (grants: Partial<KeyGrant['grants']>, scopeFloor: string | null = null): KeyGrant => ({
  keyId: 'k',
  contextId: 'c',
  grants: { 'memory:read': [], 'memory:write': [], 'memory:forget': [], ...grants },
  scopeFloor,
});

// [key, requested paths, expected failure kind or null, why]
const GRANTS: [KeyGrant, string[], string | null, string][] = [
  [key({ 'memory:read': ['team:eng'] }), ['team:eng'], null, 'inside the grant'],
  [key({ 'memory:read': ['team:eng'] }), ['team:eng/user:alice'], null, 'below the grant'],
  [key({ 'memory:read': ['team:eng'] }), ['team:sales'], 'forbidden', 'outside the grant'],
  [
    key({ 'memory:read': ['team:eng/user:alice'] }),
    ['team:eng'],
    'forbidden',
    'wider than the grant',
  ],
  [key({ 'memory:read': [] }), ['team:eng'], 'forbidden', 'no grant for the verb'],
  [
    key({ 'memory:read': ['*'] }, 'team:eng'),
    ['team:eng/user:alice'],
    'validation-error',
    'below the floor',
  ],
  [key({ 'memory:read': ['*'] }, 'team:eng'), ['team:eng'], null, 'at the floor'],
  [
    key({ 'memory:read': ['*'] }, 'team:eng'),
    ['team:sales/user:x'],
    null,
    'floor only limits its own subtree',
  ],
  [
    key({ 'memory:read': ['team:eng'] }, 'team:eng'),
    ['team:sales'],
    'forbidden',
    'grant is checked before floor',
  ],
  [
    key({ 'memory:read': ['team:eng', 'team:sales'] }),
    ['team:eng', 'team:sales/user:y'],
    null,
    'several grant paths',
  ],
];

describe('grant and floor checks', () => {
  it.each(GRANTS)('%j asking %j -> %s (%s)', (k, paths, expected) => {
    expect(checkPaths(k, 'memory:read', paths)?.kind ?? null).toBe(expected);
  });

  it('an item is within a grant only when every scope is covered; unscoped needs the root', () => {
    const k = key({ 'memory:forget': ['team:eng'] });
    expect(itemWithinGrant(k, 'memory:forget', ['team:eng/user:a'])).toBe(true);
    expect(itemWithinGrant(k, 'memory:forget', ['team:eng', 'team:sales'])).toBe(false);
    expect(itemWithinGrant(k, 'memory:forget', [])).toBe(false);
    expect(itemWithinGrant(key({ 'memory:forget': ['*'] }), 'memory:forget', [])).toBe(true);
  });
});
