import type { ContextStoreStub } from '../store/context-store.ts';

/**
 * Repeated identical chat, reflect and context requests are answered from the Context's own
 * cache. Entries live in the Context's database and triggers empty it on any write, so a cached
 * answer can never outlive the memory it was computed from.
 */
export async function cacheKey(parts: Record<string, unknown>): Promise<string> {
  const bytes = new TextEncoder().encode(canonical(parts));
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export async function cached<T>(store: ContextStoreStub, key: string): Promise<T | null> {
  const body = await store.modelCacheGet(key);
  return body === null ? null : (JSON.parse(body) as T);
}

export async function remember(
  store: ContextStoreStub,
  key: string,
  value: unknown,
): Promise<void> {
  await store.modelCachePut(key, JSON.stringify(value));
}

/** JSON with object keys sorted at every level, so equal requests hash equally. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => a.localeCompare(b));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}
