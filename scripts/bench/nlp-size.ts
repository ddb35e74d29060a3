// `node scripts/bench/nlp-size.ts`: what each NLP library adds to the Worker bundle. Bundles the
// tagger module that wraps it (functions/memory/retrieval/tagger.ts for compromise,
// scripts/bench/nlp/tagger-wink.ts for wink-nlp with its English lite model) the way wrangler
// does (esbuild, ESM, minified, workerd conditions) and prints raw and gzip -9 bytes.
import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';

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
