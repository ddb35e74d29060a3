/** The short markdown 404 of every non-`/api` machine-readable path (spec section 7). */
import type { PageRef } from './nearest-pages.ts';

/** The indexes a lost client can start again from, in the order a client should try them. */
export const SITE_INDEXES = [
  { path: '/llms.txt', note: 'every page of the site, linking its markdown twin' },
  { path: '/sitemap.xml', note: 'sitemap index, one sitemap per section' },
  { path: '/openapi.json', note: 'OpenAPI 3.1 description of this origin' },
  { path: '/.well-known/api-catalog', note: 'RFC 9727 catalogue of the APIs served here' },
] as const;

/** Keeps a client-supplied path from breaking out of its code span. */
function codeSpan(text: string): string {
  return `\`${text.replaceAll('`', '%60').replaceAll(/[\r\n]/g, '')}\``;
}

/** Link text from a page title: brackets would end the link early. */
const linkText = (text: string): string => text.replaceAll(/[[\]]/g, '');

/** The words of a path, as a search query: `/docs/quickstrat` -> `docs quickstrat`. */
export function pathQuery(path: string): string {
  return (path.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => w !== 'md').join(' ');
}

export function notFoundMarkdown(path: string, nearest: readonly PageRef[] = []): string {
  const query = pathQuery(path);
  const lines = [
    '# Not found',
    '',
    `Nothing is served at ${codeSpan(path)} on this site.`,
    '',
    ...(nearest.length > 0
      ? [
          'Nearest pages:',
          '',
          ...nearest.map(
            (p) => `- [${linkText(p.title)}](${p.path === '/' ? '/index' : p.path}.md): ${p.path}`,
          ),
          '',
        ]
      : []),
    ...(query
      ? [
          `Search: [/api/docs/search?q=${encodeURIComponent(query)}](/api/docs/search?q=${encodeURIComponent(query)})`,
          '',
        ]
      : []),
    'Start again from one of the indexes:',
    '',
    ...SITE_INDEXES.map((index) => `- [${index.path}](${index.path}): ${index.note}`),
    '',
    'Every page `/x` has a markdown twin at `/x.md` (the homepage: `/index.md`), and any page',
    'answers in markdown to `Accept: text/markdown`.',
    '',
  ];
  return lines.join('\n');
}
