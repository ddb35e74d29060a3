import type { MiddlewareHandler } from 'hono';
import { findTextFault } from '../../../src/lib/well-formed-text.ts';
import { failure } from '../errors.ts';
import type { MemoryEnv } from '../hono-env.ts';
import { jsonBodyCap, tooLarge } from './json-body-limit.ts';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

/** No request body of the API nests deeper than this; the walkers after this one recurse. */
export const MAX_JSON_DEPTH = 64;

/** Whether `value` nests arrays and objects deeper than `max`, walked without recursion. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    if (typeof top.value !== 'object' || top.value === null) continue;
    if (top.depth >= max) return true;
    const children = Array.isArray(top.value) ? top.value : Object.values(top.value);
    for (const child of children) stack.push({ value: child, depth: top.depth + 1 });
  }
  return false;
}

/**
 * Refuses a JSON body holding a string that is not valid text (a lone surrogate, U+0000) with a
 * 400 naming its path, before any handler runs, so nothing invalid reaches SQLite or D1. A body
 * that is not JSON at all is left to the handlers to refuse in their own words.
 *
 * The body is read once. Routes whose handlers validate it read it from Hono's body cache, which
 * this fills with the parsed value: no tee of the stream, no second read and no second parse.
 * Routes that hand the raw request on (MCP's transport, document uploads, imports) get a clone
 * read instead, so they still receive the stream untouched.
 */
export function wellFormedJson(): MiddlewareHandler<MemoryEnv> {
  return async function wellFormedJsonBody(c, next) {
    const type = c.req.header('content-type') ?? '';
    if (c.req.raw.body === null || !JSON_TYPE.test(type)) return next();
    // A chunked body declared no length for jsonBodyLimit to refuse; characters <= bytes.
    const cap = c.req.path.startsWith('/api/') ? jsonBodyCap(c.req.path) : null;
    const text = cap === null ? await c.req.raw.clone().text() : await c.req.text();
    if (cap !== null && text.length > cap) throw tooLarge(cap);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return next();
    }
    if (cap !== null) c.req.bodyCache.json = Promise.resolve(value);
    // Checked first: the text check, the unknown-field check and zod all recurse, and a body
    // nested thousands deep would overflow the stack (a 500) instead of getting a clear 400.
    if (nestsDeeperThan(value, MAX_JSON_DEPTH)) {
      throw failure('validation-error', `body: nested deeper than ${MAX_JSON_DEPTH} levels`);
    }
    const fault = findTextFault(value);
    if (fault) throw failure('validation-error', `${fault.path}: ${fault.problem}`);
    return next();
  };
}
