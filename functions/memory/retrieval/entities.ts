import { analyseContent } from './text-analysis.ts';

/**
 * Entities extracted at write time without a model, by the compromise tagger
 * (retrieval/text-analysis.ts): a chat turn's speaker, proper names (people, places,
 * organisations), quoted terms, @handles and #tags, noun phrases and their head nouns, as
 * lower-cased lemmas ("socks" -> "sock"), deduplicated, most specific first.
 */
export function extractEntities(text: string, max = 32): string[] {
  return analyseContent(text).entities.slice(0, max);
}
