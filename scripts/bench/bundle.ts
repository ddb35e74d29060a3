// Bundle part of `npm run bench` (`npm run bench -- bundle`; needs `npm run build` for dist/).
// The Worker's upload size as `wrangler deploy --dry-run` bundles it, against Cloudflare's
// compressed-size limits (3 MB Workers Free, 10 MB Workers Paid), and the share of the local
// embedder's word-vector table in it; then what that embedder costs at run time against the
// hashed n-gram model it replaced (`local-hash-v1`), measured in this process on the recall set's
// turns: the table's one-time decode and the time to embed a text.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { embedHashed } from '../../functions/memory/retrieval/local-embeddings.ts';
import { embedSif } from '../../functions/memory/retrieval/sif-embeddings.ts';
import { wordVectorTable } from '../../functions/memory/retrieval/word-vector-table.ts';
import type { RecallSet } from '../../test/fixtures/recall-conversations/generate.ts';

const TABLE = 'functions/memory/retrieval/word-vectors.generated.ts';
const MB = 1_000_000;

function timePerText(embed: (text: string) => Float32Array, texts: string[]): number {
  for (const t of texts.slice(0, 200)) embed(t); // warm up
  const start = performance.now();
  for (const t of texts) embed(t);
  return ((performance.now() - start) * 1000) / texts.length;
}

export async function runBundleBench(): Promise<string> {
  const out = mkdtempSync(join(tmpdir(), 'engram-bundle-'));
  let script: Buffer;
  try {
    execFileSync('npx', ['wrangler', 'deploy', '--dry-run', '--env', '', '--outdir', out], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    script = readFileSync(join(out, 'index.js'));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  const gzip = gzipSync(script, { level: 9 }).length;
  const table = readFileSync(TABLE);
  const tableGzip = gzipSync(table, { level: 9 }).length;

  const decodeStart = performance.now();
  const words = wordVectorTable().rows.size;
  const decodeMs = performance.now() - decodeStart;
  const set = JSON.parse(
    readFileSync('test/fixtures/recall-conversations/recall-set.json', 'utf8'),
  ) as RecallSet;
  const texts = set.conversations.flatMap((c) => c.turns.map((t) => `${t.speaker}: ${t.text}`));
  const sifUs = timePerText(embedSif, texts);
  const hashUs = timePerText((t) => embedHashed(t), texts);

  const mb = (bytes: number) => (bytes / MB).toFixed(2);
  return [
    '## Worker bundle and the local embedder',
    '',
    'Command: `npm run bench -- bundle` (after `npm run build`). The Worker script as',
    '`wrangler deploy --dry-run` bundles it, gzip level 9 (what Cloudflare’s limit counts is the',
    'compressed upload); the local embedder’s word-vector table',
    `(\`${TABLE}\`, ${words.toLocaleString('en')} words × 100 dims, 4-bit; docs/retrieval.md).`,
    '',
    '| measure | result | peer | ratio |',
    '|---|---|---|---|',
    `| Worker script, gzip | ${mb(gzip)} MB (raw ${mb(script.length)} MB) | Workers Paid limit 10 MB | ${(gzip / (10 * MB)).toFixed(2)}× |`,
    `| Worker script, gzip | ${mb(gzip)} MB | Workers Free limit 3 MB | ${(gzip / (3 * MB)).toFixed(2)}× |`,
    `| word-vector table, gzip | ${mb(tableGzip)} MB (raw ${mb(table.length)} MB) | the whole Worker script, gzip | ${(tableGzip / gzip).toFixed(2)}× |`,
    `| embedding one turn, \`local-sif-v2\` | ${sifUs.toFixed(1)} µs | \`local-hash-v1\` ${hashUs.toFixed(1)} µs | ${(sifUs / hashUs).toFixed(2)}× |`,
    `| decoding the table, once per isolate | ${decodeMs.toFixed(1)} ms | | |`,
    '',
    `Per-turn times are the mean over the recall set’s ${texts.length.toLocaleString('en')} turns, in Node (not workerd).`,
  ].join('\n');
}
