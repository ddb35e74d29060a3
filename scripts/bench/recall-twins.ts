// What the texture of chat costs, question by question: the real-chat set's noisy twin against its
// tidy twin, from two `--json` files of the recall bench run on the same seed (issue 42):
//   npm run bench -- recall --set real-chat --seed 4242 --modes default --json /tmp/noisy.json
//   npm run bench -- recall --set real-chat-tidy --seed 4242 --modes default --json /tmp/tidy.json
//   node scripts/bench/recall-twins.ts --seed=4242 /tmp/noisy.json /tmp/tidy.json [--system=default]
// For every question the tidy twin answers better (recall@10), it prints the question, each gold
// turn of the noisy twin (found or missed), the tidy twin's gold turns, and the noisy twin's top 5;
// then the recall lost, summed per question kind. A reading aid for finding what to fix, on seeds
// nobody tunes on: never the held-out split.
import { readFileSync } from 'node:fs';
import { K, type BenchSet } from './recall-report.ts';
import { loadSet } from './recall-sets.ts';

function flag(args: readonly string[], name: string): string | undefined {
  return args.findLast((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

const args = process.argv.slice(2);
const files = args.filter((a) => !a.startsWith('--'));
const seed = Number(flag(args, 'seed'));
const system = flag(args, 'system') ?? 'default';
const [noisyFile, tidyFile] = files;
if (!Number.isInteger(seed) || !noisyFile || !tidyFile) {
  console.error('usage: node scripts/bench/recall-twins.ts --seed=N <noisy.json> <tidy.json>');
  process.exit(2);
}

type Ranked = Record<string, string[]>;
const rankedOf = (file: string): Ranked => {
  const report = JSON.parse(readFileSync(file, 'utf8')) as { ranked?: Record<string, Ranked> };
  const ranked = report.ranked?.[system];
  if (!ranked) throw new Error(`${file}: no ranked lists for ${system} (written with --json)`);
  return ranked;
};

const textsOf = (set: BenchSet): Map<string, string> =>
  new Map(set.conversations.flatMap((c) => c.turns.map((t) => [t.id, `${t.speaker}: ${t.text}`])));

const recall = (list: readonly string[] | undefined, gold: readonly string[]): number =>
  (list ?? []).slice(0, K).filter((id) => gold.includes(id)).length / (gold.length || 1);

const noisy = loadSet({ kind: 'real-chat', seed, tidy: false });
const tidy = loadSet({ kind: 'real-chat', seed, tidy: true });
const noisyRanked = rankedOf(noisyFile);
const tidyRanked = rankedOf(tidyFile);
const noisyText = textsOf(noisy);
const tidyText = textsOf(tidy);
const tidyQuestion = new Map(tidy.questions.map((q) => [q.id, q]));
const lost: Record<string, number> = {};
for (const q of noisy.questions) {
  const twin = tidyQuestion.get(q.id);
  if (!twin) continue;
  const a = recall(noisyRanked[q.id], q.evidence);
  const b = recall(tidyRanked[twin.id], twin.evidence);
  if (b - a < 0.01) continue;
  lost[q.kind] = (lost[q.kind] ?? 0) + (b - a);
  const traits = q.traits?.length ? ` [${q.traits.join(',')}]` : '';
  console.log(
    `\n=== ${q.id} ${q.kind}${traits} noisy ${a.toFixed(2)} tidy ${b.toFixed(2)}: ${q.question}`,
  );
  const found = new Set((noisyRanked[q.id] ?? []).slice(0, K));
  for (const id of q.evidence)
    console.log(`  ${found.has(id) ? 'found' : 'MISSED'} ${noisyText.get(id)}`);
  for (const id of twin.evidence) console.log(`  tidy:  ${tidyText.get(id)}`);
  for (const id of (noisyRanked[q.id] ?? []).slice(0, 5))
    console.log(`    top: ${noisyText.get(id)}`);
}
const total = Object.values(lost).reduce((a, b) => a + b, 0);
console.log(`\nrecall@${K} lost to texture, summed over questions: ${total.toFixed(2)}`, lost);
