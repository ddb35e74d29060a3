/**
 * Writes the memory API's OpenAPI document (the one `GET /api/v1/openapi.json` serves, generated
 * from the route schemas) to the path given as the first argument, for the docs' API reference.
 *
 * The build runs in Node, the memory app in workerd: the app's only runtime import Node lacks is
 * `cloudflare:workers` (the Durable Object base class), which this process swaps for a stub. The
 * document is asked of the real app through `app.request`, so it cannot drift from what it serves.
 * Run with `node --experimental-transform-types` (the route modules use parameter properties).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { dirname } from 'node:path';

const STUB = `data:text/javascript,${encodeURIComponent(
  'export class DurableObject { constructor(ctx, env) { this.ctx = ctx; this.env = env; } }\nexport const env = {};',
)}`;

registerHooks({
  resolve(specifier, context, next) {
    if (specifier.startsWith('cloudflare:')) return { url: STUB, shortCircuit: true };
    return next(specifier, context);
  },
});

const out = process.argv[2];
if (!out) throw new Error('Usage: export-memory-openapi.ts <output.json>');

const { createMemoryApp } = await import('../functions/memory/app.ts');
// An empty env: the document route reads no binding, and `servers` is rewritten by the reader.
const res = await createMemoryApp().request('https://engram.example/api/v1/openapi.json', {}, {});
if (!res.ok) throw new Error(`/api/v1/openapi.json answered ${res.status}: ${await res.text()}`);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(await res.json(), null, 2)}\n`);
