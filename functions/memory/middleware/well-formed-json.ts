import type { MiddlewareHandler } from 'hono';
import { findTextFault } from '../../../src/lib/well-formed-text.ts';
import { failure } from '../errors.ts';
import type { MemoryEnv } from '../hono-env.ts';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

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
    let value: unknown;
    try {
      value = JSON.parse(await c.req.raw.clone().text());
    } catch {
      return next();
    }
    const fault = findTextFault(value);
    if (fault) throw failure('validation-error', `${fault.path}: ${fault.problem}`);
    return next();
  };
}
