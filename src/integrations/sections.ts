/** Order and headings of the site's sections in llms.txt, llms-full.txt and the sitemaps. */
export const SECTION_ORDER = [
  'home',
  'pricing',
  'docs',
  'learn',
  'blog',
  'errors',
  'pages',
] as const;

export const SECTION_TITLES: Record<string, string> = {
  home: 'Home',
  pricing: 'Pricing',
  docs: 'Docs',
  learn: 'Learn',
  blog: 'Blog',
  errors: 'Errors',
  pages: 'About, policies and guides',
};

export function sectionRank(section: string): number {
  const i = (SECTION_ORDER as readonly string[]).indexOf(section);
  return i === -1 ? SECTION_ORDER.length : i;
}

/** Stable order: by section, then by path. */
export function byReadingOrder<T extends { section: string; path: string }>(a: T, b: T): number {
  return sectionRank(a.section) - sectionRank(b.section) || a.path.localeCompare(b.path);
}
