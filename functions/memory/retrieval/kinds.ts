import { KIND_MEMBERS } from './kind-words.generated.ts';
import { SortedLines } from './sorted-lines.ts';

/**
 * Type knowledge for questions that gather (issue 42, item 4): "What sports does Sam play?" is
 * answered by turns saying "tennis" and "judo", which never say "sport". WordNet files nouns under
 * kinds (scripts/kinds/build-kind-words.ts keeps, per kind, the nouns of the local embedder's
 * vocabulary filed under it, nearest and most frequent first), and a gathering question also
 * looks for the kind's members (store/search.ts: the fused modes' synonym arm, bm25 mode's one
 * list). Done at query time, not as index terms written beside
 * each turn: ten kind terms a turn made the `terms` column five times longer, and its length
 * normalisation then cost every other question (docs/retrieval.md, twenty-fifth round); here
 * nothing is written, old Contexts gain as much as new ones, and no other question changes.
 */

let table: SortedLines | null = null;

/** The members listed for exactly this kind, or null. */
function listed(kind: string): string[] | null {
  table ??= new SortedLines(KIND_MEMBERS);
  const members = table.get(kind);
  return Array.isArray(members) ? members.filter((m): m is string => typeof m === 'string') : null;
}

/** Singular forms a plural noun may come from: "countries" -> "country", "dishes" -> "dish". */
function singulars(noun: string): string[] {
  const out = [noun];
  if (noun.endsWith('ies')) out.push(`${noun.slice(0, -3)}y`);
  if (noun.endsWith('es')) out.push(noun.slice(0, -2));
  if (noun.endsWith('s')) out.push(noun.slice(0, -1));
  return out;
}

/**
 * Nouns WordNet files under the kind a question names ("sports" -> football, tennis, judo…),
 * nearest and most frequent first; `[]` for a word that is no kind.
 */
export function membersOf(kind: string): string[] {
  for (const form of singulars(kind.toLowerCase())) {
    const members = listed(form);
    if (members) return members;
  }
  return [];
}
