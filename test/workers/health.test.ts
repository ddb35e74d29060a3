import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';

describe('GET /health', () => {
  it('answers 200 with status ok', async () => {
    const res = await exports.default.fetch('http://example.com/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('serves the prebuilt homepage through the ASSETS binding', async () => {
    const res = await exports.default.fetch('http://example.com/');
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/<h1[^>]*>Engram/);
  });
});
