import { z } from 'zod';

/** RFC 9457 problem body (spec section 7), as every `/api` failure of this origin sends it. */
export const Problem = z
  .object({
    type: z.url().describe('URI identifying the problem type; its page is under /errors/<slug>.'),
    title: z.string().min(1).describe('Short summary of the problem type.'),
    status: z.int().min(100).max(599).describe('HTTP status, repeated in the body.'),
    detail: z.string().optional().describe('What went wrong with this request.'),
    instance: z.string().optional().describe('URL (or path) that produced the problem.'),
    code: z
      .string()
      .min(1)
      .describe(
        'Stable machine-readable code; clients match on it, not on prose (e.g. resource_not_found).',
      ),
    resolution: z
      .string()
      .min(1)
      .describe('The next request to make, or the change to this one, that would succeed.'),
    documentation_url: z.url().optional().describe('Where the served resources are described.'),
  })
  .describe('RFC 9457 problem details (application/problem+json).');

export type Problem = z.infer<typeof Problem>;
