import { z } from 'zod';
import { MemoryError } from '../../errors.ts';
import { defineTool, READ_ONLY } from '../tool.ts';
import { toolOutput } from '../tool-result.ts';

/** The site's documentation search (`/api/docs/search`), answered inside the Worker. */
export const searchDocumentationTool = defineTool({
  name: 'search_documentation',
  input: z.object({
    query: z.string().min(1).max(500).describe('Words to look for in the documentation.'),
    limit: z.number().int().min(1).max(50).default(10),
  }),
  output: toolOutput({ query: z.string(), results: z.array(z.looseObject({})) }),
  annotations: READ_ONLY,
  async run(args, ctx) {
    const url = new URL('/api/docs/search', ctx.origin);
    url.searchParams.set('q', args.query);
    url.searchParams.set('limit', String(args.limit));
    const res = await ctx.fetchSite(new Request(url, { headers: { accept: 'application/json' } }));
    const body: unknown = await res.json();
    if (!res.ok || typeof body !== 'object' || body === null) {
      const detail =
        typeof body === 'object' && body !== null && 'detail' in body ? String(body.detail) : '';
      throw new MemoryError(
        res.status === 400
          ? { kind: 'validation-error', detail }
          : {
              kind: 'service-unavailable',
              detail: detail || 'documentation search failed',
              retryAfter: 5,
            },
      );
    }
    return body as Record<string, unknown>;
  },
});
