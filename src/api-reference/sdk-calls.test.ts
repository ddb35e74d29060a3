import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SDK_CALLS } from './sdk-calls.ts';

const MEMORY_OPENAPI = '.astro/api-reference/memory-openapi.json';

describe('SDK calls of the API reference', () => {
  // MemoryClient's methods, its management half included (sdk/js/src/management.ts).
  const js = ['client.ts', 'management.ts']
    .map((file) => readFileSync(`sdk/js/src/${file}`, 'utf8'))
    .join('\n');
  const py = readFileSync('sdk/python/engram_memory/client.py', 'utf8');

  it('names only methods the JS and Python clients define', () => {
    for (const [op, call] of Object.entries(SDK_CALLS)) {
      expect(js, `${op}: MemoryClient.${call.js}`).toMatch(
        new RegExp(`^  (async )?${call.js}\\(`, 'm'),
      );
      expect(py, `${op}: MemoryClient.${call.py}`).toMatch(
        new RegExp(`^    def ${call.py}\\(`, 'm'),
      );
      expect(call.jsCall.startsWith(`await memory.${call.js}(`)).toBe(true);
      expect(call.pyCall.startsWith(`memory.${call.py}(`)).toBe(true);
    }
  });

  it('covers every operation of the memory API (the document the build exported)', () => {
    const doc = JSON.parse(readFileSync(MEMORY_OPENAPI, 'utf8')) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const ids = Object.values(doc.paths).flatMap((item) =>
      Object.values(item).flatMap((op) => (op.operationId ? [op.operationId] : [])),
    );
    expect(ids.length).toBeGreaterThan(20);
    expect(ids.filter((id) => !(id in SDK_CALLS))).toEqual([]);
  });
});
