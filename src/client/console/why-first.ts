/**
 * "Why did this rank first": the playground's explanation of the default mode's top result, from
 * what the API returned and nothing else: its score and margin, what each arm of the fusion
 * added to it (`explain`, computed by the server: rank, weight and contribution per arm, and the
 * fused score they sum to), where the other modes placed it, the question's words it shares, and
 * whether the context block carries it. Pure, so it is tested without a browser.
 */
import { ARMS, type Arm, type ArmShare, type Mode, type ScoreExplanation } from './types.ts';

export interface RankedItem {
  id: string;
  content: string;
  score: number;
  ranks?: { bm25: number | null; vector: number | null; graph?: number | null };
  explain?: ScoreExplanation;
}

/** What each arm is, in the words a reader of the playground knows. */
const ARM_LABELS: Record<Arm, { label: string; absent: string }> = {
  bm25: { label: 'bm25 arm (words)', absent: 'not in its list' },
  vector: { label: 'vector arm (meaning)', absent: 'not in its list' },
  soft: { label: 'soft match (word by word)', absent: 'not in its list' },
  synonym: { label: 'synonym arm (thesaurus)', absent: 'not in its list' },
  prf: { label: 'feedback arm (expanded query)', absent: 'not in its list' },
  graph: { label: 'graph arm (entities)', absent: 'not reached by the walk' },
};

function share(arm: Arm, part: ArmShare): string {
  const { label, absent } = ARM_LABELS[arm];
  const at = part.rank === null ? absent : `rank ${part.rank}`;
  return `${label}: ${at}, adds ${part.contribution.toFixed(3)} (weight ${part.weight.toFixed(2)})`;
}

/** The server's own account of the score: each arm's part, then fusion against the final score. */
function explained(top: RankedItem, explain: ScoreExplanation): string[] {
  const present = ARMS.flatMap((arm) => {
    const part = explain.arms[arm];
    return part === undefined ? [] : [{ arm, part }];
  });
  const reasons = present.map(({ arm, part }) => share(arm, part));
  if (present.length > 1) {
    const after =
      Math.abs(top.score - explain.fused) < 5e-4
        ? 'the score as ranked'
        : `${top.score.toFixed(3)} after the content prior, answer type and conversation scores`;
    reasons.push(`Fused score ${explain.fused.toFixed(3)} (the sum of the arms); ${after}.`);
  }
  return reasons;
}

export interface ModeResult {
  mode: Mode;
  results: RankedItem[];
}

export interface Explanation {
  mode: Mode;
  top: RankedItem;
  reasons: string[];
}

const STOP = new Set(
  'the a an and or of to in on at for by with from is are was were be been who what when where which why how does did do it its this that these those about his her their our your my me i you he she they we'.split(
    ' ',
  ),
);

/** Lower-cased words of three letters or more, without the commonest function words. */
export function contentWords(text: string): Set<string> {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return new Set(words.filter((w) => w.length >= 3 && !STOP.has(w)));
}

function arm(name: string, rank: number | null | undefined, absent: string): string {
  return rank === null || rank === undefined ? `${name}: ${absent}` : `${name}: rank ${rank}`;
}

export function explainTop(
  question: string,
  lists: readonly ModeResult[],
  blockIds: readonly string[],
  preferred: Mode = 'hybrid_graph',
): Explanation | null {
  const main = lists.find((l) => l.mode === preferred) ?? lists.find((l) => l.results.length > 0);
  const top = main?.results[0];
  if (main === undefined || top === undefined) return null;
  const reasons: string[] = [];
  const second = main.results[1];
  reasons.push(
    second === undefined
      ? `Only result in ${main.mode}, score ${top.score.toFixed(3)}.`
      : `Score ${top.score.toFixed(3)} in ${main.mode}, ahead of the second by ${(top.score - second.score).toFixed(3)}.`,
  );
  if (top.explain) {
    reasons.push(...explained(top, top.explain));
  } else if (top.ranks) {
    reasons.push(arm('bm25 arm (words)', top.ranks.bm25, 'not in its list'));
    reasons.push(arm('vector arm (meaning)', top.ranks.vector, 'not in its list'));
    if ('graph' in top.ranks) {
      reasons.push(arm('graph arm (entities)', top.ranks.graph, 'not reached by the walk'));
    }
  }
  const shared = [...contentWords(question)].filter((w) => contentWords(top.content).has(w));
  reasons.push(
    shared.length === 0
      ? 'Shares no word with the question: it was found by meaning or through entities.'
      : `Shares with the question: ${shared.join(', ')}.`,
  );
  const elsewhere = lists
    .filter((l) => l.mode !== main.mode)
    .map((l) => {
      const at = l.results.findIndex((r) => r.id === top.id);
      return `${l.mode} ${at < 0 ? 'not in top ' + l.results.length : '#' + (at + 1)}`;
    });
  if (elsewhere.length > 0) reasons.push(`Other modes: ${elsewhere.join(', ')}.`);
  const inBlock = blockIds.indexOf(top.id);
  reasons.push(
    inBlock < 0
      ? 'POST /context leaves it out of the block.'
      : `POST /context puts it in the block as item ${inBlock + 1} of ${blockIds.length}.`,
  );
  return { mode: main.mode, top, reasons };
}
