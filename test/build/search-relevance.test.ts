import { describe, expect, it } from 'vitest';
import { buildIndex, search } from '../../functions/site/docs-search.ts';
import type { SearchDocument } from '../../src/lib/agent-manifest.ts';
import { read } from './dist.ts';

/**
 * Search relevance as a test: questions in a reader's words (not page titles), each with the
 * pages that answer it; one of them must be in the top 3 of the built index, ranked by the same
 * function /api/docs/search runs. `from` is the page the reader searches from.
 */
const TABLE: { query: string; expect: string[]; from?: string }[] = [
  { query: 'retrieval modes', expect: ['/docs/concepts/retrieval-modes'] },
  { query: 'rate limit', expect: ['/docs/api/overview'] },
  { query: 'too many requests', expect: ['/docs/api/overview', '/errors/rate-limited'] },
  { query: 'how do I get an api key', expect: ['/auth', '/docs/api/principals-and-keys'] },
  {
    query: 'how do I delete a fact',
    expect: ['/docs/api/facts', '/docs/reference/memory/delete-fact'],
  },
  {
    query: 'make the agent forget something',
    expect: [
      '/docs/api/facts',
      '/docs/reference/memory/delete-fact',
      '/learn/memory-basics/foundations/contexts-and-facts',
    ],
  },
  { query: 'run it in my own cloudflare account', expect: ['/docs/self-hosting'] },
  {
    query: 'use it from cursor or claude desktop',
    expect: ['/docs/mcp', '/learn/building-agents/mcp/connecting-clients'],
  },
  { query: 'python client', expect: ['/docs/sdk/python'] },
  { query: 'install the typescript package', expect: ['/docs/sdk/typescript'] },
  {
    query: 'upload a pdf',
    expect: ['/docs/api/documents', '/docs/reference/memory/upload-document'],
  },
  {
    query: 'exact keyword match on names',
    expect: ['/docs/concepts/retrieval-modes', '/learn/memory-basics/retrieval/bm25-search'],
  },
  {
    query: 'semantic similarity with embeddings',
    expect: ['/docs/concepts/retrieval-modes', '/learn/memory-basics/retrieval/vector-search'],
  },
  {
    query: 'store the conversation history',
    expect: ['/docs/api/sessions', '/learn/building-agents/sessions/turns-and-sessions'],
  },
  {
    query: 'answer questions with citations',
    expect: ['/docs/api/context-and-chat', '/docs/reference/memory/chat'],
  },
  {
    query: 'limit what an agent can read',
    expect: ['/docs/concepts/scopes-and-lenses', '/docs/api/principals-and-keys'],
  },
  { query: 'back up and restore a context', expect: ['/docs/operations', '/docs/self-hosting'] },
  { query: 'how much does it cost', expect: ['/pricing'] },
  { query: 'retry without writing twice', expect: ['/docs/api/overview'] },
  { query: 'idempotency key', expect: ['/docs/api/overview'] },
  { query: 'unauthorized 401', expect: ['/errors/unauthorized', '/auth'] },
  { query: 'oauth login for mcp clients', expect: ['/auth', '/docs/mcp'] },
  { query: 'getting started in five minutes', expect: ['/docs/quickstart'] },
  { query: 'schema upgrade of old contexts', expect: ['/docs/api/migrations', '/docs/operations'] },
  {
    query: 'fit memories into a token budget',
    expect: ['/docs/api/context-and-chat', '/learn/building-agents/sessions/context-blocks'],
  },
  {
    query: 'merge duplicate facts',
    expect: ['/docs/api/context-and-chat', '/docs/reference/memory/consolidate'],
  },
  { query: 'llms.txt and markdown for agents', expect: ['/docs/agent-ready-site'] },
  { query: 'questions that span several facts', expect: ['/docs/concepts/retrieval-modes'] },
  { query: 'report a security vulnerability', expect: ['/security', '/contact'] },
  {
    query: 'what happened to facts that changed over time',
    expect: ['/docs/api/facts', '/docs/concepts/retrieval-modes'],
  },
  {
    query: 'create a context',
    expect: ['/docs/api/contexts', '/docs/reference/memory/create-context'],
    from: '/docs/quickstart',
  },
  { query: 'hybrid search', expect: ['/docs/concepts/retrieval-modes'], from: '/docs' },
];

const raw = JSON.parse(read('_agent/search-index.json')) as { documents: SearchDocument[] };
const index = buildIndex(raw.documents);
const top = (query: string, from?: string): string[] =>
  search(index, query, 3, { from }).map((r) => new URL(r.url).pathname);

describe('docs search relevance over the built index', () => {
  it(`answers ${TABLE.length} readers' questions in the top 3`, () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(30);
    const misses = TABLE.filter(
      (row) => !top(row.query, row.from).some((p) => row.expect.includes(p)),
    ).map((row) => `${row.query} -> ${top(row.query, row.from).join(', ')}`);
    expect(misses).toEqual([]);
  });

  it('ranks docs before Learn and blog pages for a reader in /docs, not elsewhere', () => {
    const away = (p: string) => /^\/(learn|blog)(\/|$)/.test(p);
    const paths = (from?: string) =>
      search(index, 'hybrid search', 50, { from }).map((r) => new URL(r.url).pathname);
    expect(away(paths()[0] ?? '')).toBe(true);
    const inDocs = paths('/docs/quickstart');
    const firstAway = inDocs.findIndex(away);
    expect(firstAway).toBeGreaterThan(0);
    expect(inDocs.slice(firstAway).every(away)).toBe(true);
  });
});
