import { allOperations } from '../api-reference/sources.ts';
import { referencePath } from '../api-reference/operations.ts';
import { docsEntries } from '../lib/collections.ts';
import { docPath } from '../lib/content-routes.ts';

/**
 * The docs navigation, built once per build: the sidebar's groups in reading order, from which
 * previous/next links and breadcrumbs follow. Guides come from content/docs (folder = group,
 * frontmatter `order` within it); the API reference from both OpenAPI documents.
 */
export interface NavLink {
  href: string;
  label: string;
  /** A method badge for API reference entries. */
  method?: string;
}

export interface NavGroup {
  title: string;
  /** Where the group's breadcrumb points. */
  href: string;
  links: NavLink[];
}

const GROUP_TITLES: Record<string, string> = {
  '': 'Guides',
  concepts: 'Concepts',
  api: 'REST API',
  sdk: 'SDKs',
};

const groupOf = (id: string): string => (id.includes('/') ? (id.split('/')[0] ?? '') : '');

export async function docsNav(site: string): Promise<NavGroup[]> {
  const entries = await docsEntries();
  const keys = [...new Set(entries.map((e) => groupOf(e.id)))];
  const guides = keys.map((key) => {
    const inGroup = entries.filter((e) => groupOf(e.id) === key);
    return {
      title: GROUP_TITLES[key] ?? key.charAt(0).toUpperCase() + key.slice(1),
      href: docPath(inGroup[0]?.id ?? 'index'),
      links: inGroup.map((e) => ({ href: docPath(e.id), label: e.data.title })),
    };
  });
  const ops = allOperations(site);
  const reference = (['memory', 'site'] as const).map((api) => ({
    title: api === 'memory' ? 'Memory API reference' : 'Website API reference',
    href: '/docs/reference',
    links: ops
      .filter((o) => o.api === api)
      .map((o) => ({ href: referencePath(o), label: o.title, method: o.method })),
  }));
  return [...guides, ...reference];
}

export interface Neighbours {
  prev?: NavLink;
  next?: NavLink;
  group?: NavGroup;
}

/** The page's group and its neighbours in sidebar order (across group boundaries). */
export function neighbours(nav: readonly NavGroup[], path: string): Neighbours {
  const flat = nav.flatMap((g) => g.links);
  const at = flat.findIndex((l) => l.href === path);
  const group = nav.find((g) => g.links.some((l) => l.href === path));
  if (at === -1) return { group };
  return { prev: flat[at - 1], next: flat[at + 1], group };
}
