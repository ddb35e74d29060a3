import { readAttribute, sameAttribute, type AttributeReading } from '../inference/attributes.ts';
import { NEAR_DUPLICATE } from '../inference/reconcile.ts';
import { jaccard, normalise, terms } from '../inference/text.ts';
import { lensMatches } from '../scopes/lens.ts';
import { consolidationCandidates } from './consolidation-candidates.ts';
import { factWindow } from './fact-window.ts';
import { itemRowsBySeq } from './items.ts';
import { toLiveItem, type LiveItem } from './model-paths.ts';

/**
 * Which facts one consolidation call plans over, at any size of Context (docs/scale.md, "Long
 * work at size"). A Context whose current facts in the lens fit `WHOLE_CONTEXT` is planned in one
 * piece, as always. A larger one is walked in windows of `WINDOW` facts in seq order, each window
 * planned together with the facts anywhere in the Context that could be a twin of one of its
 * facts or another value of its attribute (consolidation-candidates.ts: a few unranked FTS5
 * look-ups a fact, the `PER_FACT` most alike kept). So one call's plan holds at most
 * WINDOW x (1 + PER_FACT) facts whatever the Context's size, and the cadenced job, which keeps
 * its place (`consolidated_through`), compares each fact written since its last pass with the
 * whole Context once.
 */
export const WHOLE_CONTEXT = 1000;
export const WINDOW = 100;

export interface ConsolidationSet {
  facts: LiveItem[];
  /** The seq to go on from. */
  through: number;
  /** No fact is left past `through`. */
  end: boolean;
}

export function consolidationSet(
  sql: SqlStorage,
  input: { lens: string[][]; after: number },
): ConsolidationSet {
  const window = { lens: input.lens, kinds: ['fact'], from: input.after };
  if (input.after === 0) {
    const whole = factWindow(sql, { ...window, limit: WHOLE_CONTEXT });
    if (whole.end) return whole;
  }
  const part = factWindow(sql, { ...window, limit: WINDOW });
  const ids = new Set(part.facts.map((f) => f.id));
  const found = part.facts.map((f) => consolidationCandidates(sql, f.content));
  const current = new Map<number, Reading>();
  for (const row of itemRowsBySeq(sql, [...new Set(found.flat())])) {
    if (row.kind !== 'fact' || typeof row['valid_until'] === 'string' || ids.has(row.id)) continue;
    const item = toLiveItem(row);
    if (lensMatches(input.lens, item.scopes)) current.set(row.seq, reading(item));
  }
  const related = new Map<string, LiveItem>();
  for (const [i, fact] of part.facts.entries()) {
    const own = reading(fact);
    const ranked = (found[i] ?? [])
      .flatMap((seq) => {
        const other = current.get(seq);
        return other ? [{ other, rank: likeness(own, other) }] : [];
      })
      .sort((a, b) => b.rank - a.rank);
    for (const { other } of ranked.slice(0, PER_FACT)) related.set(other.item.id, other.item);
  }
  return { ...part, facts: [...part.facts, ...related.values()] };
}

/**
 * How many of the facts found like one window fact join the plan: those the plan can act on
 * first (a twin, then another value of its attribute), then the most alike. It bounds a call's
 * plan (and a model's prompt) to WINDOW x (1 + PER_FACT) facts: the look-ups return up to 48 a
 * fact, and a Context of templated facts fills them all.
 */
export const PER_FACT = 8;

interface Reading {
  item: LiveItem;
  norm: string;
  terms: Set<string>;
  attribute: AttributeReading | undefined;
}

function reading(item: LiveItem): Reading {
  return {
    item,
    norm: normalise(item.content),
    terms: terms(item.content),
    attribute: readAttribute(item.content),
  };
}

/** 3 + similarity for a twin, 2 + for another value of the attribute, else the similarity. */
function likeness(a: Reading, b: Reading): number {
  const similarity = jaccard(a.terms, b.terms);
  if (a.norm === b.norm || similarity >= NEAR_DUPLICATE) return 3 + similarity;
  if (a.attribute && b.attribute && sameAttribute(a.attribute, b.attribute)) return 2 + similarity;
  return similarity;
}

const MARK = 'consolidated_through';

/** Where the cadenced consolidation goes on from: the last seq its passes have planned over. */
export function consolidationMark(sql: SqlStorage): number {
  const row = sql
    .exec<{ value: string }>('SELECT value FROM _meta WHERE key = ?', MARK)
    .toArray()[0];
  const seq = row ? Number(row.value) : 0;
  return Number.isSafeInteger(seq) && seq > 0 ? seq : 0;
}

export function setConsolidationMark(sql: SqlStorage, seq: number): void {
  sql.exec('INSERT OR REPLACE INTO _meta (key, value) VALUES (?, ?)', MARK, String(seq));
}
