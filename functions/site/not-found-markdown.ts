/** The short markdown 404 of every non-`/api` machine-readable path (spec section 7). */

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

export function notFoundMarkdown(path: string): string {
  const lines = [
    '# Not found',
    '',
    `Nothing is served at ${codeSpan(path)} on this site.`,
    '',
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
