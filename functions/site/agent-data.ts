/**
 * The build's agent manifest and search index, read through the ASSETS binding once per isolate
 * (and per binding, so a test's fake assets never see another test's data).
 */
import {
  MANIFEST_PATH,
  SEARCH_INDEX_PATH,
  type AgentManifest,
  type PageEntry,
  type SearchIndex,
} from '../../src/lib/agent-manifest.ts';
import { buildIndex, type Bm25Index } from './docs-search.ts';

/** What the Worker needs from the ASSETS binding. */
export interface AssetFetcher {
  fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response>;
}

export interface SiteData {
  /** Keyed by page path (`/`, `/pricing`). */
  pages: Map<string, PageEntry>;
  /** Keyed by twin path (`/index.md`, `/pricing.md`). */
  twins: Map<string, PageEntry>;
}

// Asset paths are resolved against any origin: the binding ignores the host.
const ASSET_ORIGIN = 'https://assets.local';

async function readJson<T>(assets: AssetFetcher, path: string): Promise<T | null> {
  const res = await assets.fetch(new Request(`${ASSET_ORIGIN}${path}`));
  if (!res.ok) return null;
  return (await res.json()) as T;
}

const siteData = new WeakMap<AssetFetcher, Promise<SiteData>>();
const searchIndexes = new WeakMap<AssetFetcher, Promise<Bm25Index>>();

function toSiteData(manifest: AgentManifest | null): SiteData {
  const entries = Object.values(manifest?.pages ?? {});
  return {
    pages: new Map(entries.map((entry) => [entry.path, entry])),
    twins: new Map(entries.map((entry) => [entry.twin, entry])),
  };
}

/** Memoises a successful load only: a missing file (site not built yet) is retried next time. */
async function memo<T>(
  cache: WeakMap<AssetFetcher, Promise<T>>,
  assets: AssetFetcher,
  load: () => Promise<{ value: T; complete: boolean }>,
): Promise<T> {
  const cached = cache.get(assets);
  if (cached) return cached;
  const pending = load().then(({ value, complete }) => {
    if (!complete) cache.delete(assets);
    return value;
  });
  cache.set(assets, pending);
  pending.catch(() => cache.delete(assets));
  return pending;
}

export function loadSiteData(assets: AssetFetcher): Promise<SiteData> {
  return memo(siteData, assets, async () => {
    const manifest = await readJson<AgentManifest>(assets, MANIFEST_PATH);
    return { value: toSiteData(manifest), complete: manifest !== null };
  });
}

export function loadSearchIndex(assets: AssetFetcher): Promise<Bm25Index> {
  return memo(searchIndexes, assets, async () => {
    const index = await readJson<SearchIndex>(assets, SEARCH_INDEX_PATH);
    return { value: buildIndex(index?.documents ?? []), complete: index !== null };
  });
}
