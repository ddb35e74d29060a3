// Site part of `npm run bench` (also runnable alone: `node scripts/bench/site.ts`).
// (c) times one `npm run build`; (a) compares each page's markdown twin against the same full
// HTML page converted by the peer `turndown` (default options): token reduction and fidelity;
// (b) requests per second of a negotiated markdown response through the Worker against a static
// asset that bypasses it, under `wrangler dev`.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import TurndownService from 'turndown';
import type { AgentManifest, PageEntry } from '../../src/lib/agent-manifest.ts';
import { startDevServer } from '../../test/support/wrangler-dev.ts';

const DIST = 'dist';
const REQUESTS = 2_000;
const CONCURRENCY = 16;

interface Fidelity {
  headings: number;
  links: number;
  cells: number;
}

const tokens = (text: string) => countTokens(text, { disallowedSpecial: new Set() });

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const at = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[at] ?? Number.NaN;
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);

/** Headings, links and table cells of the page's content (its `<main>`): what a converter should keep. */
function htmlCounts(html: string): Fidelity {
  const main = /<main[\s>][\s\S]*<\/main>/i.exec(html)?.[0] ?? html;
  const count = (re: RegExp) => main.match(re)?.length ?? 0;
  return {
    headings: count(/<h[1-6][\s>]/gi),
    links: count(/<a\s[^>]*href=/gi),
    cells: count(/<t[dh][\s>]/gi),
  };
}

/** The same three counts in markdown (ATX and setext headings, inline links, GFM table cells). */
function markdownCounts(markdown: string): Fidelity {
  const text = markdown.replaceAll(/^(```|~~~)[\s\S]*?^\1/gm, '');
  const lines = text.split('\n');
  let headings = 0;
  let cells = 0;
  lines.forEach((line, i) => {
    // ATX headings may sit inside list items or quotes (`- ### Title`).
    if (/^\s*(?:[-*+]\s+|\d+\.\s+|>\s*)*#{1,6}\s/.test(line)) headings += 1;
    else if (/^(=+|-+)\s*$/.test(line) && (lines[i - 1] ?? '').trim() !== '') headings += 1;
    if (/^\s*\|.*\|\s*$/.test(line) && !/^\s*\|[\s:|-]+\|\s*$/.test(line)) {
      cells += line.trim().slice(1, -1).split('|').length;
    }
  });
  const inline = text.match(/(?<!!)\[[^\]]*\]\([^)]*\)/g)?.length ?? 0;
  const autolinks = text.match(/<(?:(?:https?|mailto):[^>\s]+|[^>\s@]+@[^>\s]+)>/g)?.length ?? 0;
  const links = inline + autolinks;
  return { headings, links, cells };
}

/** Share of the HTML content's items a converter kept (capped per page, so nav links do not count). */
function kept(reference: Fidelity[], converted: Fidelity[]): Record<keyof Fidelity, string> {
  const share = (key: keyof Fidelity) => {
    const total = reference.reduce((sum, r) => sum + r[key], 0);
    const got = reference.reduce(
      (sum, r, i) => sum + Math.min(r[key], converted[i]?.[key] ?? 0),
      0,
    );
    return `${got}/${total} (${total ? fmt((100 * got) / total, 0) : '100'}%)`;
  };
  return { headings: share('headings'), links: share('links'), cells: share('cells') };
}

function htmlFile(page: PageEntry): string {
  return join(DIST, page.path === '/' ? 'index.html' : `${page.path.slice(1)}.html`);
}

export function tokenSection(): string {
  const manifest = JSON.parse(
    readFileSync(join(DIST, '_agent/manifest.json'), 'utf8'),
  ) as AgentManifest;
  const pages = Object.values(manifest.pages).filter((p) => existsSync(htmlFile(p)));
  const turndown = new TurndownService();
  const ours: number[] = [];
  const peer: number[] = [];
  const reference: Fidelity[] = [];
  const oursFidelity: Fidelity[] = [];
  const peerFidelity: Fidelity[] = [];
  for (const page of pages) {
    const html = readFileSync(htmlFile(page), 'utf8');
    const twin = readFileSync(join(DIST, page.twin.slice(1)), 'utf8');
    const original = tokens(html);
    const converted = turndown.turndown(html);
    ours.push(original / tokens(twin));
    peer.push(original / tokens(converted));
    reference.push(htmlCounts(html));
    oursFidelity.push(markdownCounts(twin));
    peerFidelity.push(markdownCounts(converted));
  }
  const o = kept(reference, oursFidelity);
  const p = kept(reference, peerFidelity);
  return [
    `### Token reduction over ${pages.length} pages (o200k_base; original = the full HTML page)`,
    '',
    '| converter | median original/markdown | p90 | headings kept | links kept | table cells kept |',
    '| --- | --- | --- | --- | --- | --- |',
    `| markdown twins (unified, \`<main>\` only; blog posts authored) | ${fmt(quantile(ours, 0.5))}× | ${fmt(quantile(ours, 0.9))}× | ${o.headings} | ${o.links} | ${o.cells} |`,
    `| peer: \`turndown\` 7, default options, whole page | ${fmt(quantile(peer, 0.5))}× | ${fmt(quantile(peer, 0.9))}× | ${p.headings} | ${p.links} | ${p.cells} |`,
    '',
    'Kept = items of the HTML page’s `<main>` found in the markdown, capped per page (links in',
    'navigation that turndown keeps do not count as extra).',
  ].join('\n');
}

