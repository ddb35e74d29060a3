import { describe, expect, it } from 'vitest';
import { accessTokenOf } from './access-token.ts';

// The shape alone sends a request to the key check or the OAuth lookup: a key must never be
// taken for a token (it would pay a KV read), nor a token for a key.
describe('accessTokenOf', () => {
  it.each([
    ['Bearer user-1:grant-2:secret-3', 'user-1:grant-2:secret-3'],
    ['bearer  a:b:c ', 'a:b:c'],
  ])('%s -> the token', (header, token) => {
    expect(accessTokenOf(header)).toBe(token);
  });

  it.each([
    'Bearer mem_agent_AAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    'Bearer mem_management_bootstrap_for_tests_only_0000000000',
    'Bearer a:b',
    'Bearer a:b:c:d',
    'Bearer ::',
    'Basic a:b:c',
    'a:b:c',
    '',
  ])('%s -> not a token', (header) => {
    expect(accessTokenOf(header)).toBeNull();
  });

  it('no header -> not a token', () => {
    expect(accessTokenOf(undefined)).toBeNull();
    expect(accessTokenOf(null)).toBeNull();
  });
});
