import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { readJson } from './dist.ts';
import { OPERATIONS } from '../support/origin-operations.ts';

interface Operation {
  operationId: string;
  parameters?: { name: string; in: string; required: boolean; schema: { pattern?: string } }[];
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}
interface Doc {
  openapi: string;
  info: { version: string };
  security: unknown[];
  paths: Record<string, { get: Operation }>;
  components: { schemas: Record<string, Record<string, unknown>> };
}

const SUCCESS_TYPES: Record<string, string> = {
  getCloudPricing: 'application/json',
  getLlmsIndex: 'text/plain',
  getLlmsFull: 'text/plain',
  getSitemapIndex: 'application/xml',
  getOpenApiDescription: 'application/json',
  getMcpServerCard: 'application/json',
  getAgentCard: 'application/json',
  getAiCatalog: 'application/json',
  getAgentSkillsIndex: 'application/json',
};

describe('/openapi.json', () => {
  const doc = readJson<Doc>('openapi.json');

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(readJson('openapi.json'));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
  });

  it('declares an empty top-level security requirement', () => {
    expect(doc.security).toEqual([]);
  });

  it('has exactly the 15 operation ids of spec section 4, at their paths', () => {
    const ids = Object.entries(doc.paths).map(([path, item]) => [item.get.operationId, path]);
    expect(Object.fromEntries(ids)).toEqual(OPERATIONS);
    expect(ids).toHaveLength(15);
  });

  it('leaves out /api/docs/search and /api/learn', () => {
    for (const path of Object.keys(doc.paths)) {
      expect(path.startsWith('/api/docs')).toBe(false);
      expect(path.startsWith('/api/learn')).toBe(false);
    }
  });

  it('gives every path parameter the segment pattern', () => {
    for (const item of Object.values(doc.paths)) {
      for (const p of item.get.parameters ?? []) {
        expect(p.in).toBe('path');
        expect(p.required).toBe(true);
        expect(p.schema.pattern).toBe('^[A-Za-z0-9._~@-]+$');
      }
    }
    expect(
      doc.paths['/{section}/{subsection}/{subsubsection}/{page}.md']?.get.parameters,
    ).toHaveLength(4);
  });

  it('uses the content types of the spec table', () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      const types = Object.keys(item.get.responses['200']?.content ?? {});
      expect(types, path).toEqual([SUCCESS_TYPES[item.get.operationId] ?? 'text/markdown']);
    }
  });

  it('describes 404s: a Problem for the catalogue, markdown elsewhere', () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      const notFound = item.get.responses['404']?.content ?? {};
      if (path === '/api/cloud/pricing.json') {
        expect(notFound['application/problem+json']?.schema).toEqual({
          $ref: '#/components/schemas/Problem',
        });
      } else {
        expect(Object.keys(notFound), path).toEqual(['text/markdown']);
      }
    }
  });

  it('carries the component schemas generated from the zod schemas', () => {
    expect(Object.keys(doc.components.schemas).sort()).toEqual(
      [
        'PricingCatalogue',
        'PricingComputeRate',
        'PricingCta',
        'PricingDataset',
        'PricingFeature',
        'PricingPlan',
        'PricingStudioPlan',
        'PricingUnitRate',
        'Problem',
      ].sort(),
    );
    const plan = doc.components.schemas.PricingPlan as {
      properties: Record<string, { $ref?: string; description?: string }>;
      required: string[];
    };
    expect(plan.properties.workbench?.$ref ?? JSON.stringify(plan.properties.workbench)).toContain(
      'PricingStudioPlan',
    );
    expect(plan.required.sort()).toEqual(
      ['cta', 'description', 'features', 'featuresTitle', 'id', 'name', 'price'].sort(),
    );
    const problem = doc.components.schemas.Problem as { required: string[] };
    expect(problem.required.sort()).toEqual(['code', 'resolution', 'status', 'title', 'type']);
  });
});