interface Throughput {
  perSecond: number;
  /** Non-200 answers: counted rather than fatal, since `wrangler dev` reloads when files change. */
  failed: number;
}

async function rps(url: string, init: RequestInit): Promise<Throughput> {
  let next = 0;
  let failed = 0;
  const worker = async () => {
    while (next < REQUESTS) {
      next += 1;
      const res = await fetch(url, init);
      if (res.status !== 200) failed += 1;
      await res.arrayBuffer();
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { perSecond: REQUESTS / ((performance.now() - started) / 1000), failed };
}

function staticAsset(): { path: string; bypasses: boolean } {
  const dir = join(DIST, '_astro');
  const file = existsSync(dir) ? readdirSync(dir).find((f) => !f.endsWith('.map')) : undefined;
  return file
    ? { path: `/_astro/${file}`, bypasses: true }
    : { path: '/favicon.svg', bypasses: false };
}

async function throughputSection(): Promise<string> {
  const server = await startDevServer();
  try {
    const md = { url: `${server.url}/pricing`, init: { headers: { accept: 'text/markdown' } } };
    const asset = staticAsset();
    const plain = { url: `${server.url}${asset.path}`, init: {} };
    // Warm both paths (isolate start, asset cache) before measuring.
    await rps(md.url, md.init);
    await rps(plain.url, plain.init);
    const markdown = await rps(md.url, md.init);
    const stat = await rps(plain.url, plain.init);
    return [
      `### Negotiated markdown through the Worker vs a static asset (\`wrangler dev\`, ${REQUESTS} requests each, concurrency ${CONCURRENCY})`,
      '',
      '| request | requests/s | non-200 |',
      '| --- | --- | --- |',
      `| \`GET /pricing\` with \`Accept: text/markdown\` (Worker: negotiate, twin, token headers) | ${fmt(markdown.perSecond, 0)} | ${markdown.failed} |`,
      `| \`GET ${asset.path}\` (${asset.bypasses ? 'static asset, bypasses the Worker' : 'no /_astro file in this build: passes through the Worker'}) | ${fmt(stat.perSecond, 0)} | ${stat.failed} |`,
      `| ratio markdown / static | ${fmt(markdown.perSecond / stat.perSecond, 2)} | |`,
    ].join('\n');
  } finally {
    await server.stop();
  }
}

function buildSection(): { text: string } {
  const started = performance.now();
  try {
    execSync('npm run build', { stdio: 'pipe' });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: Buffer; stderr?: Buffer };
    const output = `${stdout?.toString() ?? ''}${stderr?.toString() ?? ''}`;
    throw new Error(`npm run build failed, nothing measured:\n${output.slice(-2000)}`);
  }
  const seconds = (performance.now() - started) / 1000;
  const manifest = JSON.parse(
    readFileSync(join(DIST, '_agent/manifest.json'), 'utf8'),
  ) as AgentManifest;
  const count = Object.keys(manifest.pages).length;
  return {
    text: [
      '### Build time per page',
      '',
      `\`npm run build\` (Astro render, twins, token counts, indexes, discovery documents): ${fmt(seconds, 1)} s for ${count} pages = ${fmt((1000 * seconds) / count, 0)} ms per page.`,
    ].join('\n'),
  };
}

export async function runSiteBench(): Promise<string> {
  const build = buildSection();
  const tokensText = tokenSection();
  const throughput = await throughputSection();
  return [
    '## Site: markdown twins, negotiation, build',
    '',
    'Command: `npm run bench` (or `npm run bench -- site`; alone: `node scripts/bench/site.ts`).',
    '',
    tokensText,
    '',
    throughput,
    '',
    build.text,
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(await runSiteBench());
}
