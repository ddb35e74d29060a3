// Recall part of `npm run bench` (`npm run bench -- recall [flags]`, or
// `node scripts/bench/recall.ts [flags]`; needs `npm run build`). Evidence recall on long
// two-person conversations (test/fixtures/recall-conversations/): every conversation is written
// turn by turn as facts into its own fresh Context through the real HTTP API of the Worker under
// `wrangler dev` (local provider, offline), then every question is asked in each mode with k = 10.
// MiniSearch and Orama, both with their defaults and in process, index the same turns and answer
// the same questions in the same run.
//
// Flags:
//   --split dev|heldout|all        which conversations (default all; figures are always per split)
//   --modes default,bm25,...       which modes of ours (default: default,bm25,vector,hybrid,hybrid_graph;
//                                  `default` sends no mode, so the server picks)
//   --json <file>                  also write every figure as JSON, for diffing runs
//   --limit-conversations <N>      only the first N conversations of each split, for a quick run
// A run narrowed by --split, --modes or --limit-conversations prints its figures but does not
// rewrite the section of docs/BENCHMARKS.md, which always shows the whole set.
import { execSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { create, insertMultiple, search, type AnyOrama } from '@orama/orama';
import MiniSearch from 'minisearch';
import {
  QUESTION_KINDS,
  type Conversation,
  type Question,
  type RecallSet,
  type Turn,
} from '../../test/fixtures/recall-conversations/generate.ts';
import { startDevServer, type DevServer } from '../../test/support/wrangler-dev.ts';
import { managementCall, percentile } from './dev-api.ts';

const MODES = ['default', 'bm25', 'vector', 'hybrid', 'hybrid_graph'] as const;
type Mode = (typeof MODES)[number];
const SPLITS = ['dev', 'heldout'] as const;
type Split = (typeof SPLITS)[number];
const PEERS = ['MiniSearch', 'Orama'] as const;
const K = 10;
const BATCH = 100;

export interface RecallOptions {
  splits: Split[];
  modes: Mode[];
  json: string | null;
  limitConversations: number | null;
}

/** Parses the flags above; throws with a usage line on anything else. */
export function parseRecallArgs(args: string[]): RecallOptions {
  const options: RecallOptions = {
    splits: [...SPLITS],
    modes: [...MODES],
    json: null,
    limitConversations: null,
  };
  const usage =
    'usage: recall [--split dev|heldout|all] [--modes default,bm25,vector,hybrid,hybrid_graph] [--json <file>] [--limit-conversations N]';
  for (let i = 0; i < args.length; i++) {
    const flag = args[i];
    const value = args[i + 1];
    if (flag === '--split' && value) {
      if (value === 'all') options.splits = [...SPLITS];
      else if (value === 'dev' || value === 'heldout') options.splits = [value];
      else throw new Error(`--split must be dev, heldout or all\n${usage}`);
      i++;
    } else if (flag === '--modes' && value) {
      const modes = value.split(',').map((m) => m.trim());
      const unknown = modes.filter((m) => !(MODES as readonly string[]).includes(m));
      if (unknown.length > 0) throw new Error(`unknown mode ${unknown.join(', ')}\n${usage}`);
      options.modes = MODES.filter((m) => modes.includes(m));
      i++;
    } else if (flag === '--json' && value) {
      options.json = value;
      i++;
    } else if (flag === '--limit-conversations' && value) {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 1) throw new Error(`--limit-conversations needs N ≥ 1`);
      options.limitConversations = n;
      i++;
    } else if (flag !== 'recall') {
      throw new Error(`unexpected argument ${flag ?? ''}\n${usage}`);
    }
  }
  return options;
}

/**
 * The one place a turn becomes a fact. `valid_from`, `session` and `position` are the
 * conversation-structure contract of issue 10; a server that does not know them yet drops them
 * (zod strips unknown keys), so the same bench measures before and after.
 */
