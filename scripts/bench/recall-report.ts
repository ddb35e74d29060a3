// The markdown of the recall bench (scripts/bench/recall.ts): per split, per system and per
// question kind (and per trait, for sets that mark them), recall counted per question and per
// gold turn, against the committed baseline, with query latency.
import { readFileSync } from 'node:fs';
import type { Conversation } from '../../test/fixtures/recall-conversations/generate.ts';

export const SPLITS = ['dev', 'heldout'] as const;
export type Split = (typeof SPLITS)[number];
/** Results per question: recall@K is the headline. */
export const K = 10;

export interface Scores {
  questions: number;
  /** Evidence recall averaged per question: each question weighs one. */
  recall_at_5: number;
  recall_at_10: number;
  /**
   * Evidence recall summed per gold turn: found gold turns / all gold turns, so a question with
   * four evidence turns weighs four (issue 42: gathering questions weigh more here, and it is
   * the lower figure). Absent from reports written before it was added.
   */
  gold_turns?: number;
  recall_at_5_gold?: number;
  recall_at_10_gold?: number;
  mrr: number;
}

/** A question as the bench reads it, from any set. */
export interface BenchQuestion {
  id: string;
  conversation_id: string;
  kind: string;
  question: string;
  evidence: string[];
  /** What makes it hard (real-chat set): figures are also given per trait. */
  traits?: readonly string[];
}

/** Any set the bench runs on: the long conversations, LoCoMo, the real-chat set or its tidy twin. */
export interface BenchSet {
  seed: number;
  split: Record<Split, string[]>;
  conversations: Conversation[];
  questions: BenchQuestion[];
  /** Question kinds, in the order the tables show them. */
  kinds: readonly string[];
  /** Question traits, for the per-trait table; empty when the set marks none. */
  traits: readonly string[];
  /** The report's heading and the lines that say what the set is. */
  title: string;
  intro: string[];
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
  /** split → the default mode's top 10 with neighbour turns, against a larger k */
  neighbours?: Record<string, NeighbourScores>;
  /** split → system → trait → scores (sets that mark traits only) */
  traits?: Record<string, Record<string, Record<string, Scores>>>;
  /** system → question id → its ranked turn ids (written with `--json` only) */
  ranked?: Record<string, Record<string, string[]>>;
}

/** Evidence recall of what a caller holds: top 10 plus neighbours (distinct turns), or top k. */
export interface NeighbourScores {
  recall_at_10: number;
  with_1: number;
  turns_with_1: number;
  recall_at_30: number;
  with_2: number;
  turns_with_2: number;
  recall_at_50: number;
}

const f3 = (n: number) => n.toFixed(3);
const opt3 = (n: number | undefined) => (n === undefined ? 'n/a' : f3(n));
/** The committed sets' own seeds (kept here so this module imports no generator). */
const CONVERSATIONS_SEED = 20261123;
const REAL_CHAT_SEED = 20261128;

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

/** Where the set came from, for the report's first lines. */
export type SetSource =
  | { kind: 'committed' }
  | { kind: 'seed'; seed: number }
  | { kind: 'locomo'; path: string }
  | { kind: 'real-chat'; seed: number; tidy: boolean }
  | { kind: 'realtalk'; path: string };

export function describeSource(source: SetSource, seed: number): string {
  switch (source.kind) {
    case 'real-chat':
      return `Set: ${source.tidy ? 'the tidy twin of ' : ''}the real-chat set, generated in memory by \`test/fixtures/real-chat/generate.ts\` with seed ${source.seed}${source.seed === REAL_CHAT_SEED ? ' (its own)' : ' (`--seed`): conversations nobody has tuned on'}`;
    case 'committed':
      return `Set: \`test/fixtures/recall-conversations/recall-set.json\` (seed ${seed}; regenerate with \`npm exec -- node test/fixtures/recall-conversations/generate.ts\`)`;
    case 'seed':
      return source.seed === CONVERSATIONS_SEED
        ? `Set: generated in memory by \`test/fixtures/recall-conversations/generate.ts\` with seed ${source.seed} (\`--seed\`), the committed set's own`
        : `Set: generated in memory by \`test/fixtures/recall-conversations/generate.ts\` with seed ${source.seed} (\`--seed\`), not the committed set: conversations nobody has tuned on`;
    case 'locomo':
      return 'Set: LoCoMo (`--locomo`), the public outside check, never tuned on';
    case 'realtalk':
      return 'Set: REALTALK (`--realtalk`), real messaging between people, an outside check, never tuned on';
  }
}

