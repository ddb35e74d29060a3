import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeSamples } from '../../src/api-reference/code-samples.ts';
import { IDS } from '../../src/api-reference/examples.ts';
import type { OperationView } from '../../src/api-reference/operations.ts';
import { allOperations } from '../../src/api-reference/sources.ts';
import { startDevServer, type DevServer } from '../support/wrangler-dev.ts';

/**
 * Every curl example of the API reference, run as printed (`sh -c`, with $BASE and $KEY set)
 * against a `wrangler dev` of its own, in an order a reader could follow: create the Context,
 * use it, export and import it, then delete. Each must answer one of its documented statuses,
 * never 400 (the example would be malformed) and never 5xx. Ids the service mints (facts,
 * documents) are not known in advance, so those examples may meet 404 `not-found`, as documented.
 */
const run = promisify(execFile);
let server: DevServer;
let dir: string;
let contextKey = '';

const ops = allOperations('https://engram.example');
const isManagement = (op: OperationView) => op.auth.startsWith('Bearer management key');
const order = (op: OperationView): number => {
  if (op.operationId === 'createContext') return 0;
  if (op.operationId === 'exportContext') return 2;
  if (op.operationId === 'importContext') return 3;
  if (op.operationId === 'importContextBlob') return 3.5;
  if (op.operationId === 'deleteContext') return 6;
  if (op.method === 'DELETE') return op.api === 'memory' && isManagement(op) ? 5 : 4;
  return 1;
};
const sequence = ops.slice().sort((a, b) => order(a) - order(b));

async function curl(op: OperationView): Promise<{ status: number; body: string }> {
  const sample = codeSamples(op)[0];
  if (!sample) throw new Error(`${op.operationId}: no curl example`);
  const key = op.api === 'memory' && !isManagement(op) ? contextKey : server.bootstrapKey;
  // -w appends the status on its own line; -o keeps the body apart from it.
  const { stdout } = await run(
    'sh',
    ['-c', `${sample.code} -o body.out -w '%{http_code}' && cat body.out`],
    {
      cwd: dir,
      env: { ...process.env, BASE: server.url, KEY: key },
    },
  );
  return { status: Number(stdout.slice(0, 3)), body: stdout.slice(3) };
}

beforeAll(async () => {
  server = await startDevServer();
  dir = await mkdtemp(join(tmpdir(), 'engram-curl-'));
  // The files the examples send: a small PDF, and a blob named by the example's sha256.
  await writeFile(join(dir, 'handbook.pdf'), '%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
  await writeFile(join(dir, `${IDS.sha256}.bin`), 'test');
}, 180_000);

afterAll(async () => {
  await server?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('every curl example of the API reference runs', () => {
  it('covers every operation of both APIs', () => {
    expect(sequence.length).toBe(ops.length);
    expect(ops.length).toBeGreaterThan(40);
  });

  it.each(sequence.map((op) => [op.operationId, op] as const))('%s', async (id, op) => {
    if (id === 'importContext') {
      // As the operations guide says: restore into a new, empty Context created first.
      await fetch(`${server.url}/api/v1/contexts`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${server.bootstrapKey}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ id: IDS.contextCopy }),
      });
    }
    const { status, body } = await curl(op);
    const documented = op.responses.map((r) => Number(r.status));
    expect(status, `${id}: ${body.slice(0, 300)}`).not.toBe(400);
    expect(status, `${id}: ${body.slice(0, 300)}`).toBeLessThan(500);
    expect(documented, `${id} answered ${status}: ${body.slice(0, 300)}`).toContain(status);
    if (status === 404) expect(body, id).toMatch(/errors\/not-found"/);
    // The import example reads acme.ndjson: what this export wrote.
    if (id === 'exportContext') await writeFile(join(dir, 'acme.ndjson'), body);
    if (id === 'createContext') {
      // The Context's own key for the examples after it: a supervisor with every grant.
      const headers = {
        authorization: `Bearer ${server.bootstrapKey}`,
        'content-type': 'application/json',
      };
      const principal = (await (
        await fetch(`${server.url}/api/v1/principals`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ kind: 'supervisor', display_name: 'docs-examples' }),
        })
      ).json()) as { id: string };
      const all = ['*'];
      const key = (await (
        await fetch(`${server.url}/api/v1/keys`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            principal_id: principal.id,
            context_id: IDS.context,
            grants: { 'memory:read': all, 'memory:write': all, 'memory:forget': all },
          }),
        })
      ).json()) as { key: string };
      contextKey = key.key;
    }
  });
});