export function turnToFact(turn: Turn): {
  content: string;
  valid_from: string;
  session: string;
  position: number;
} {
  return {
    content: `${turn.speaker}: ${turn.text}`,
    valid_from: turn.said_at,
    session: turn.session_id,
    position: turn.position,
  };
}

/** Ranked turn ids of every question for one system, with per-query latency in ms. */
interface Run {
  ranked: Map<string, string[]>;
  latency: number[];
}

interface Scores {
  questions: number;
  recall_at_5: number;
  recall_at_10: number;
  mrr: number;
}

function score(questions: Question[], ranked: Map<string, string[]>): Scores {
  let r5 = 0;
  let r10 = 0;
  let rr = 0;
  for (const q of questions) {
    const list = ranked.get(q.id) ?? [];
    const gold = new Set(q.evidence);
    const hits = (k: number) => list.slice(0, k).filter((id) => gold.has(id)).length;
    r5 += hits(5) / gold.size;
    r10 += hits(K) / gold.size;
    const first = list.slice(0, K).findIndex((id) => gold.has(id));
    rr += first >= 0 ? 1 / (first + 1) : 0;
  }
  const n = questions.length || 1;
  return {
    questions: questions.length,
    recall_at_5: r5 / n,
    recall_at_10: r10 / n,
    mrr: rr / n,
  };
}

class Api {
  private readonly server: DevServer;

  constructor(server: DevServer) {
    this.server = server;
  }

  call(method: string, path: string, body?: unknown): Promise<unknown> {
    return managementCall(this.server, method, path, body);
  }
}

/** Writes a conversation into a fresh Context; returns stored fact id → turn id. */
async function ingest(api: Api, ctx: string, turns: Turn[]): Promise<Map<string, string>> {
  await api.call('POST', '/api/v1/contexts', { id: ctx });
  const toTurn = new Map<string, string>();
  for (let i = 0; i < turns.length; i += BATCH) {
    const chunk = turns.slice(i, i + BATCH);
    const body = (await api.call('POST', `/api/v1/${ctx}/facts/batch`, {
      facts: chunk.map(turnToFact),
    })) as { facts: { id: string }[] };
    body.facts.forEach((f, j) => {
      const turn = chunk[j];
      if (turn) toTurn.set(f.id, turn.id);
    });
  }
  return toTurn;
}

/** Asks one question; returns the ranked turn ids and the mode the server says it used. */
async function ask(
  api: Api,
  ctx: string,
  question: string,
  mode: Mode,
  toTurn: Map<string, string>,
): Promise<{ turns: string[]; used: string; ms: number }> {
  const t = performance.now();
  const body = (await api.call('POST', `/api/v1/${ctx}/query`, {
    query: question,
    k: K,
    ...(mode === 'default' ? {} : { mode }),
  })) as { mode: string; results: { id: string }[] };
  const ms = performance.now() - t;
  return {
    turns: body.results.map((r) => toTurn.get(r.id) ?? `unknown:${r.id}`),
    used: body.mode,
    ms,
  };
}

function miniSearchOf(turns: Turn[]): MiniSearch<{ id: string; content: string }> {
  const index = new MiniSearch<{ id: string; content: string }>({ fields: ['content'] });
  index.addAll(turns.map((t) => ({ id: t.id, content: turnToFact(t).content })));
  return index;
}

async function oramaOf(turns: Turn[]): Promise<AnyOrama> {
  // Orama keeps a document's own `id` as its id, so hits come back as turn ids.
  const db = create({ schema: { content: 'string' } as const });
  await insertMultiple(
    db,
    turns.map((t) => ({ id: t.id, content: turnToFact(t).content })),
  );
  return db;
}

export interface RecallReport {
  command: string;
  commit: string;
  date: string;
  set: { seed: number; conversations: Record<Split, string[]>; questions: Record<Split, number> };
  /** split → system → "all" or a kind → scores */
  scores: Record<string, Record<string, Record<string, Scores>>>;
  /** system → per-query latency in ms */
  latency: Record<string, { p50: number; p95: number; queries: number }>;
  /** mode asked → modes the server reported using, with counts (e.g. a fallback to bm25) */
  served_as: Record<string, Record<string, number>>;
}

