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
 * 400 naming its path, before any handler runs, so nothing invalid reaches SQLite or D1. Reads a
 * clone: handlers, validators and the MCP transport still read the body as they always did. A
 * body that is not JSON at all is left to them to refuse in their own words.
 */
export function wellFormedJson(): MiddlewareHandler<MemoryEnv> {
  return async function wellFormedJsonBody(c, next) {
    const type = c.req.header('content-type') ?? '';
    if (c.req.raw.body === null || !JSON_TYPE.test(type)) return next();
    const text = await c.req.raw.clone().text();
    // A chunked body declared no length for jsonBodyLimit to refuse; characters <= bytes.
    const cap = c.req.path.startsWith('/api/') ? jsonBodyCap(c.req.path) : null;
    if (cap !== null && text.length > cap) throw tooLarge(cap);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return next();
    }
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
