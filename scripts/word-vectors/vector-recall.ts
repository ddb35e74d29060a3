// Vector-mode recall@10 of the local embedders, in process, in seconds rather than the recall
// bench's minutes: `node scripts/word-vectors/vector-recall.ts [dev|heldout]` (default dev; tune
// on dev only). It computes what the vector mode computes (cosine top 10 over each conversation's
// turns, written as "<Speaker>: <text>"), for `local-sif-v2` and `local-hash-v1`, so a change to
// the word-vector table or the composition can be judged before the full `npm run bench -- recall`.
import { readFileSync } from 'node:fs';
import { cosine } from '../../functions/memory/retrieval/embedder.ts';
import { embedHashed } from '../../functions/memory/retrieval/local-embeddings.ts';
import { embedSif } from '../../functions/memory/retrieval/sif-embeddings.ts';
import {
  QUESTION_KINDS,
  type RecallSet,
} from '../../test/fixtures/recall-conversations/generate.ts';
import { installTablesInProcess } from '../../test/support/install-tables.ts';

installTablesInProcess();
const K = 10;
const split = process.argv[2] === 'heldout' ? 'heldout' : 'dev';
const set = JSON.parse(
  readFileSync('test/fixtures/recall-conversations/recall-set.json', 'utf8'),
) as RecallSet;
const conversations = set.conversations.filter((c) => set.split[split].includes(c.id));

function recall(embed: (text: string) => Float32Array): Record<string, number> {
  const byKind = new Map<string, number[]>();
  for (const c of conversations) {
    const turns = c.turns.map((t) => ({ id: t.id, v: embed(`${t.speaker}: ${t.text}`) }));
    for (const q of set.questions.filter((x) => x.conversation_id === c.id)) {
      const qv = embed(q.question);
      const top = new Set(
        turns
          .map((t, i) => ({ id: t.id, i, s: cosine(t.v, qv) }))
          .sort((a, b) => b.s - a.s || a.i - b.i)
          .slice(0, K)
          .map((t) => t.id),
      );
      const r = q.evidence.filter((e) => top.has(e)).length / q.evidence.length;
      for (const kind of ['all', q.kind]) byKind.set(kind, [...(byKind.get(kind) ?? []), r]);
    }
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  return Object.fromEntries(['all', ...QUESTION_KINDS].map((k) => [k, mean(byKind.get(k) ?? [])]));
}

console.log(`vector recall@${K}, ${split} split (${conversations.length} conversations)`);
console.log(`| model | all | ${QUESTION_KINDS.join(' | ')} |`);
for (const [name, embed] of [
  ['local-sif-v2', embedSif],
  ['local-hash-v1', (t: string) => embedHashed(t)],
] as const) {
  const r = recall(embed);
  console.log(
    `| ${name} | ${['all', ...QUESTION_KINDS].map((k) => (r[k] ?? 0).toFixed(3)).join(' | ')} |`,
  );
}
