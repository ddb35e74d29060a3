import { describe, expect, inject, it } from 'vitest';

describe('wrangler dev serves site and memory API together', () => {
  const base = inject('baseUrl');

  it('answers /health', async () => {
    const res = await fetch(`${base}/health`);
    expect(res.status).toBe(200);
  });

  it('serves the homepage', async () => {
    const res = await fetch(`${base}/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/<h1[^>]*>Engram/);
  });
});
