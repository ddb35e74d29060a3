import { describe, expect, it } from 'vitest';
import { call, countFacts, expectProblem, json, setup } from './helpers.ts';

interface FieldProblem {
  detail: string;
  errors: { detail: string; pointer: string }[];
}

describe('unknown fields in a JSON body', () => {
  it('answers 400 naming the field, with its JSON Pointer, and stores nothing', async () => {
    const { ctx, key } = await setup();
    const res = await call('POST', `/api/v1/${ctx}/facts`, {
      key,
      body: { content: 'Alice leads Platform', foo: 1 },
    });
    await expectProblem(res.clone(), 400, 'validation-error');
    const body = await json<FieldProblem>(res);
    expect(body.detail).toBe("Unknown field 'foo' in body");
    expect(body.errors).toEqual([{ detail: "Unknown field 'foo' in body", pointer: '/foo' }]);
    expect(await countFacts(ctx, key)).toBe(0);
  });

  it('finds unknown fields nested in arrays, and leaves the whole batch unwritten', async () => {
    const { ctx, key } = await setup();
    const res = await call('POST', `/api/v1/${ctx}/facts/batch`, {
      key,
      body: { facts: [{ content: 'one' }, { content: 'two', colour: 'red' }] },
    });
    const body = await json<FieldProblem>(res);
    expect(res.status).toBe(400);
    expect(body.errors).toEqual([
      { detail: "Unknown field 'facts.1.colour' in body", pointer: '/facts/1/colour' },
    ]);
    expect(await countFacts(ctx, key)).toBe(0);
  });

  it('keeps accepting any key inside metadata, which is documented as free-form', async () => {
    const { ctx, key } = await setup();
    const res = await call('POST', `/api/v1/${ctx}/facts`, {
      key,
      body: { content: 'Bob is in Paris', metadata: { anything: { goes: true } } },
    });
    expect(res.status).toBe(201);
  });
});

describe('deeply nested JSON bodies', () => {
  it('answers 400 naming the depth limit instead of overflowing the stack, and stores nothing', async () => {
    const { ctx, key } = await setup();
    let deep: unknown = 'x';
    for (let i = 0; i < 5_000; i++) deep = { a: deep };
    const res = await call('POST', `/api/v1/${ctx}/facts`, {
      key,
      body: { content: 'Alice leads Platform', metadata: { deep } },
    });
    const problem = await expectProblem(res, 400, 'validation-error');
    expect(problem.detail).toContain('nested deeper than 64 levels');
    expect(await countFacts(ctx, key)).toBe(0);
  });

  it('still accepts metadata nested a few levels', async () => {
    const { ctx, key } = await setup();
    let nested: unknown = 'x';
    for (let i = 0; i < 10; i++) nested = { a: nested };
    const res = await call('POST', `/api/v1/${ctx}/facts`, {
      key,
      body: { content: 'Bob is in Paris', metadata: { nested } },
    });
    expect(res.status).toBe(201);
  });
});

describe('malformed percent-encoding in a path', () => {
  it('is a 400 problem on every route, never a 500', async () => {
    const { key } = await setup();
    for (const path of [
      '/api/v1/%ED%A0%80/facts',
      '/api/v1/%/query',
      '/api/v1/contexts/%C0%AF',
      '/api/v1/ctx/facts/%zz',
    ]) {
      const res = await call('GET', path, { key });
      const problem = await expectProblem(res, 400, 'validation-error');
      expect(problem.detail).toContain('malformed percent-encoding');
    }
  });
});

describe('the OpenAPI document', () => {
  it('closes request bodies with additionalProperties: false, leaving metadata open', async () => {
    const res = await call('GET', '/api/v1/openapi.json', { key: null });
    const doc = await json<{
      paths: Record<
        string,
        {
          post?: {
            requestBody?: {
              content: Record<
                string,
                {
                  schema: {
                    additionalProperties?: unknown;
                    properties?: Record<string, { additionalProperties?: unknown }>;
                  };
                }
              >;
            };
          };
        }
      >;
    }>(res);
    const schema =
      doc.paths['/api/v1/{context_id}/facts']?.post?.requestBody?.content['application/json']
        ?.schema;
    expect(schema?.additionalProperties).toBe(false);
    expect(schema?.properties?.metadata?.additionalProperties).not.toBe(false);
  });
});
