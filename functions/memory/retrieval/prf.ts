import { stemmer } from 'stemmer';
import { contentWords } from './text.ts';

/**
 * Pseudo-relevance feedback, RM3-style (Lavrenko and Croft; Abdul-Jaleel et al.): the top
 * first-pass documents are assumed relevant, and the words that are frequent in them, weighted by
 * each document's normalised score and by the word's rarity in the Context, become a second query.
 * It bridges a question worded differently from its evidence whenever some of the evidence's
 * neighbours in the ranking do use the question's words.
 */

export interface FeedbackDoc {
  content: string;
  /** The document's first-pass score, normalised to [0, 1]. */
  weight: number;
}

/**
 * Up to `max` expansion words (surface forms, one per stem), best first. `docFrequencies` says in
 * how many items each Porter stem occurs; `total` is the number of items. Words of the query, words
 * shorter than 3 letters and numbers are left out.
 */
export function expansionTerms(
  query: string,
  docs: FeedbackDoc[],
  docFrequencies: (stems: string[]) => Map<string, number>,
  total: number,
  max = 10,
): string[] {
  const queryStems = new Set(contentWords(query).map((w) => stemmer(w)));
  const weight = new Map<string, number>();
  const surface = new Map<string, string>();
  for (const doc of docs) {
    const words = contentWords(doc.content).filter((w) => w.length >= 3 && !/^\d+$/.test(w));
    if (words.length === 0) continue;
    const counts = new Map<string, number>();
    for (const w of words) {
      const stem = stemmer(w);
      if (queryStems.has(stem)) continue;
      counts.set(stem, (counts.get(stem) ?? 0) + 1);
      if (!surface.has(stem)) surface.set(stem, w);
    }
    for (const [stem, n] of counts) {
      weight.set(stem, (weight.get(stem) ?? 0) + (n / words.length) * doc.weight);
    }
  }
  // Only the best-weighted stems need their rarity looked up.
  const shortlist = [...weight].sort((a, b) => b[1] - a[1]).slice(0, max * 4);
  const frequencies = docFrequencies(shortlist.map(([stem]) => stem));
  const scored: { word: string; score: number }[] = [];
  for (const [stem, w] of shortlist) {
    const word = surface.get(stem) ?? stem;
    const df = frequencies.get(stem) ?? 0;
    // A word found in only one feedback document and nowhere else is noise, not topic.
    if (df < 2) continue;
    scored.push({ word, score: w * Math.log(1 + total / df) });
  }
  return scored
    .sort((a, b) => b.score - a.score || a.word.localeCompare(b.word))
    .slice(0, max)
    .map((s) => s.word);
}
