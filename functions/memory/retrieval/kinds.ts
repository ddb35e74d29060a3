import { KIND_MEMBERS } from './kind-words.generated.ts';

/**
 * Type knowledge for questions that gather (issue 42, item 4): "What sports does Sam play?" is
 * answered by turns saying "tennis" and "judo", which never say "sport". WordNet files nouns under
 * kinds (scripts/kinds/build-kind-words.ts keeps, per kind, the nouns of the local embedder's
 * vocabulary filed under it, nearest and most frequent first), and a gathering question's bm25
 * list also looks for the kind's members. Done at query time, not as index terms written beside
 * each turn: ten kind terms a turn made the `terms` column five times longer, and its length
 * normalisation then cost every other question (docs/retrieval.md, twenty-fifth round); here
 * nothing is written, old Contexts gain as much as new ones, and no other question changes.
 */

let lineStarts: Uint32Array | null = null;

/** Start offsets of KIND_MEMBERS's lines: a binary search, no Map of the whole table. */
function starts(): Uint32Array {
  if (lineStarts) return lineStarts;
  const found = [0];
  for (let i = KIND_MEMBERS.indexOf('\n'); i !== -1; i = KIND_MEMBERS.indexOf('\n', i + 1))
    found.push(i + 1);
  lineStarts = Uint32Array.from(found);
  return lineStarts;
}

/** The members listed for exactly this kind, or null. Lines are in code-unit order. */
function listed(kind: string): string[] | null {
  const at = starts();
  let lo = 0;
  let hi = at.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const start = at[mid] ?? 0;
    const tab = KIND_MEMBERS.indexOf('\t', start);
    const key = KIND_MEMBERS.slice(start, tab);
    if (key === kind) {
      const end = KIND_MEMBERS.indexOf('\n', tab);
      return KIND_MEMBERS.slice(tab + 1, end === -1 ? undefined : end).split(' ');
    }
    if (key < kind) lo = mid + 1;
    else hi = mid - 1;
  }
  return null;
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
