import { attributeVerbStems, readAttribute } from '../inference/attributes.ts';
import { documentFrequencies } from './fts.ts';
import { ftsToken } from './fts-tokens.ts';

/**
 * The facts anywhere in a Context that could be a twin of a fact, or another value of its
 * attribute: what consolidation plans a window of a large Context with (consolidation-set.ts).
 * A general bm25 search per fact found them too, but cost 75 ms a fact at a million facts (its
 * question analysis, and the ranking of every row the fact's common words match); these are
 * unranked FTS5 look-ups, the newest rows first, `PER_LOOKUP` at most each:
 *
 * - **twins**: the fact's rarest words two by two (the rarest pair, then the next): a near
 *   duplicate (content-word Jaccard >= 0.85, inference/reconcile.ts) differs from the fact in at
 *   most one word of seven, so it holds every word of at least one of two disjoint pairs;
 * - **another value**: the statements that start with the same subject and use a verb of the same
 *   attribute ("Oren lives in Haifa" -> `^"oren"` and `liv* OR mov* OR relo* OR bas*`).
 */
export const PER_LOOKUP = 16;

const WORD = /[\p{L}\p{N}]+/gu;

function quoted(word: string): string {
  return `"${word}"`;
}

export function consolidationCandidates(sql: SqlStorage, content: string): number[] {
  const byStem = new Map<string, string>();
  // Words fts-tokens.ts does not mirror (most scripts other than Latin) have no known frequency;
  // FTS5 still reads them, so they come after the counted ones.
  const uncounted = new Set<string>();
  for (const m of content.toLowerCase().matchAll(WORD)) {
    const stem = ftsToken(m[0]);
    if (stem === null) uncounted.add(m[0]);
    else if (!byStem.has(stem)) byStem.set(stem, m[0]);
  }
  const df = documentFrequencies(sql, [...byStem.keys()]);
  const rarest = [
    ...[...byStem]
      .filter(([stem]) => (df.get(stem) ?? 0) > 0)
      .sort((a, b) => (df.get(a[0]) ?? 0) - (df.get(b[0]) ?? 0))
      .map(([, word]) => word),
    ...uncounted,
  ];
  const queries: string[] = [];
  for (let i = 0; i + 1 < Math.min(rarest.length, 4); i += 2)
    queries.push(`content : (${quoted(rarest[i] ?? '')} AND ${quoted(rarest[i + 1] ?? '')})`);
  if (rarest.length === 1) queries.push(`content : ${quoted(rarest[0] ?? '')}`);
  const reading = readAttribute(content);
  const verbs = reading ? attributeVerbStems(reading.attribute) : [];
  const subject = reading?.subject.match(WORD) ?? [];
  if (verbs.length > 0 && subject.length > 0) {
    const either = verbs.map((v) => (v.length >= 3 ? `"${v.slice(0, 4)}" *` : quoted(v)));
    queries.push(`content : (^ "${subject.join(' ')}" AND (${either.join(' OR ')}))`);
  }
  const seqs = new Set<number>();
  for (const query of queries) {
    for (const row of sql.exec<{ rowid: number }>(
      'SELECT rowid FROM items_fts WHERE items_fts MATCH ? ORDER BY rowid DESC LIMIT ?',
      query,
      PER_LOOKUP,
    ))
      seqs.add(row.rowid);
  }
  return [...seqs];
}
