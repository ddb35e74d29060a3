/**
 * The section a page belongs to, by its path, named like the sidebar groups: shown beside search
 * results and on the page's social image.
 */
const SECTIONS: [RegExp, string][] = [
  [/^\/docs\/reference\/memory\//, 'Memory API reference'],
  [/^\/docs\/reference\/site\//, 'Website API reference'],
  [/^\/docs\/reference/, 'API reference'],
  [/^\/docs\/api\//, 'REST API'],
  [/^\/docs\/concepts\//, 'Concepts'],
  [/^\/docs\/sdk\//, 'SDKs'],
  [/^\/docs/, 'Guides'],
  [/^\/learn/, 'Learn'],
  [/^\/blog/, 'Blog'],
  [/^\/errors/, 'Errors'],
  [/^\/pricing/, 'Pricing'],
];

export function sectionOf(path: string): string {
  return SECTIONS.find(([re]) => re.test(path))?.[1] ?? 'Site';
}

/**
 * Where the build writes a page's social image (src/integrations/social-images.ts) and where
 * its Open Graph and Twitter tags point (src/layouts/Base.astro): `/` -> `/_social/index.png`,
 * `/docs/quickstart` -> `/_social/docs/quickstart.png`.
 */
export function socialImagePath(pagePath: string): string {
  const clean = pagePath.replace(/\.html$/, '').replace(/\/$/, '');
  return `/_social/${clean === '' ? 'index' : clean.slice(1)}.png`;
}
