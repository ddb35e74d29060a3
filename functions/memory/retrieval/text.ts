/** Small English stopword list shared by the local embedder and the BM25 query builder. */
export const STOPWORDS = new Set(
  (
    'a an and are as at be but by for from has have had he her his i in is it its of on or our she ' +
    'that the their them they this to was we were what when where which who why will with you your ' +
    'do does did how not no so than then there these those into about over after before also can'
  ).split(' '),
);

/** Lower-cased word tokens (letters and digits, unicode aware). */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Content words: tokens minus stopwords. */
export function contentWords(text: string): string[] {
  return words(text).filter((w) => !STOPWORDS.has(w));
}
