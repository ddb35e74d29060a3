/**
 * The pages nearest to a path that does not exist, for the 404 page and its markdown form:
 * `/docs/quickstrat` -> `/docs/quickstart`, `/docs/facts` -> `/docs/api/facts`. Pure: the list
 * of pages goes in, a ranked few come out.
 */
export interface PageRef {
  title: string;
  /** Root-relative path. */
  path: string;
}

const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** Levenshtein distance, for typos in a segment. */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row.push(Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost));
    }
    prev = row;
  }
  return prev[b.length] ?? 0;
}

/** 1 for the same string, towards 0 as more letters differ. */
function likeness(a: string, b: string): number {
  if (a === '' || b === '') return 0;
  return 1 - distance(a, b) / Math.max(a.length, b.length);
}

function score(asked: string[], page: PageRef): number {
  const segments = page.path.split('/').filter(Boolean);
  const last = asked.at(-1) ?? '';
  // The asked path's last segment against each of the page's: typo or moved page.
  const best = Math.max(0, ...segments.map((s) => likeness(last, s)));
  let shared = 0;
  while (shared < asked.length && asked[shared] === segments[shared]) shared++;
  const pageWords = new Set([...words(page.path), ...words(page.title)]);
  const askedWords = words(asked.join(' '));
  const overlap = askedWords.filter((w) => pageWords.has(w)).length / (askedWords.length || 1);
  return (best >= 0.6 ? best * 2 : 0) + overlap + shared * 0.3;
}

export function nearestPages(path: string, pages: readonly PageRef[], limit = 5): PageRef[] {
  const asked = decodeURIComponent(path)
    .toLowerCase()
    .replace(/\.(md|html)$/, '')
    .split('/')
    .filter(Boolean);
  if (asked.length === 0) return [];
  return pages
    .map((page) => ({ page, score: score(asked, page) }))
    .filter((s) => s.score >= 0.5)
    .sort((a, b) => b.score - a.score || a.page.path.localeCompare(b.page.path))
    .slice(0, limit)
    .map((s) => s.page);
}
