import type { MiddlewareHandler } from 'hono';
import { failure } from '../errors.ts';
import type { MemoryEnv } from '../hono-env.ts';

/**
 * Caps JSON request bodies by their declared `Content-Length`, before auth, the rate-limit
 * write, or any parse: an oversized body costs one header read, not megabytes of decoding,
 * parsing and walking on the Worker's one thread (what the hostile-input bench showed). Bodies
 * without a length (chunked) are capped by `wellFormedJson` once read.
 *
 * The caps sit well above the largest valid body: a fact's content is at most 32,768 characters
 * (`MAX_CONTENT_CHARS`), a batch at most 100 facts. Document uploads and imports carry files
 * and exports of any content type, JSON included, under their own limits, so they are exempt.
 */

/** Every JSON body but a fact batch: one fact, query, chat message, turn, key, principal... */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;
/** `POST /{context_id}/facts/batch`: 100 facts of 32,768 characters fit with room to spare. */
export const MAX_BATCH_BODY_BYTES = 8 * 1024 * 1024;

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;
const EXEMPT = [/^\/api\/v1\/[^/]+\/documents\/?$/, /^\/api\/v1\/contexts\/[^/]+\/import(?:\/|$)/];
const BATCH = /^\/api\/v1\/[^/]+\/facts\/batch\/?$/;

/** The cap for a JSON body sent to `path`, or null when the route takes files of any size. */
export function jsonBodyCap(path: string): number | null {
  if (EXEMPT.some((re) => re.test(path))) return null;
  return BATCH.test(path) ? MAX_BATCH_BODY_BYTES : MAX_JSON_BODY_BYTES;
}

export function tooLarge(cap: number): Error {
  return failure(
    'payload-too-large',
    `the JSON body is larger than this route's ${cap} bytes; send less (a fact's content is at most 32,768 characters)`,
  );
}

export function jsonBodyLimit(): MiddlewareHandler<MemoryEnv> {
  return async function jsonBodyLimitMiddleware(c, next) {
    if (c.req.raw.body === null || !JSON_TYPE.test(c.req.header('content-type') ?? '')) {
      return next();
    }
    const cap = jsonBodyCap(c.req.path);
    const declared = Number(c.req.header('content-length') ?? Number.NaN);
    if (cap !== null && Number.isFinite(declared) && declared > cap) throw tooLarge(cap);
    return next();
  };
}
