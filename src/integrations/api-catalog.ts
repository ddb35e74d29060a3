/** /.well-known/api-catalog: an RFC 9727 linkset (application/linkset+json). */
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
        'service-doc': serviceDocs.map((href) => ({
          href,
          type: href.endsWith('.md') ? 'text/markdown' : 'text/html',
        })),
        'service-meta': [{ href: `${origin}/llms.txt`, type: 'text/plain' }],
        status: [{ href: `${origin}/health`, type: 'application/json' }],
      },
    ],
  };
}
