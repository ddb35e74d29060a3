// Documents part of `npm run bench` (also runnable alone: `node scripts/bench/documents.ts`;
// needs `npm run build`). Against a real `wrangler dev` (local D1, R2, Queues, Durable Objects,
// the `local` embedding provider), started by the test harness's `startDevServer()` with
// `--test-scheduled` so the cron tick can be fired on demand:
//   (a) document ingest: markdown uploads, MB/s from the first upload to the last `ready`;
//   (b) PDF extraction: multi-page PDFs through the same path, pages/s;
//   (c) migration rollout: 1,000 Contexts restored from a backup one schema version old, then
//       one scheduler tick and the worker role until `/migrations` shows none behind.
import { pathToFileURL } from 'node:url';
import { buildPdf } from '../../test/fixtures/documents/generate.ts';
import { startDevServer, type DevServer } from '../../test/support/wrangler-dev.ts';
import { emptyBackupAt } from '../../test/support/empty-backup.ts';

const MARKDOWN_DOCS = 8;
const MARKDOWN_BYTES = 512 * 1024;
const PDF_DOCS = 3;
const PDF_PAGES = 100;
const CONTEXTS = 1000;
const CONCURRENCY = 16;

async function call<T>(server: DevServer, path: string, init: RequestInit = {}): Promise<T> {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${server.bootstrapKey}`);
  const res = await fetch(`${server.url}${path}`, { ...init, headers });
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** Deterministic prose: different for every seed, so no upload is deduplicated. */
function prose(seed: number, bytes: number): string {
  const words = [
    'orchard',
    'survey',
    'river',
    'ledger',
    'harbour',
    'signal',
    'meadow',
    'copper',
    'lantern',
    'quarry',
    'falcon',
    'timber',
  ];
  let x = seed * 7919 + 1;
  const parts: string[] = [`# Report ${seed}\n`];
  let size = parts[0]?.length ?? 0;
  while (size < bytes) {
    const sentence: string[] = [];
    for (let i = 0; i < 12; i++) {
      x = (x * 1103515245 + 12345) % 2147483648;
      sentence.push(words[x % words.length] ?? 'word');
    }
    const line = `${sentence.join(' ')} ${seed}-${size}.${size % 5 === 0 ? '\n\n' : ' '}`;
    parts.push(line);
    size += line.length;
  }
  return parts.join('');
}

interface Uploaded {
  id: string;
  status: string;
  pages: number | null;
}

async function uploadAndWait(
  server: DevServer,
  ctx: string,
  bodies: { body: Uint8Array<ArrayBuffer> | string; type: string }[],
): Promise<{ seconds: number; docs: Uploaded[] }> {
  const started = performance.now();
  const accepted: Uploaded[] = [];
  for (const { body, type } of bodies) {
    accepted.push(
      await call<Uploaded>(server, `/api/v1/${ctx}/documents?scopes=*`, {
        method: 'POST',
        headers: { 'content-type': type },
        body,
      }),
    );
  }
  const done: Uploaded[] = [];
  for (const doc of accepted) {
    for (;;) {
      const now = await call<Uploaded>(server, `/api/v1/${ctx}/documents/${doc.id}`);
      if (now.status === 'ready' || now.status === 'failed') {
        if (now.status === 'failed') throw new Error(`document ${doc.id} failed`);
        done.push(now);
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return { seconds: (performance.now() - started) / 1000, docs: done };
}

async function pool<T>(items: T[], n: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) {
        const item = items[next++];
        if (item !== undefined) await fn(item);
      }
    }),
  );
}

interface MigrationsReport {
  latest_version: number;
  histogram: Record<string, number>;
  behind: unknown[];
}

async function migrationRollout(
  server: DevServer,
): Promise<{ seconds: number; behindBefore: number; latest: number }> {
  const latest = (await call<MigrationsReport>(server, '/api/v1/migrations')).latest_version;
  const from = latest - 1;
  const ids = Array.from({ length: CONTEXTS }, (_, i) => `bench-mig-${String(i).padStart(4, '0')}`);
  // Each Context is restored from a backup taken one schema version ago (the import path), so
  // its database is really at the previous version and the rollout applies one real step.
  await pool(ids, CONCURRENCY, async (id) => {
    await call(server, '/api/v1/contexts', json({ id }));
    const backup = emptyBackupAt(id, from);
    await call(server, `/api/v1/contexts/${id}/import`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: backup,
    });
  });
  const before = await call<MigrationsReport>(server, '/api/v1/migrations');
  const started = performance.now();
  const tick = await fetch(`${server.url}/__scheduled?cron=*+*+*+*+*`);
  if (!tick.ok) throw new Error(`scheduler tick: ${tick.status}`);
  for (;;) {
    const report = await call<MigrationsReport>(server, '/api/v1/migrations');
    if (report.behind.length === 0) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    seconds: (performance.now() - started) / 1000,
    behindBefore: before.behind.length,
    latest,
  };
}

export async function runDocumentsBench(): Promise<string> {
  const server = await startDevServer({ testScheduled: true });
  try {
    await call(server, '/api/v1/contexts', json({ id: 'bench-docs' }));
    const markdown = Array.from({ length: MARKDOWN_DOCS }, (_, i) => ({
      body: prose(i + 1, MARKDOWN_BYTES),
      type: 'text/markdown',
    }));
    const md = await uploadAndWait(server, 'bench-docs', markdown);
    const mdMb = (MARKDOWN_DOCS * MARKDOWN_BYTES) / 2 ** 20;

    const pdfs = Array.from({ length: PDF_DOCS }, (_, d) => ({
      body: buildPdf(
        Array.from(
          { length: PDF_PAGES },
          (_, p) =>
            `Document ${d} page ${p}: ${prose(d * 1000 + p, 300)
              .replace(/\n/g, ' ')
              .slice(0, 300)}`,
        ),
      ) as Uint8Array<ArrayBuffer>,
      type: 'application/pdf',
    }));
    const pdf = await uploadAndWait(server, 'bench-docs', pdfs);
    const pages = pdf.docs.reduce((n, d) => n + (d.pages ?? 0), 0);

    const rollout = await migrationRollout(server);
    return [
      '## Documents and migrations',
      '',
      '| measure | workload | result |',
      '|---|---|---|',
      `| document ingest (upload to \`ready\`: store, extract, chunk, embed, index) | ${MARKDOWN_DOCS} markdown files × ${MARKDOWN_BYTES / 1024} KiB | ${(mdMb / md.seconds).toFixed(2)} MB/s (${md.seconds.toFixed(1)} s) |`,
      `| PDF extraction through the same path | ${PDF_DOCS} PDFs × ${PDF_PAGES} pages | ${(pages / pdf.seconds).toFixed(1)} pages/s (${pdf.seconds.toFixed(1)} s) |`,
      `| schema rollout: one scheduler tick, then the worker role, until none behind | ${rollout.behindBefore} Contexts, V${rollout.latest - 1} → V${rollout.latest} | ${rollout.seconds.toFixed(1)} s (${(rollout.behindBefore / rollout.seconds).toFixed(1)} Contexts/s) |`,
      '',
      'Local `wrangler dev` (Miniflare): the queue delivers batches of 10 with a 1 s batch window, so',
      'the rollout time is bounded by local queue delivery as much as by the migration itself; the',
      'local embedding provider is the hashed n-gram one.',
    ].join('\n');
  } catch (err) {
    console.error(`wrangler dev output (end):\n${server.log()}`);
    throw err;
  } finally {
    await server.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(await runDocumentsBench());
}
