import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildOpenApi } from '../integrations/openapi.ts';
import { codeSamples } from './code-samples.ts';
import { IDS } from './examples.ts';
import type { OpenApiDocument } from './openapi-types.ts';
import { operationsOf, type OperationView } from './operations.ts';
import { referenceSource } from './reference-meta.ts';

/** Every operation of both documents, as the reference pages see them. */
const memory = JSON.parse(
  readFileSync('.astro/api-reference/memory-openapi.json', 'utf8'),
) as OpenApiDocument;
const site = buildOpenApi('https://engram.example') as unknown as OpenApiDocument;
const ops: OperationView[] = [
  ...operationsOf({ api: 'memory', title: 'Memory API', doc: memory }),
  ...operationsOf({ api: 'site', title: 'Website API', doc: site }),
];

describe('reference examples of every operation', () => {
  it('has a summary of its own, not the method and path again', () => {
    expect(ops.length).toBeGreaterThan(40);
    const bare = ops.filter((op) => op.summary === `${op.method} ${op.path}`);
    expect(bare.map((op) => op.operationId)).toEqual([]);
  });

  it('prints no placeholder: no ellipsis, no {param}, no bare `sha256`, no "string"', () => {
    for (const op of ops) {
      for (const sample of codeSamples(op)) {
        const where = `${op.operationId} (${sample.label})`;
        expect(sample.code, where).not.toMatch(/…|\{[a-z_]+\}|\/sha256\b|"string"/);
      }
    }
  });

  it('puts each kind of id in its own slot, the same in curl, TypeScript and Python', () => {
    const check: [string, string][] = [
      ['getFact', IDS.fact],
      ['getPrincipal', IDS.principal],
      ['revokeKey', IDS.key],
      ['getDocument', IDS.document],
      ['getSession', IDS.session],
      ['retryDeadLetter', IDS.deadLetter],
      ['exportContextBlob', IDS.sha256],
    ];
    for (const [id, value] of check) {
      const op = ops.find((o) => o.operationId === id);
      const samples = op ? codeSamples(op) : [];
      expect(samples.map((s) => s.label)).toEqual(['curl', 'TypeScript', 'Python']);
      for (const s of samples) expect(s.code, `${id} ${s.label}`).toContain(value);
    }
  });

  it('sends the same JSON body in curl as the SDK call names', () => {
    const query = ops.find((o) => o.operationId === 'queryMemory');
    const [curl, ts, py] = query ? codeSamples(query) : [];
    expect(curl?.code).toContain('"mode": "hybrid_graph"');
    expect(ts?.code).toContain(`mode: 'hybrid_graph', k: 5`);
    expect(py?.code).toContain(`mode="hybrid_graph", k=5`);
  });

  it('links each memory page to the route file that declares it', () => {
    expect(referenceSource('memory', 'getFact')).toBe('functions/memory/routes/facts.ts');
    expect(referenceSource('memory', 'listDocuments')).toBe('functions/memory/routes/documents.ts');
    for (const op of ops) expect(referenceSource(op.api, op.operationId)).toMatch(/\.ts$/);
  });
});
