/** /.well-known/api-catalog: an RFC 9727 linkset (application/linkset+json). */
function mediaTypeOf(href: string): string {
  if (href.endsWith('.md')) return 'text/markdown';
  if (href.endsWith('.txt')) return 'text/plain';
  return 'text/html';
}

export function apiCatalog(
  origin: string,
  serviceDocs: readonly string[],
): Record<string, unknown> {
  return {
    linkset: [
      {
        anchor: `${origin}/`,
        'service-desc': [
          { href: `${origin}/openapi.json`, type: 'application/json' },
          { href: `${origin}/api/v1/openapi.json`, type: 'application/json' },
        ],
        'service-doc': serviceDocs.map((href) => ({ href, type: mediaTypeOf(href) })),
        'service-meta': [{ href: `${origin}/llms.txt`, type: 'text/plain' }],
        status: [{ href: `${origin}/health`, type: 'application/json' }],
      },
    ],
  };
}
