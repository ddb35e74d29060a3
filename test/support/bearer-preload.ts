import { createRequire } from 'node:module';

/**
 * Loaded with `node --import` into a client that has no option for request headers (the MCP
 * conformance CLI): every HTTP request the process makes, through `fetch` or undici's `request`,
 * carries `Authorization: Bearer $MCP_BEARER`. It swaps undici's global dispatcher, which both
 * use, for one that adds the header; a request that already has one keeps it.
 */
interface DispatchOptions {
  headers?: unknown;
}
interface Dispatcher {
  dispatch(options: DispatchOptions, handler: unknown): boolean;
  compose(
    interceptor: (
      dispatch: Dispatcher['dispatch'],
    ) => (options: DispatchOptions, handler: unknown) => boolean,
  ): Dispatcher;
}
interface Undici {
  Agent: new () => Dispatcher;
  setGlobalDispatcher(dispatcher: Dispatcher): void;
}

const token = process.env.MCP_BEARER ?? '';
// The undici the conformance CLI itself imports, so both share one global dispatcher.
const require = createRequire(require_base());
const undici = require('undici') as Undici;

function require_base(): string {
  return createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json');
}

function hasAuthorization(headers: unknown): boolean {
  if (Array.isArray(headers)) {
    return headers.some((h, i) => i % 2 === 0 && String(h).toLowerCase() === 'authorization');
  }
  if (headers !== null && typeof headers === 'object') {
    return Object.keys(headers).some((k) => k.toLowerCase() === 'authorization');
  }
  return false;
}

function withBearer(headers: unknown): unknown {
  if (token === '' || hasAuthorization(headers)) return headers;
  const value = `Bearer ${token}`;
  if (Array.isArray(headers)) return [...(headers as unknown[]), 'authorization', value];
  if (headers !== null && typeof headers === 'object') {
    return { ...(headers as Record<string, unknown>), authorization: value };
  }
  return { authorization: value };
}

undici.setGlobalDispatcher(
  new undici.Agent().compose(
    (dispatch) => (options, handler) =>
      dispatch({ ...options, headers: withBearer(options.headers) }, handler),
  ),
);
