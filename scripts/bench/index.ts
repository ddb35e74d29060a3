// `npm run bench`: runs every benchmark part and writes docs/BENCHMARKS.md.
// `npm run bench -- site memory` runs only the named parts (the other sections are kept as they were).
// `npm run bench -- export --sizes=10,100,200` passes the export part its Context sizes in MB.
// `npm run bench -- scale --sizes=10000,100000 --dims=local,768` grows one Context per vector
// width to those sizes in facts (scale.ts); it runs only when named: its default reaches 1M.
// Other arguments are handed to every selected part: `npm run bench -- recall --split dev`; a part
// run on a subset prints its figures and leaves its documented section as it was.
import { execSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { installTablesInProcess } from '../../test/support/install-tables.ts';

interface Part {
  name: string;
  module: string;
  exportName: string;
  /** Left out of a bare `npm run bench`: runs only when named (hours at its default sizes). */
  onlyWhenNamed?: boolean;
}

const PARTS: Part[] = [
  { name: 'site', module: './site.ts', exportName: 'runSiteBench' },
  { name: 'memory', module: './memory.ts', exportName: 'runMemoryBench' },
  { name: 'documents', module: './documents.ts', exportName: 'runDocumentsBench' },
  { name: 'model', module: './model.ts', exportName: 'runModelBench' },
  { name: 'export', module: './export.ts', exportName: 'runExportBench' },
  { name: 'fuzz', module: './fuzz.ts', exportName: 'runFuzzBench' },
  { name: 'recall', module: './recall.ts', exportName: 'runRecallBench' },
  // The fused modes with a neural sentence encoder as the vector arm (offline stand-in).
  { name: 'neural', module: './neural-stand-in.ts', exportName: 'runNeuralStandInBench' },
  { name: 'edge', module: './edge.ts', exportName: 'runEdgeBench' },
  { name: 'bundle', module: './bundle.ts', exportName: 'runBundleBench' },
  // One Context grown to 10k, 100k and 1M facts: heap, cold and warm queries, disk, ANN recall.
  { name: 'scale', module: './scale.ts', exportName: 'runScaleBench', onlyWhenNamed: true },
  // The same Context's store in this process, per statement: where the time goes (prints only).
  {
    name: 'scale-profile',
    module: './scale-profile.ts',
    exportName: 'runScaleProfile',
    onlyWhenNamed: true,
  },
  // Long work on the same kept Context: consolidation calls, re-embedding jobs (prints only).
  {
    name: 'scale-long',
    module: './scale-long.ts',
    exportName: 'runScaleLong',
    onlyWhenNamed: true,
  },
  // The IVF's recall against the exact scan on the same kept Context, by lists probed.
  { name: 'scale-ann', module: './scale-ann.ts', exportName: 'runScaleAnn', onlyWhenNamed: true },
  // LoCoMo's conversations written beside a million facts: recall at that size (prints only).
  {
    name: 'scale-planted',
    module: './scale-planted.ts',
    exportName: 'runScalePlanted',
    onlyWhenNamed: true,
  },
  // Lighthouse and axe-core on the audited pages (also alone: `npm run audit`).
  { name: 'audit', module: '../audit.ts', exportName: 'runAudit' },
];

const OUT = 'docs/BENCHMARKS.md';
const START = (name: string) => `<!-- bench:${name}:start -->`;
const END = (name: string) => `<!-- bench:${name}:end -->`;

function previousSections(): Map<string, string> {
  const sections = new Map<string, string>();
  if (!existsSync(OUT)) return sections;
  const text = readFileSync(OUT, 'utf8');
  for (const part of PARTS) {
    const from = text.indexOf(START(part.name));
    const to = text.indexOf(END(part.name));
    if (from >= 0 && to > from) {
      sections.set(part.name, text.slice(from + START(part.name).length, to).trim());
    }
  }
  return sections;
}

function machine(): string {
  const commit = execSync('git rev-parse --short HEAD').toString().trim();
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const gib = Math.round(totalmem() / 2 ** 30);
  return `${cpus().length} × ${cpu}, ${gib} GiB, Node ${process.version}, commit ${commit}`;
}

const args = process.argv.slice(2);
const wanted = args.filter((a) => PARTS.some((p) => p.name === a));
const flags = args.filter((a) => !wanted.includes(a));
const selected =
  wanted.length > 0
    ? PARTS.filter((p) => wanted.includes(p.name))
    : PARTS.filter((p) => p.onlyWhenNamed !== true);
const sections = previousSections();

// Parts that run the store in this process embed and count tokens: the read-only tables first,
// from the same bytes the build writes as assets (functions/memory/tables/load-tables.ts).
installTablesInProcess();
for (const part of selected) {
  console.log(`bench: ${part.name}...`);
  const mod: Record<string, unknown> = await import(part.module);
  const run = mod[part.exportName];
  if (typeof run !== 'function')
    throw new Error(`${part.module} does not export ${part.exportName}`);
  const result: unknown = await run(flags);
  // null: a partial run (e.g. `recall --split dev`) that printed its figures but must not replace
  // the documented ones.
  if (result === null) continue;
  if (typeof result !== 'string') throw new Error(`${part.exportName} did not return markdown`);
  sections.set(
    part.name,
    `${result.trim()}\n\n_Measured on ${machine()}, ${new Date().toISOString().slice(0, 10)}._`,
  );
  console.log(result);
}

const body = PARTS.filter((p) => sections.has(p.name))
  .map((p) => `${START(p.name)}\n${sections.get(p.name) ?? ''}\n${END(p.name)}`)
  .join('\n\n');

writeFileSync(
  OUT,
  `# Benchmarks\n\nEvery figure below was produced by \`npm run bench\` (or \`npm run bench -- <part>\`) on the machine named under each section, with the peer named beside it measured in the same run. Figures are ratios against that peer unless a unit is given. Nothing here is asserted by a test.\n\n${body}\n`,
);
console.log(`wrote ${OUT}`);
