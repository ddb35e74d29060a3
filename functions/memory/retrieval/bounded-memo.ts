/**
 * `compute` memoised in a Map of at most `max` entries, the oldest written first out (a Map
 * iterates in insertion order). For the per-isolate caches of query-time analysis (a turn's words,
 * its answer types, a word's unit vector): the same turns come back query after query, and an
 * isolate serves many Contexts, so the cache must stay bounded. `undefined` is never a value.
 *
 * A count alone does not bound memory when keys are texts: 4,096 facts of 32,768 characters are
 * 128 Mi characters, an isolate's whole memory, held by one tenant's content. So string keys also
 * count their characters against `maxChars`: the oldest entries go until the new one fits, and a
 * key longer than `maxChars` is computed every time and never kept.
 */
export function boundedMemo<K, V extends NonNullable<unknown>>(
  max: number,
  compute: (key: K) => V,
  maxChars = Number.POSITIVE_INFINITY,
): (key: K) => V {
  const entries = new Map<K, V>();
  let chars = 0;
  const weigh = (key: K): number => (typeof key === 'string' ? key.length : 0);
  return (key) => {
    const known = entries.get(key);
    if (known !== undefined) return known;
    const value = compute(key);
    const weight = weigh(key);
    if (weight > maxChars) return value;
    while (entries.size > 0 && (entries.size >= max || chars + weight > maxChars)) {
      const oldest = entries.keys().next();
      if (oldest.done === true) break;
      entries.delete(oldest.value);
      chars -= weigh(oldest.value);
    }
    entries.set(key, value);
    chars += weight;
    return value;
  };
}

/**
 * The characters of keys a per-isolate memo may hold, whatever its keys are: words (20,000 of them
 * are about 140,000 characters) or whole texts (6,600 turns of 150 characters, more than the 4,096
 * entries those memos keep of chat). A few MB of keys however long the words or texts are.
 */
export const MEMO_KEY_CHARS = 1_000_000;
