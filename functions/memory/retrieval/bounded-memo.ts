/**
 * `compute` memoised in a Map of at most `max` entries, the oldest written first out (a Map
 * iterates in insertion order). For the per-isolate caches of query-time analysis (a turn's words,
 * its answer types, a word's unit vector): the same turns come back query after query, and an
 * isolate serves many Contexts, so the cache must stay bounded. `undefined` is never a value.
 */
export function boundedMemo<K, V extends NonNullable<unknown>>(
  max: number,
  compute: (key: K) => V,
): (key: K) => V {
  const entries = new Map<K, V>();
  return (key) => {
    const known = entries.get(key);
    if (known !== undefined) return known;
    const value = compute(key);
    if (entries.size >= max) {
      const oldest = entries.keys().next();
      if (oldest.done !== true) entries.delete(oldest.value);
    }
    entries.set(key, value);
    return value;
  };
}