/** withBaseline: false when only some conversations ran, so the baseline is not like-for-like. */
export function markdown(
  report: RecallReport,
  systems: string[],
  set: BenchSet,
  withBaseline: boolean,
): string {
  const lines = [
    `## ${set.title}`,
    '',
    `Command: \`${report.command}\` (after \`npm run build\`). ${set.intro.join('\n')}`,
    '',
    'Recall@k is evidence recall: the share of a question’s gold evidence turns in the top k, averaged',
    'over questions (**per q**), and summed over gold turns (**per gold**: found gold turns / all gold',
    'turns, so a question with four evidence turns weighs four); MRR uses the rank of the first gold',
    'turn in the top 10. Tune on **dev** only; the **held-out** figures are the result.',
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
      '| system | R@5 per q | R@10 per q | R@10 per gold | MRR | ' +
        set.kinds.map((k) => `${k} R@10 per q / per gold / MRR`).join(' | ') +
        ' |',
      '|---|---|---|---|---|' + set.kinds.map(() => '---|').join(''),
    );
    for (const system of systems) {
      const s = bySystem[system];
      const all = s?.all;
      if (!s || !all) continue;
      const kinds = set.kinds.map((k) => {
        const ks = s[k];
        return ks
          ? `${f3(ks.recall_at_10)} / ${opt3(ks.recall_at_10_gold)} / ${f3(ks.mrr)}`
          : 'n/a';
      });
      lines.push(
        `| ${system} | ${f3(all.recall_at_5)} | ${f3(all.recall_at_10)} | ${opt3(all.recall_at_10_gold)} | ${f3(all.mrr)} | ${kinds.join(' | ')} |`,
      );
    }
    const byTrait = report.traits?.[split];
    if (byTrait && set.traits.length > 0) {
      const first = Object.values(byTrait)[0] ?? {};
      lines.push(
        '',
        `R@10 per q / per gold by trait (${set.traits.map((t) => `${t} ${first[t]?.questions ?? 0}`).join(', ')} questions):`,
        '',
        '| system | ' + set.traits.join(' | ') + ' |',
        '|---|' + set.traits.map(() => '---|').join(''),
        ...systems.flatMap((system) => {
          const t = byTrait[system];
          if (!t) return [];
          const cells = set.traits.map((trait) => {
            const ts = t[trait];
            return ts && ts.questions > 0
              ? `${f3(ts.recall_at_10)} / ${opt3(ts.recall_at_10_gold)}`
              : 'n/a';
          });
          return [`| ${system} | ${cells.join(' | ')} |`];
        }),
      );
    }
  }
  if (report.neighbours) {
    lines.push(
      '',
      '### Neighbour turns against a larger k (the default mode)',
      '',
      'Each `default` question is also asked with `neighbours: 2` (the turns up to two positions around',
      'each hit in its session; the ranking is the same) and once more with k = 50. Recall here is of',
      'the distinct turns a caller holds, so it is the fair comparison: the top 10 with neighbours',
      'against as many or more ranked hits.',
      '',
      '| split | R@10 (10 turns) | top 10 + neighbours ±1 (turns) | R@30 | top 10 + neighbours ±2 (turns) | R@50 |',
      '|---|---|---|---|---|---|',
      ...Object.entries(report.neighbours).map(
        ([split, n]) =>
          `| ${split} | ${f3(n.recall_at_10)} | ${f3(n.with_1)} (${n.turns_with_1.toFixed(1)}) | ${f3(n.recall_at_30)} | ${f3(n.with_2)} (${n.turns_with_2.toFixed(1)}) | ${f3(n.recall_at_50)} |`,
      ),
    );
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
    'Ours is an HTTP round trip to `wrangler dev` (auth, then one Durable Object RPC that checks the key and runs the query; no D1 call); the peers',
    'are in-process calls on one conversation’s index (about 500 turns), so their latency is a floor,',
    'not a like-for-like server.',
  );
  if (report.neighbours)
    lines.push(
      '`default` queries carry `neighbours: 2` (one indexed read per hit more); `hybrid` is the same ranking without them.',
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

/** Recall averaged per question and summed per gold turn (both ways, issue 42), and MRR. */
export function score(questions: BenchQuestion[], ranked: Map<string, string[]>): Scores {
  let r5 = 0;
  let r10 = 0;
  let rr = 0;
  let gold5 = 0;
  let gold10 = 0;
  let golds = 0;
  for (const q of questions) {
    const list = ranked.get(q.id) ?? [];
    const gold = new Set(q.evidence);
    const hits = (k: number) => list.slice(0, k).filter((id) => gold.has(id)).length;
    r5 += hits(5) / gold.size;
    r10 += hits(K) / gold.size;
    gold5 += hits(5);
    gold10 += hits(K);
    golds += gold.size;
    const first = list.slice(0, K).findIndex((id) => gold.has(id));
    rr += first >= 0 ? 1 / (first + 1) : 0;
  }
  const n = questions.length || 1;
  return {
    questions: questions.length,
    recall_at_5: r5 / n,
    recall_at_10: r10 / n,
    gold_turns: golds,
    recall_at_5_gold: gold5 / (golds || 1),
    recall_at_10_gold: gold10 / (golds || 1),
    mrr: rr / n,
  };
}
