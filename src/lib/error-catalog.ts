/**
 * The one list of problem types (RFC 9457) that this origin and the memory API emit.
 * Each slug has a page at /errors/<slug> (and its twin /errors/<slug>.md); a problem's `type`
 * is `${ERROR_TYPE_BASE or <origin>/errors}/<slug>`. Adding a slug here adds its page.
 */
export interface ErrorType {
  /** URL slug, stable across versions. */
  slug: string;
  /** HTTP status the problem is sent with. */
  status: number;
  /** Short summary of the problem type (the problem's `title`). */
  title: string;
  /** Stable machine-readable code that clients match on. */
  code: string;
  /** When the service answers with it. */
  when: string;
  /** The next request to make, or the change to this one, that would succeed. */
  resolution: string;
}

export const ERROR_TYPES = [
  {
    slug: 'validation-error',
    status: 400,
    title: 'Validation error',
    code: 'validation_error',
    when: 'The request body is malformed JSON, a required field is missing, a value is invalid (for example an unknown query `mode`), or a requested scope is narrower than the key’s scope floor.',
    resolution: 'Fix the fields named in `detail` and send the request again.',
  },
  {
    slug: 'unauthorized',
    status: 401,
    title: 'Unauthorized',
    code: 'unauthorized',
    when: 'No `Authorization: Bearer <key>` header was sent, or the key (or OAuth access token) is malformed, unknown, expired or revoked.',
    resolution:
      'Send `Authorization: Bearer mem_<kind>_<secret>` with a live API key, or a current OAuth access token of this origin (see /auth).',
  },
  {
    slug: 'forbidden',
    status: 403,
    title: 'Forbidden',
    code: 'forbidden',
    when: 'The key is valid but not permitted: an agent key on a management operation, a scope outside the key’s grant for the verb, or an agent persisting a reflection.',
    resolution:
      'Use a key whose principal and grants cover the operation and the scopes requested.',
  },
  {
    slug: 'not-found',
    status: 404,
    title: 'Not found',
    code: 'resource_not_found',
    when: 'The resource does not exist (or was deleted).',
    resolution: 'Check the identifier; list the collection to find existing resources.',
  },
  {
    slug: 'context-not-found',
    status: 404,
    title: 'Context not found',
    code: 'context_not_found',
    when: 'The Context named in the path does not exist.',
    resolution: 'Create the Context with `POST /api/v1/contexts` (management key) or fix its id.',
  },
  {
    slug: 'method-not-allowed',
    status: 405,
    title: 'Method not allowed',
    code: 'method_not_allowed',
    when: 'The path exists but does not accept this HTTP method.',
    resolution: 'Use one of the methods listed in the `Allow` response header.',
  },
  {
    slug: 'conflict',
    status: 409,
    title: 'Conflict',
    code: 'conflict',
    when: 'A duplicate Context id or principal display name on create, the same `Idempotency-Key` with a different body, or a duplicate idempotent request while the first is in flight.',
    resolution:
      'Use a new id, name or `Idempotency-Key`, or wait for the first request to finish and replay it.',
  },
  {
    slug: 'payload-too-large',
    status: 413,
    title: 'Payload too large',
    code: 'payload_too_large',
    when: 'An uploaded file exceeds the Context’s per-file size limit (50 MB by default).',
    resolution: 'Split the file or raise the Context’s upload limit.',
  },
  {
    slug: 'unprocessable',
    status: 422,
    title: 'Unprocessable',
    code: 'unprocessable',
    when: 'The request is well formed but semantically invalid, for example binding a Context to the reserved `internal` namespace.',
    resolution: 'Change the value named in `detail`; the request cannot succeed as it is.',
  },
  {
    slug: 'rate-limited',
    status: 429,
    title: 'Rate limited',
    code: 'rate_limited',
    when: 'The per-minute rate limit of the key and Context was hit, or the Context has `enforcement_blocked` set (model-backed paths only).',
    resolution:
      'Wait `retry_after` seconds (also in the `Retry-After` header) and retry; a blocked Context needs an operator to clear the block.',
  },
  {
    slug: 'internal',
    status: 500,
    title: 'Internal error',
    code: 'internal',
    when: 'An unexpected server error. `detail` carries the request id, also sent as `x-request-id`.',
    resolution: 'Retry with backoff; report the request id if it persists.',
  },
  {
    slug: 'service-unavailable',
    status: 503,
    title: 'Service unavailable',
    code: 'service_unavailable',
    when: 'The serving isolate is above its in-flight request cap and shed the request, or a backing store is starting.',
    resolution:
      'Wait the larger of your own backoff and the `Retry-After` delta-seconds, then retry.',
  },
  {
    slug: 'misconfigured',
    status: 503,
    title: 'Service misconfigured',
    code: 'misconfigured',
    when: 'The deployment refused to start because a setting (a wrangler var, `.dev.vars` entry or secret such as `MEMORY_BOOTSTRAP_KEY`) has a value the service cannot use. `/health` reports it too.',
    resolution:
      'An operator fixes the settings listed in `invalid_settings` (each names the rule it broke) and redeploys or restarts; clients retry later.',
  },
] as const satisfies readonly ErrorType[];

export type ErrorSlug = (typeof ERROR_TYPES)[number]['slug'];

export function errorType(slug: ErrorSlug): ErrorType {
  const found = ERROR_TYPES.find((e) => e.slug === slug);
  if (!found) throw new Error(`unknown error slug ${slug}`);
  return found;
}
