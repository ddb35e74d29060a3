import { describe, expect, it } from 'vitest';
import { curlSample } from './code-samples.ts';
import { exampleValue } from './example-value.ts';
import type { OpenApiDocument } from './openapi-types.ts';
import { errorsOf, humanize, kebab, operationsOf, referencePath } from './operations.ts';
import { schemaRows, typeLabel } from './schema-rows.ts';

const doc: OpenApiDocument = {
  info: { title: 'T', version: '1' },
  security: [{ bearer: [] }],
  paths: {
    '/api/v1/{context_id}/facts': {
      post: {
        operationId: 'createFact',
        summary: 'Write a fact',
        parameters: [
          { name: 'context_id', in: 'path', required: true, schema: { type: 'string' } },
        ],
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  content: { type: 'string', minLength: 1 },
                  scopes: { type: 'array', items: { type: 'string' } },
                },
                required: ['content'],
              },
            },
          },
        },
        responses: {
          '201': {
            description: 'Created',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    facts: { type: 'array', items: { $ref: '#/components/schemas/Fact' } },
                  },
                  required: ['facts'],
                },
              },
            },
          },
          '400': { description: 'validation-error: bad body' },
          '429': { description: 'Too many requests' },
        },
      },
    },
    '/api/v1/contexts': {
      post: { operationId: 'createContext', summary: 'Create (management key)', responses: {} },
    },
  },
  components: {
    schemas: {
      Fact: {
        type: 'object',
        properties: { id: { type: 'string' }, score: { type: ['number', 'null'] } },
        required: ['id'],
      },
    },
  },
};

describe('operationsOf', () => {
  const [fact, context] = operationsOf({ api: 'memory', title: 'Memory API', doc });

  it('names pages by operation id', () => {
    expect(kebab('createFactsBatch')).toBe('create-facts-batch');
    expect(humanize('getOpenApiDescription')).toBe('Get OpenAPI description');
    expect(humanize('getLlmsIndex')).toBe('Get LLMs index');
    expect(fact && referencePath(fact)).toBe('/docs/reference/memory/create-fact');
  });

  it('reads method, path, auth and parameters', () => {
    expect(fact?.method).toBe('POST');
    expect(fact?.path).toBe('/api/v1/{context_id}/facts');
    expect(fact?.auth).toMatch(/^Bearer API key/);
    expect(context?.auth).toMatch(/^Bearer management key/);
    expect(fact?.parameters.map((p) => [p.name, p.in, p.required])).toEqual([
      ['context_id', 'path', true],
    ]);
  });

  it('expands referenced response schemas into rows named by path', () => {
    const ok = fact?.responses.find((r) => r.status === '201');
    expect(ok?.body?.rows.map((r) => [r.name, r.type, r.required])).toEqual([
      ['facts', 'array of Fact', true],
      ['facts[].id', 'string', true],
      ['facts[].score', 'number or null', false],
    ]);
  });

  it('links a named problem slug, and every problem of the status when none is named', () => {
    const bad = fact?.responses.find((r) => r.status === '400');
    expect(bad?.errors.map((e) => e.slug)).toEqual(['validation-error']);
    const limited = fact?.responses.find((r) => r.status === '429');
    expect(limited?.errors.map((e) => e.slug)).toEqual(['rate-limited']);
  });

  it('lists "Context not found" only where the path names a Context', () => {
    expect(errorsOf('404', 'Not found', '/api/v1/{context_id}/facts').map((e) => e.slug)).toEqual([
      'not-found',
      'context-not-found',
    ]);
    expect(errorsOf('404', 'Not found', '/{page}').map((e) => e.slug)).toEqual(['not-found']);
    expect(errorsOf('404', 'Not found', '/api/v1/principals/{id}').map((e) => e.slug)).toEqual([
      'not-found',
    ]);
  });

  it('fails loudly on a dangling $ref', () => {
    expect(() => schemaRows({ $ref: '#/components/schemas/Nope' }, {})).toThrow(/Nope/);
  });
});

describe('examples', () => {
  it('takes the operation’s own example body from examples.ts', () => {
    const body = operationsOf({ api: 'memory', title: 'M', doc })[0]?.requestBody?.example;
    expect(JSON.parse(body ?? '{}')).toEqual({
      content: 'Alice leads the Platform team in Berlin',
      scopes: ['team:eng'],
    });
  });

  it('derives a body from the schema otherwise: required fields only', () => {
    const schema = {
      type: 'object',
      properties: { content: { type: 'string' }, scopes: { type: 'array' } },
      required: ['content'],
    };
    expect(exampleValue(schema, {}, { only: 'required' })).toEqual({
      content: 'Alice leads the Platform team in Berlin',
    });
  });

  it('prefers the schema’s example, then default, then enum', () => {
    expect(exampleValue({ type: 'string', example: 'x', default: 'y' }, {}, { only: 'all' })).toBe(
      'x',
    );
    expect(exampleValue({ type: 'integer', default: 10 }, {}, { only: 'all' })).toBe(10);
    expect(exampleValue({ type: 'string', enum: ['bm25'] }, {}, { only: 'all' })).toBe('bm25');
    expect(
      typeLabel({ type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } }, {}),
    ).toBe('array of (string or integer)');
  });

  it('writes a curl command with the key, the path filled and the JSON body', () => {
    const op = operationsOf({ api: 'memory', title: 'M', doc })[0];
    expect(op && curlSample(op)).toBe(
      `curl -s -X POST "$BASE/api/v1/acme/facts" \\\n  -H "authorization: Bearer $KEY" \\\n  -H 'content-type: application/json' \\\n  -d '{\n  "content": "Alice leads the Platform team in Berlin",\n  "scopes": [\n    "team:eng"\n  ]\n}'`,
    );
  });
});