const f3 = (n: number) => n.toFixed(3);

/** The figures of today's retrieval before the issue 10 work, kept to compare every later run with. */
const BASELINE_PATH = 'test/fixtures/recall-conversations/baseline.json';

function readBaseline(): RecallReport | null {
  try {
    return JSON.parse(readFileSync(BASELINE_PATH, 'utf8')) as RecallReport;
  } catch {
    return null;
  }
}
const ms = (n: number) => n.toFixed(n < 10 ? 2 : 1);

/** withBaseline: false when only some conversations ran, so the baseline is not like-for-like. */
function markdown(
  report: RecallReport,
  systems: string[],
  set: RecallSet,
  withBaseline: boolean,
): string {
  const lines = [
    '## Recall on long conversations',
    '',
    `Command: \`${report.command}\` (after \`npm run build\`). Set: \`test/fixtures/recall-conversations/recall-set.json\``,
    `(seed ${report.set.seed}; regenerate with \`npm exec -- node test/fixtures/recall-conversations/generate.ts\`):`,
    `${set.stats.conversations} conversations between two friends, ${set.stats.turns.toLocaleString('en')} turns in dated sessions over six to seven and a half months,`,
    `${set.stats.questions.toLocaleString('en')} questions (${QUESTION_KINDS.map((k) => `${set.stats.by_kind[k]} ${k}`).join(', ')}), median content-word overlap`,
    `between a question and its gold evidence ${set.stats.median_overlap}. Each conversation is written turn by turn as facts`,
    '(`"<Speaker>: <text>"`, with `valid_from`, `session` and `position`) into its own Context through',
    '`POST /api/v1/{ctx}/facts/batch` of the Worker under `wrangler dev` (local provider, `local-sif-v1`',
    `embeddings, offline); every question is asked with k = ${K}. \`default\` sends no mode. MiniSearch 7 and`,
    'Orama 3 index the same turns in process with their defaults (full-text; Orama without vectors).',
    '',
    'Recall@k is evidence recall: the share of a question’s gold evidence turns in the top k, averaged',
    'over questions; MRR uses the rank of the first gold turn in the top 10. Tune on **dev** only; the',
    '**held-out** figures are the result.',
    '',
    'Why it is hard: questions are paraphrased by construction (they say "dog" where the turn says',
    '"beagle puppy", "resign" where it says "handed in my notice"); the speaker’s name, the one word most',
    'questions share with their evidence, is on half the turns; distractors reuse the friends, places',
    'and question words in other contexts; events are told relatively ("last Tuesday", "the week before',
    'the wedding"), so temporal questions need the turn’s date; multi-hop answers need turns from two',
    'sessions; open-domain questions are inferences ("would she enjoy…"). The content-word overlap of a',
    'question is |content words of question ∩ of evidence| / |content words of question| (lower-cased,',
    'stop words removed, suffix-stripped); see `test/fixtures/recall-conversations/README.md`.',
  ];
  const titles: Record<string, string> = {
    dev: `Dev split (${report.set.conversations.dev.join(', ')}; ${report.set.questions.dev} questions)`,
    heldout: `Held-out split (${report.set.conversations.heldout.join(', ')}; ${report.set.questions.heldout} questions)`,
    both: `Both splits together (${report.set.questions.dev + report.set.questions.heldout} questions)`,
  };
  for (const split of [...SPLITS, 'both']) {
    const bySystem = report.scores[split];
    if (!bySystem) continue;
    lines.push(
      '',
      `### ${titles[split] ?? split}`,
      '',
      '| system | R@5 | R@10 | MRR | ' +
        QUESTION_KINDS.map((k) => `${k} R@10 / MRR`).join(' | ') +
        ' |',
      '|---|---|---|---|' + QUESTION_KINDS.map(() => '---|').join(''),
    );
    for (const system of systems) {
      const s = bySystem[system];
      const all = s?.all;
      if (!s || !all) continue;
      const kinds = QUESTION_KINDS.map((k) => {
        const ks = s[k];
        return ks ? `${f3(ks.recall_at_10)} / ${f3(ks.mrr)}` : 'n/a';
      });
      lines.push(
        `| ${system} | ${f3(all.recall_at_5)} | ${f3(all.recall_at_10)} | ${f3(all.mrr)} | ${kinds.join(' | ')} |`,
      );
    }
  }
  const baseline = withBaseline ? readBaseline() : null;
  if (baseline) {
    lines.push(
      '',
      `### Against the baseline (R@10; baseline: commit ${baseline.commit}, ${baseline.date.slice(0, 10)}, \`${BASELINE_PATH}\`)`,
      '',
      '| system | dev baseline | dev now | held-out baseline | held-out now |',
      '|---|---|---|---|---|',
      ...systems.map((system) => {
        const cell = (r: RecallReport, split: Split) => {
          const v = r.scores[split]?.[system]?.all?.recall_at_10;
          return v === undefined ? 'n/a' : f3(v);
        };
        return `| ${system} | ${cell(baseline, 'dev')} | ${cell(report, 'dev')} | ${cell(baseline, 'heldout')} | ${cell(report, 'heldout')} |`;
      }),
    );
  }
  lines.push(
    '',
    `### Query latency (ms per question, k = ${K}, all selected splits)`,
    '',
    '| system | p50 | p95 | queries |',
    '|---|---|---|---|',
    ...systems.map((system) => {
      const l = report.latency[system];
      return l
        ? `| ${system} | ${ms(l.p50)} | ${ms(l.p95)} | ${l.queries} |`
        : `| ${system} | n/a | n/a | 0 |`;
    }),
    '',
    'Ours is an HTTP round trip to `wrangler dev` (auth, D1 lookups, one Durable Object RPC); the peers',
    'are in-process calls on one conversation’s index (about 500 turns), so their latency is a floor,',
    'not a like-for-like server.',
  );
  const fallbacks = Object.entries(report.served_as)
    .map(([asked, used]) => {
      const other = Object.entries(used).filter(([mode]) => mode !== asked);
      return other.length > 0 && asked !== 'default'
        ? `\`${asked}\` was served as ${other.map(([m, n]) => `\`${m}\` ${n}×`).join(', ')}`
        : null;
    })
    .filter((x): x is string => x !== null);
  const defaults = report.served_as.default;
  if (defaults)
    lines.push(
      '',
      `The server answered \`default\` (no mode sent) with ${Object.entries(defaults)
        .map(([m, n]) => `\`${m}\` (${n}×)`)
        .join(', ')}.`,
    );
  if (fallbacks.length > 0) lines.push('', `Mode fallbacks: ${fallbacks.join('; ')}.`);
  return lines.join('\n');
}

/**
 * Runs the bench; returns the markdown section, or null (after printing it) when the flags
 * narrowed the run, so a tuning run never replaces the documented figures of the whole set.
 */
export async function runRecallBench(args: string[] = []): Promise<string | null> {
  const options = parseRecallArgs(args);
  const set = JSON.parse(
    readFileSync(
      new URL('../../test/fixtures/recall-conversations/recall-set.json', import.meta.url),
      'utf8',
    ),
  ) as RecallSet;
  const conversations = new Map<Split, Conversation[]>();
  for (const split of options.splits) {
    const ids = set.split[split];
    const chosen = set.conversations.filter((c) => ids.includes(c.id));
    conversations.set(split, chosen.slice(0, options.limitConversations ?? chosen.length));
  }
  const systems = [...options.modes, ...PEERS];
  const runs = new Map<string, Run>(
    systems.map((s) => [s, { ranked: new Map<string, string[]>(), latency: [] }]),
  );
  const servedAs: Record<string, Record<string, number>> = {};

  const server = await startDevServer({
    vars: { RATE_LIMIT_PER_MINUTE: '100000000', MAX_IN_FLIGHT: '100000' },
  });
  try {
    const api = new Api(server);
    for (const [split, list] of conversations) {
      for (const conversation of list) {
        const ctx = `recall-${conversation.id}`;
        const questions = set.questions.filter((q) => q.conversation_id === conversation.id);
        console.log(
          `recall: ${split} ${conversation.id}: ${conversation.turns.length} turns, ${questions.length} questions`,
        );
        const toTurn = await ingest(api, ctx, conversation.turns);
        for (const mode of options.modes) {
          const run = runs.get(mode);
          if (!run) continue;
          for (const q of questions) {
            const answer = await ask(api, ctx, q.question, mode, toTurn);
            run.ranked.set(q.id, answer.turns);
            run.latency.push(answer.ms);
            const used = (servedAs[mode] ??= {});
            used[answer.used] = (used[answer.used] ?? 0) + 1;
          }
        }
        const mini = miniSearchOf(conversation.turns);
        const orama = await oramaOf(conversation.turns);
        for (const q of questions) {
          let t = performance.now();
          const m = mini.search(q.question).slice(0, K);
          runs.get('MiniSearch')?.latency.push(performance.now() - t);
          runs.get('MiniSearch')?.ranked.set(
            q.id,
            m.map((r) => String(r.id)),
          );
          t = performance.now();
          const o = await search(orama, { term: q.question, limit: K });
          runs.get('Orama')?.latency.push(performance.now() - t);
          runs.get('Orama')?.ranked.set(
            q.id,
            o.hits.map((h) => h.id),
          );
        }
      }
    }
  } finally {
    await server.stop();
  }

  const report: RecallReport = {
    command: `npm run bench -- recall${args.filter((a) => a !== 'recall').length > 0 ? ` ${args.filter((a) => a !== 'recall').join(' ')}` : ''}`,
    commit: execSync('git rev-parse --short HEAD').toString().trim(),
    date: new Date().toISOString(),
    set: {
      seed: set.seed,
      conversations: { dev: [], heldout: [] },
      questions: { dev: 0, heldout: 0 },
    },
    scores: {},
    latency: {},
    served_as: servedAs,
  };
  const scoresOf = (questions: Question[]) => {
    const bySystem: Record<string, Record<string, Scores>> = {};
    for (const system of systems) {
      const run = runs.get(system);
      if (!run) continue;
      const byKind: Record<string, Scores> = { all: score(questions, run.ranked) };
      for (const kind of QUESTION_KINDS)
        byKind[kind] = score(
          questions.filter((q) => q.kind === kind),
          run.ranked,
        );
      bySystem[system] = byKind;
    }
    return bySystem;
  };
  const asked: Question[] = [];
  for (const [split, list] of conversations) {
    const ids = new Set(list.map((c) => c.id));
    const questions = set.questions.filter((q) => ids.has(q.conversation_id));
    report.set.conversations[split] = [...ids];
    report.set.questions[split] = questions.length;
    report.scores[split] = scoresOf(questions);
    asked.push(...questions);
  }
  // Both splits together: the figure the issue's "bm25 ≤ 0.6 recall@10 on the set" is about.
  if (conversations.size > 1) report.scores.both = scoresOf(asked);
  for (const system of systems) {
    const run = runs.get(system);
    if (run)
      report.latency[system] = {
        p50: percentile(run.latency, 50),
        p95: percentile(run.latency, 95),
        queries: run.latency.length,
      };
  }
  if (options.json) {
    writeFileSync(options.json, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`recall: wrote ${options.json}`);
  }
  const text = markdown(report, systems, set, options.limitConversations === null);
  const partial =
    options.splits.length < SPLITS.length ||
    options.modes.length < MODES.length ||
    options.limitConversations !== null;
  if (!partial) return text;
  console.log(text);
  console.log('recall: partial run (flags narrowed it), docs/BENCHMARKS.md left as it was');
  return null;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const text = await runRecallBench(process.argv.slice(2));
  if (text !== null) console.log(text);
}
