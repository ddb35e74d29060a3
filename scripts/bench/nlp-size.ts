// `node scripts/bench/nlp-size.ts`: what each NLP library adds to the Worker bundle. Bundles the
// tagger module that wraps it (functions/memory/retrieval/tagger.ts for compromise,
// scripts/bench/nlp/tagger-wink.ts for wink-nlp with its English lite model) the way wrangler
// does (esbuild, ESM, minified, workerd conditions) and prints raw and gzip -9 bytes. Then the CPU
// the shipped analysis (compromise) costs per question and per chat turn of the recall set, in Node.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { analyseContent, analyseQuery } from '../../functions/memory/retrieval/text-analysis.ts';

const ENTRIES = [
  { library: 'compromise 14 (two)', entry: 'functions/memory/retrieval/tagger.ts' },
  { library: 'wink-nlp 2 + wink-eng-lite-web-model 1', entry: 'scripts/bench/nlp/tagger-wink.ts' },
];

console.log('| library | minified bytes | gzip bytes |\n|---|---|---|');
for (const { library, entry } of ENTRIES) {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['workerd', 'worker', 'browser'],
    write: false,
    logLevel: 'error',
  });
  const code = result.outputFiles[0]?.contents ?? new Uint8Array();
  const gzip = gzipSync(code, { level: 9 }).length;
  console.log(
    `| ${library} | ${code.length.toLocaleString('en')} | ${gzip.toLocaleString('en')} |`,
  );
}

interface RecallSet {
  conversations: { turns: { speaker: string; text: string }[] }[];
  questions: { question: string }[];
}
const set = JSON.parse(
  readFileSync('test/fixtures/recall-conversations/recall-set.json', 'utf8'),
) as RecallSet;
const turns = set.conversations.flatMap((c) => c.turns.map((t) => `${t.speaker}: ${t.text}`));
const questions = set.questions.map((q) => q.question);

function timed<T>(inputs: T[], run: (input: T) => unknown): number[] {
  return inputs.map((input) => {
    const start = performance.now();
    run(input);
    return performance.now() - start;
  });
}
function percentile(samples: number[], p: number): string {
  const sorted = [...samples].sort((a, b) => a - b);
  return (sorted[Math.floor((sorted.length - 1) * p)] ?? 0).toFixed(2);
}

// The first call unpacks compromise's lexicon (isolate start-up); time it on its own.
const start = performance.now();
analyseQuery('warm up');
console.log(`\nfirst analysis (lexicon unpack): ${(performance.now() - start).toFixed(1)} ms`);
const q = timed(questions, (text) => analyseQuery(text));
const t = timed(turns, (text) => analyseContent(text, 'Someone'));
console.log('| analysis | p50 ms | p95 ms | inputs |\n|---|---|---|---|');
console.log(
  `| analyseQuery (question) | ${percentile(q, 0.5)} | ${percentile(q, 0.95)} | ${q.length} |`,
);
console.log(
  `| analyseContent (chat turn) | ${percentile(t, 0.5)} | ${percentile(t, 0.95)} | ${t.length} |`,
);
