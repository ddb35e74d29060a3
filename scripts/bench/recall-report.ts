// The markdown of the recall bench (scripts/bench/recall.ts): per split, per system and per
// question kind, against the committed baseline, with query latency.
import { readFileSync } from 'node:fs';
import {
  DEFAULT_SEED,
  QUESTION_KINDS,
  type RecallSet,
} from '../../test/fixtures/recall-conversations/generate.ts';

export const SPLITS = ['dev', 'heldout'] as const;
export type Split = (typeof SPLITS)[number];
/** Results per question: recall@K is the headline. */
export const K = 10;

export interface Scores {
  questions: number;
  recall_at_5: number;
  recall_at_10: number;
  mrr: number;
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
  { kind: 'committed' } | { kind: 'seed'; seed: number } | { kind: 'locomo'; path: string };

function describeSource(source: SetSource, seed: number): string {
  switch (source.kind) {
    case 'committed':
      return `Set: \`test/fixtures/recall-conversations/recall-set.json\` (seed ${seed}; regenerate with \`npm exec -- node test/fixtures/recall-conversations/generate.ts\`)`;
    case 'seed':
      return source.seed === DEFAULT_SEED
        ? `Set: generated in memory by \`test/fixtures/recall-conversations/generate.ts\` with seed ${source.seed} (\`--seed\`), the committed set's own`
        : `Set: generated in memory by \`test/fixtures/recall-conversations/generate.ts\` with seed ${source.seed} (\`--seed\`), not the committed set: conversations nobody has tuned on`;
    case 'locomo':
      return 'Set: LoCoMo (`--locomo`), the public outside check, never tuned on';
  }
}

/** withBaseline: false when only some conversations ran, so the baseline is not like-for-like. */
export function markdown(
  report: RecallReport,
  systems: string[],
  set: RecallSet,
  withBaseline: boolean,
  source: SetSource = { kind: 'committed' },
): string {
  const lines = [
    '## Recall on long conversations',
    '',
    `Command: \`${report.command}\` (after \`npm run build\`). ${describeSource(source, report.set.seed)}:`,
    `${set.stats.conversations} conversations between two friends, ${set.stats.turns.toLocaleString('en')} turns in dated sessions over six to seven and a half months,`,
    `${set.stats.questions.toLocaleString('en')} questions (${QUESTION_KINDS.map((k) => `${set.stats.by_kind[k]} ${k}`).join(', ')}), median content-word overlap`,
    `between a question and its gold evidence ${set.stats.median_overlap}. Each conversation is written turn by turn as facts`,
    '(`"<Speaker>: <text>"`, with `valid_from`, `session` and `position`) into its own Context through',
    '`POST /api/v1/{ctx}/facts/batch` of the Worker under `wrangler dev` (local provider, `local-sif-v2`',
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
