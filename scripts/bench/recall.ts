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
//   --locomo <path>                the public LoCoMo set instead of ours (locomo10.json or its folder
//                                  of per-conversation files), all of it as one outside-check split
//   --seed <N>                     a set generated in memory with this seed instead of the committed
//                                  one: conversations and questions nobody has tuned on, to check
//                                  that the figures hold beyond the committed set
//   --realtalk <path>              REALTALK's files (real messaging between people; the file or its
//                                  folder), all as one outside-check split, never tuned on
//   --set <name>                   conversations (default: the long conversations above), real-chat
//                                  (people's chat: nicknames, dates as digits, gathering questions,
//                                  typos, slang, emoji, bursts, photos; test/fixtures/real-chat/) or
//                                  real-chat-tidy (its tidy twin: the same content, tidy text)
// A run narrowed by --split, --modes or --limit-conversations, or run on another set, prints its
// figures but does not rewrite the section of docs/BENCHMARKS.md, which always shows the whole
// committed set.
import { execSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { create, insertMultiple, search, type AnyOrama } from '@orama/orama';
import MiniSearch from 'minisearch';
import type { Conversation, Turn } from '../../test/fixtures/recall-conversations/generate.ts';
import { startDevServer, type DevServer } from '../../test/support/wrangler-dev.ts';
import { managementCall, percentile } from './dev-api.ts';
import {
  score,
  K,
  markdown,
  SPLITS,
  type BenchQuestion,
  type RecallReport,
  type Scores,
  type Split,
} from './recall-report.ts';
import { loadSet, setSourceOf, SETS, type SetName } from './recall-sets.ts';

type Question = BenchQuestion;

const MODES = ['default', 'bm25', 'vector', 'hybrid', 'hybrid_graph'] as const;
type Mode = (typeof MODES)[number];
const PEERS = ['MiniSearch', 'Orama'] as const;
const BATCH = 100;
/** The larger k the neighbour figures are compared with. */
const WIDE_K = 50;

export interface RecallOptions {
  splits: Split[];
  modes: Mode[];
  json: string | null;
  limitConversations: number | null;
  /** Path of the LoCoMo data: an outside check, never tuned on. */
  locomo: string | null;
  /** Generate the set with this seed instead of reading the committed one. */
  seed: number | null;
  /** Which family of sets: the long conversations, the real-chat set or its tidy twin. */
  set: SetName;
  /** Path of REALTALK files: people's chat, an outside check, never tuned on. */
  realtalk: string | null;
}

/** Parses the flags above; throws with a usage line on anything else. */
export function parseRecallArgs(args: string[]): RecallOptions {
  const options: RecallOptions = {
    splits: [...SPLITS],
    modes: [...MODES],
    json: null,
    limitConversations: null,
    locomo: null,
    seed: null,
    set: 'conversations',
    realtalk: null,
  };
  const usage =
    'usage: recall [--split dev|heldout|all] [--modes default,bm25,vector,hybrid,hybrid_graph] [--json <file>] [--limit-conversations N] [--locomo <path>] [--seed N] [--set conversations|real-chat|real-chat-tidy] [--realtalk <path>]';
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
    } else if (flag === '--locomo' && value) {
      options.locomo = value;
      options.splits = ['heldout'];
      i++;
    } else if (flag === '--seed' && value) {
      const seed = Number(value);
      // mulberry32 takes a 32-bit unsigned seed.
      if (!Number.isInteger(seed) || seed < 0 || seed > 0xffff_ffff)
        throw new Error(`--seed needs an integer from 0 to 4294967295\n${usage}`);
      options.seed = seed;
      i++;
    } else if (flag === '--realtalk' && value) {
      options.realtalk = value;
      options.splits = ['heldout'];
      i++;
    } else if (flag === '--set' && value) {
      const set = SETS.find((name) => name === value);
      if (set === undefined) throw new Error(`--set must be ${SETS.join(', ')}\n${usage}`);
      options.set = set;
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

interface AskOptions {
  k?: number;
  /** Ask for this many neighbour turns around each hit (the default mode's second figure). */
  neighbours?: number;
}

/** A hit's turn id with the turn ids of its neighbours, by distance in positions (1 or 2). */
interface Around {
  turn: string;
  near: { turn: string; distance: number }[];
}

/**
 * Asks one question; returns the ranked turn ids, each hit's neighbour turns when asked for, and
 * the mode the server says it used.
 */
async function ask(
  api: Api,
  ctx: string,
  question: string,
  mode: Mode,
  toTurn: Map<string, string>,
  options: AskOptions = {},
): Promise<{ turns: string[]; around: Around[]; used: string; ms: number }> {
  const t = performance.now();
  const body = (await api.call('POST', `/api/v1/${ctx}/query`, {
    query: question,
    k: options.k ?? K,
    ...(mode === 'default' ? {} : { mode }),
    ...(options.neighbours ? { neighbours: options.neighbours } : {}),
  })) as {
    mode: string;
    results: {
      id: string;
      position: number | null;
      neighbours?: { id: string; position: number }[];
    }[];
  };
  const ms = performance.now() - t;
  const turnOf = (id: string) => toTurn.get(id) ?? `unknown:${id}`;
  return {
    turns: body.results.map((r) => turnOf(r.id)),
    around: body.results.map((r) => ({
      turn: turnOf(r.id),
      near: (r.neighbours ?? []).map((n) => ({
        turn: turnOf(n.id),
        distance: Math.abs(n.position - (r.position ?? n.position)),
      })),
    })),
    used: body.mode,
    ms,
  };
}

/** Distinct turns a caller holds from the top hits and their neighbours up to `distance`. */
function withinReach(around: Around[], distance: number): string[] {
  const turns = new Set<string>();
  for (const hit of around) {
    turns.add(hit.turn);
    for (const n of hit.near) if (n.distance <= distance) turns.add(n.turn);
  }
  return [...turns];
}

/** Evidence recall of sets of turns (not ranked lists), averaged over questions. */
function reach(
  questions: Question[],
  held: Map<string, string[]>,
): { recall: number; turns: number } {
  let recall = 0;
  let turns = 0;
  for (const q of questions) {
    const got = new Set(held.get(q.id) ?? []);
    recall += q.evidence.filter((id) => got.has(id)).length / (q.evidence.length || 1);
    turns += got.size;
  }
  const n = questions.length || 1;
  return { recall: recall / n, turns: turns / n };
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

/**
 * Runs the bench; returns the markdown section, or null (after printing it) when the flags
 * narrowed the run, so a tuning run never replaces the documented figures of the whole set.
 */
export async function runRecallBench(args: string[] = []): Promise<string | null> {
  const options = parseRecallArgs(args);
  const source = setSourceOf(options);
  const set = loadSet(source);
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
  // Turns held per question: the default mode's top 10 with neighbours at most 1 or 2 positions
  // away, and its top 30 / 50 from one k = 50 query.
  const near = {
    one: new Map<string, string[]>(),
    two: new Map<string, string[]>(),
    top30: new Map<string, string[]>(),
    top50: new Map<string, string[]>(),
  };

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
            // The default mode's answer also carries neighbours (they leave the ranking as it
            // is); a second query with k = 50 gives the larger-k figures they are compared with.
            const wide = mode === 'default';
            const answer = await ask(api, ctx, q.question, mode, toTurn, {
              neighbours: wide ? 2 : 0,
            });
            run.ranked.set(q.id, answer.turns);
            run.latency.push(answer.ms);
            const used = (servedAs[mode] ??= {});
            used[answer.used] = (used[answer.used] ?? 0) + 1;
            if (!wide) continue;
            near.one.set(q.id, withinReach(answer.around, 1));
            near.two.set(q.id, withinReach(answer.around, 2));
            const more = await ask(api, ctx, q.question, mode, toTurn, { k: WIDE_K });
            near.top30.set(q.id, more.turns.slice(0, 30));
            near.top50.set(q.id, more.turns.slice(0, WIDE_K));
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
      for (const kind of set.kinds)
        byKind[kind] = score(
          questions.filter((q) => q.kind === kind),
          run.ranked,
        );
      bySystem[system] = byKind;
    }
    return bySystem;
  };
  const traitScoresOf = (questions: Question[]) => {
    const bySystem: Record<string, Record<string, Scores>> = {};
    for (const system of systems) {
      const run = runs.get(system);
      if (!run) continue;
      bySystem[system] = Object.fromEntries(
        set.traits.map((trait) => [
          trait,
          score(
            questions.filter((q) => q.traits?.includes(trait)),
            run.ranked,
          ),
        ]),
      );
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
    if (set.traits.length > 0) (report.traits ??= {})[split] = traitScoresOf(questions);
    if (near.one.size > 0) {
      const one = reach(questions, near.one);
      const two = reach(questions, near.two);
      (report.neighbours ??= {})[split] = {
        recall_at_10: report.scores[split]?.default?.all?.recall_at_10 ?? 0,
        with_1: one.recall,
        turns_with_1: one.turns,
        recall_at_30: reach(questions, near.top30).recall,
        with_2: two.recall,
        turns_with_2: two.turns,
        recall_at_50: reach(questions, near.top50).recall,
      };
    }
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
    // Every question's ranked turns per system, to compare two runs question by question (a
    // set and its tidy twin).
    report.ranked = Object.fromEntries(
      [...runs].map(([system, run]) => [system, Object.fromEntries(run.ranked)]),
    );
    writeFileSync(options.json, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`recall: wrote ${options.json}`);
  }
  const text = markdown(
    report,
    systems,
    set,
    options.limitConversations === null && source.kind === 'committed',
  );
  const partial =
    options.splits.length < SPLITS.length ||
    options.modes.length < MODES.length ||
    options.limitConversations !== null ||
    source.kind !== 'committed';
  if (!partial) return text;
  console.log(text);
  console.log(
    'recall: partial run (flags narrowed it or chose another set), docs/BENCHMARKS.md left as it was',
  );
  return null;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const text = await runRecallBench(process.argv.slice(2));
  if (text !== null) console.log(text);
}
