import { describe, expect, it } from 'vitest';
import type { AuthContext } from '../auth/principal.ts';
import { MemoryError } from '../errors.ts';
import { resolveContextId } from './tool.ts';
import { errorResult, okResult, thrownResult } from './tool-result.ts';

const problem = {
  typeBase: 'https://engram.example/errors',
  requestId: 'req-1',
  instance: '/mcp#recall',
};

function auth(contextId: string | null): AuthContext {
  return {
    principal: { id: 'p1', kind: 'agent', displayName: 'a' },
    key: {
      keyId: 'k1',
      contextId,
      grants: { 'memory:read': ['*'], 'memory:write': ['*'], 'memory:forget': ['*'] },
      scopeFloor: null,
    },
  };
}

describe('tool results', () => {
  it('puts the problem in structuredContent.error with a readable text part', () => {
    const result = errorResult({ kind: 'forbidden', detail: 'lens outside grant' }, problem);
    expect(result.isError).toBe(true);
    expect(result.structuredContent?.error).toMatchObject({
      status: 403,
      type: 'https://engram.example/errors/forbidden',
      title: 'Forbidden',
      detail: 'lens outside grant',
      instance: '/mcp#recall',
    });
    expect(result.content).toEqual([{ type: 'text', text: '403 Forbidden: lens outside grant' }]);
  });

  it('reports a missing Context as 401, never 404', () => {
    const result = errorResult(
      { kind: 'context-not-found', detail: 'Context "x" does not exist' },
      problem,
    );
    expect(result.structuredContent?.error).toMatchObject({ status: 401, title: 'Unauthorized' });
    expect(JSON.stringify(result)).not.toContain('"x"');
  });

  it('keeps retry_after on 429', () => {
    const result = errorResult(
      { kind: 'rate-limited', detail: 'slow down', retryAfter: 7 },
      problem,
    );
    expect(result.structuredContent?.error).toMatchObject({ status: 429, retry_after: 7 });
  });

  it('turns an unexpected throw into a 500 carrying the request id, and a MemoryError into its status', () => {
    const internal = thrownResult(new Error('boom'), problem);
    expect(internal.structuredContent?.error).toMatchObject({ status: 500 });
    expect(String((internal.structuredContent?.error as { detail: string }).detail)).toContain(
      'req-1',
    );
    expect(JSON.stringify(internal)).not.toContain('boom');
    const known = thrownResult(new MemoryError({ kind: 'not-found', detail: 'no fact' }), problem);
    expect(known.structuredContent?.error).toMatchObject({ status: 404 });
  });

  it('sends a success as structured content and JSON text', () => {
    const result = okResult({ id: 'f1' });
    expect(result).toEqual({
      content: [{ type: 'text', text: '{"id":"f1"}' }],
      structuredContent: { id: 'f1' },
    });
  });
});

describe('context_id resolution', () => {
  it('uses the bound Context, and answers another id with 401', () => {
    expect(resolveContextId(auth('c1'), undefined)).toBe('c1');
    expect(resolveContextId(auth('c1'), 'c1')).toBe('c1');
    expect(() => resolveContextId(auth('c1'), 'c2')).toThrow(
      expect.objectContaining({ failure: expect.objectContaining({ kind: 'unauthorized' }) }),
    );
  });

  it('needs context_id from an unbound credential (400)', () => {
    expect(resolveContextId(auth(null), 'c9')).toBe('c9');
    expect(() => resolveContextId(auth(null), undefined)).toThrow(
      expect.objectContaining({ failure: expect.objectContaining({ kind: 'validation-error' }) }),
    );
  });
});
