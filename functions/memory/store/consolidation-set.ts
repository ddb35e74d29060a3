import { factWindow } from './fact-window.ts';
import type { LiveItem } from './model-paths.ts';
import { relatedFacts, type ModelHandle } from './model-rpc.ts';

/**
 * Which facts one consolidation call plans over, at any size of Context (docs/scale.md, "Long
 * work at size"). A Context whose current facts in the lens fit `WHOLE_CONTEXT` is planned in one
 * piece, as always. A larger one is walked in windows of `WINDOW` facts in seq order, each window
 * planned together with the facts bm25 finds most like each of its facts anywhere in the Context
 * (the reconciliation's look-up, `relatedFacts`): a duplicate or a newer value of an attribute
 * shares its words with the fact it repeats, wherever in the Context that one is. So one call's
 * plan holds at most WINDOW x 9 facts and makes WINDOW bm25 searches, and the cadenced job, which
 * keeps its place (`consolidated_through`), compares each fact written since its last pass with
 * the whole Context once.
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
  h: ModelHandle,
  input: { lens: string[][]; after: number },
): ConsolidationSet {
  const sql = h.storage.sql;
  const window = { lens: input.lens, kinds: ['fact'], from: input.after };
  if (input.after === 0) {
    const whole = factWindow(sql, { ...window, limit: WHOLE_CONTEXT });
    if (whole.end) return whole;
  }
  const part = factWindow(sql, { ...window, limit: WINDOW });
  const ids = new Set(part.facts.map((f) => f.id));
  const related = relatedFacts(
    h,
    part.facts.map((f) => f.content),
    input.lens,
  ).filter((f) => !ids.has(f.id));
  return { ...part, facts: [...part.facts, ...related] };
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
