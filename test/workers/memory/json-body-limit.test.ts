import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import {
  MAX_BATCH_BODY_BYTES,
  MAX_JSON_BODY_BYTES,
} from '../../../functions/memory/middleware/json-body-limit.ts';
import { BOOTSTRAP, call, countFacts, expectProblem, json, ORIGIN, setup } from './helpers.ts';

/** JSON bodies are capped before auth and parsing (issue 16: cheap rejections under fuzz). */

const oversized = JSON.stringify({ content: 'x'.repeat(MAX_JSON_BODY_BYTES + 1) });

describe('the JSON body cap', () => {
  it('refuses an oversized body from its Content-Length with 413, before auth', async () => {
    const { ctx, key } = await setup();
    const res = await call('POST', `/api/v1/${ctx}/facts`, { key, rawBody: oversized });
    const problem = await expectProblem(res, 413, 'payload-too-large');
    expect(problem.detail).toContain(String(MAX_JSON_BODY_BYTES));
    // No key at all: still 413, so the refusal cost no key lookup and no rate-limit write.
    const anonymous = await call('POST', `/api/v1/${ctx}/facts`, { key: null, rawBody: oversized });
    await expectProblem(anonymous, 413, 'payload-too-large');
    expect(await countFacts(ctx, key)).toBe(0);
  });

  it('refuses an oversized chunked body (no Content-Length) once read', async () => {
    const { ctx, key } = await setup();
    const bytes = new TextEncoder().encode(oversized);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 65_536) {
          controller.enqueue(bytes.subarray(i, i + 65_536));
        }
        controller.close();
      },
    });
    const res = await exports.default.fetch(`${ORIGIN}/api/v1/${ctx}/facts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body,
    });
    await expectProblem(res, 413, 'payload-too-large');
    expect(await countFacts(ctx, key)).toBe(0);
  });

  it('lets a full batch of the longest facts through: the caps sit above valid bodies', async () => {
    const { ctx, key } = await setup();
    // 40 of the longest facts: past the 1 MiB cap of other routes, under the batch's.
    const facts = Array.from({ length: 40 }, (_, i) => ({
      content: `${i} ${'fact text '.repeat(3276)}`.slice(0, 32_768),
    }));
    const body = JSON.stringify({ facts });
    expect(body.length).toBeGreaterThan(MAX_JSON_BODY_BYTES);
    expect(body.length).toBeLessThan(MAX_BATCH_BODY_BYTES);
    const res = await call('POST', `/api/v1/${ctx}/facts/batch`, { key, rawBody: body });
    expect(res.status).toBe(201);
    expect(await countFacts(ctx, key)).toBe(40);
    // Indexing 1.3 MB of facts outlasts the default 5 s on a loaded machine: a limit, not a measure.
  }, 60_000);

  it('leaves document uploads of JSON files to their own upload limit', async () => {
    const { ctx } = await setup();
    const file = JSON.stringify({ notes: 'y'.repeat(MAX_JSON_BODY_BYTES + 10) });
    const res = await call('POST', `/api/v1/${ctx}/documents?filename=big.json`, {
      key: BOOTSTRAP,
      rawBody: file,
    });
    expect(res.status).toBe(202);
    expect(await json<{ size_bytes: number }>(res)).toMatchObject({ size_bytes: file.length });
  });
});
