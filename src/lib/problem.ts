import { errorType, type ErrorSlug } from './error-catalog.ts';

/** RFC 9457 problem body as this origin and the memory API send it. */
export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  code: string;
  resolution: string;
  documentation_url?: string;
  retry_after?: number | null;
  [extension: string]: unknown;
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** `ERROR_TYPE_BASE` when set, else the origin's own /errors pages. */
export function errorTypeBase(configured: string | undefined, origin: string): string {
  const base = configured && configured.length > 0 ? configured : `${origin}/errors`;
  return base.replace(/\/+$/, '');
}

export interface ProblemInput {
  slug: ErrorSlug;
  detail: string;
  /** Request path (or URL) that produced the problem. */
  instance: string;
  typeBase: string;
  extensions?: Record<string, unknown>;
}

export function problemBody({
  slug,
  detail,
  instance,
  typeBase,
  extensions,
}: ProblemInput): ProblemBody {
  const t = errorType(slug);
  return {
    type: `${typeBase}/${t.slug}`,
    title: t.title,
    status: t.status,
    detail,
    instance,
    code: t.code,
    resolution: t.resolution,
    ...extensions,
  };
}

export function problemResponse(body: ProblemBody, headers: HeadersInit = {}): Response {
  const h = new Headers(headers);
  h.set('content-type', PROBLEM_CONTENT_TYPE);
  return new Response(JSON.stringify(body), { status: body.status, headers: h });
}
