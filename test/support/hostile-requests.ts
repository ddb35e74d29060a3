import { mulberry32 } from '../fixtures/prng.ts';

/**
 * Seeded hostile requests over every memory route, shared by the workerd fuzz test
 * (test/workers/fuzz/) and `npm run bench -- fuzz` (against `wrangler dev`). Routes and body
 * shapes come from the service's own OpenAPI document, so a route another engineer adds is
 * fuzzed without touching this file. Every request starts from a plausible body and then breaks
 * it: bad JSON, wrong types, deep nesting, multi-MB strings, odd unicode, FTS5 and SQL syntax,
 * unknown fields, path tricks (malformed percent-encoding included) and odd headers.
 */
export interface HostileRequest {
  method: string;
  /** Path and query, already encoded (it may be deliberately malformed). */
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** What was done to it, for a failure report. */
  mutation: string;
}

export interface FuzzTarget {
  /** The Context the keys may use (paths name it most of the time). */
  contextId: string;
  /** Keys to send (an agent key with full grants, the bootstrap key, ...). */
  keys: string[];
  /** Ids of things that exist, to put into `{id}` parameters now and then. */
  knownIds: string[];
}

interface Operation {
  method: string;
  template: string;
  bodySchema: JsonSchema | null;
}

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  $ref?: string;
  minItems?: number;
};

interface OpenApiDoc {
  paths: Record<
    string,
    Record<string, { requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>
  >;
  components?: { schemas?: Record<string, JsonSchema> };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** The operations of the memory API's OpenAPI document, plus the MCP endpoint. */
export function operationsOf(doc: OpenApiDoc): Operation[] {
  const ops: Operation[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (op === undefined) continue;
      const schema = op.requestBody?.content?.['application/json']?.schema ?? null;
      ops.push({ method: method.toUpperCase(), template, bodySchema: schema });
    }
  }
  ops.push({ method: 'POST', template: '/mcp', bodySchema: null });
  return ops;
}

/**
 * The literal first segments under /api/v1 of the document's paths (`contexts`, `keys`, ...),
 * in the case the routes spell and shouted: Context ids that collide with management routes,
 * put where a Context id goes (path and bodies) to check that none of them reaches a handler
 * unauthenticated (a 500 once) or is taken by a new Context.
 */
export function managementWords(doc: OpenApiDoc): string[] {
  const words = new Set<string>();
  for (const template of Object.keys(doc.paths)) {
    const first = template.split('/')[3];
    if (!template.startsWith('/api/v1/') || first === undefined || first.startsWith('{')) continue;
    words.add(first);
    words.add(first.toUpperCase());
  }
  return [...words];
}

const BAD_SEGMENTS = [
  '%ED%A0%80', // a UTF-16 surrogate as UTF-8 bytes: decodeURIComponent throws
  '%',
  '%zz',
  '%C0%AF', // overlong encoding of '/'
  '%FF',
  '..',
  '%2e%2e',
  '%2F',
  'a%2Fb',
  '%00',
  'ctx-%C3%A9',
  '%F0%9F%98%80',
  'document:..',
  'x'.repeat(300),
  '%E2%80%AE', // right-to-left override
  'null',
  '-1',
];

const STRINGS = [
  '"unterminated',
  'NEAR(alice bob, 2)',
  'alice OR',
  'AND',
  '*',
  '^start',
  'content:foo',
  '{col1 col2}: x',
  "'); DROP TABLE items; --",
  "' OR '1'='1",
  '%_\\',
  '\u0000nul',
  '\u202eevil\u202c',
  'zero\u200bwidth\u200d',
  'e\u0301\u0301\u0301',
  '😀👩‍👩‍👧‍👦',
  '\ufeffbom',
  '',
  ' ',
  'team:eng/../..',
];

const RAW_BODIES = [
  '{',
  '{"a":',
  'nul',
  '[]',
  '"just a string"',
  '1e999',
  '{"content":"x",}',
  '\ufeff{}',
  '{"content":"\\ud800"}',
  '{"content":"x\\udfff y"}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{}}}',
  '{"content":1}{"content":2}',
  '\u0000',
];

const CONTENT_TYPES = [
  'text/plain',
  'application/json; charset=utf-16',
  'multipart/form-data',
  'application/x-www-form-urlencoded',
  'application/json;;;',
  'application/problem+json',
];

export function hostileRequests(
  doc: OpenApiDoc,
  target: FuzzTarget,
  seed: number,
  count: number,
): HostileRequest[] {
  const rand = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const chance = (p: number) => rand() < p;
  const ops = operationsOf(doc);
  const reserved = managementWords(doc);
  const schemas = doc.components?.schemas ?? {};
  const out: HostileRequest[] = [];

  const resolve = (s: JsonSchema): JsonSchema => {
    if (s.$ref === undefined) return s;
    const name = s.$ref.split('/').at(-1) ?? '';
    return schemas[name] ?? {};
  };

  const hostileString = (): string => {
    const r = rand();
    if (r < 0.005) return 'x'.repeat(2_000_000 + Math.floor(rand() * 2_000_000));
    if (r < 0.05) return pick(STRINGS).repeat(1 + Math.floor(rand() * 2000));
    return pick(STRINGS);
  };

  const sample = (schema: JsonSchema, depth: number): unknown => {
    const s = resolve(schema);
    if (s.enum !== undefined && s.enum.length > 0) return pick(s.enum);
    const branches = s.anyOf ?? s.oneOf;
    if (branches !== undefined && branches.length > 0) return sample(pick(branches), depth);
    const type = Array.isArray(s.type) ? pick(s.type.filter((t) => t !== 'null')) : s.type;
    if (depth > 4) return null;
    switch (type) {
      case 'object': {
        const obj: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(s.properties ?? {})) {
          if (!chance(0.8)) continue;
          const idField = k === 'id' || k === 'context_id';
          obj[k] =
            idField && reserved.length > 0 && chance(0.2) ? pick(reserved) : sample(v, depth + 1);
        }
        return obj;
      }
      case 'array':
        return Array.from({ length: Math.max(s.minItems ?? 0, Math.floor(rand() * 3)) }, () =>
          sample(s.items ?? {}, depth + 1),
        );
      case 'integer':
        return Math.floor(rand() * 20);
      case 'number':
        return rand() * 10;
      case 'boolean':
        return chance(0.5);
      case 'string':
        return chance(0.6) ? `fuzz ${Math.floor(rand() * 1e6)} alice berlin` : hostileString();
      default:
        return 'fuzz';
    }
  };

  const wrongType = (): unknown =>
    pick([
      null,
      42,
      -1,
      1e308,
      true,
      [],
      {},
      [1, 'two', null],
      { nested: { deeper: [] } },
      '1',
      hostileString(),
    ]);

  const deep = (n: number): unknown => {
    let v: unknown = 'bottom';
    for (let i = 0; i < n; i++) v = chance(0.5) ? [v] : { a: v };
    return v;
  };

  /** Replaces a random value inside `value` (objects and arrays) with `replacement`. */
  const replaceSomewhere = (value: unknown, replacement: () => unknown): unknown => {
    if (typeof value !== 'object' || value === null) return replacement();
    if (chance(0.3)) return replacement();
    if (Array.isArray(value)) {
      if (value.length === 0) return replacement();
      const copy: unknown[] = [...value];
      const at = Math.floor(rand() * copy.length);
      copy[at] = replaceSomewhere(copy[at], replacement);
      return copy;
    }
    const entries = Object.entries(value);
    if (entries.length === 0) return replacement();
    const [key, child] = pick(entries);
    return { ...value, [key]: replaceSomewhere(child, replacement) };
  };

  const addField = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return { unexpected_field: value };
    }
    const entries = Object.entries(value);
    const objectChild = entries.find(
      ([, v]) => typeof v === 'object' && v !== null && !Array.isArray(v),
    );
    if (objectChild !== undefined && chance(0.4)) {
      return { ...value, [objectChild[0]]: addField(objectChild[1]) };
    }
    return { ...value, [pick(['foo', 'Content', 'scope', 'ids', '__proto__x', 'ñ'])]: wrongType() };
  };

  const fillPath = (template: string): { path: string; tricks: string[] } => {
    const tricks: string[] = [];
    const path = template.replace(/\{([^}]+)\}/g, (_m, name: string) => {
      const r = rand();
      if (r < 0.2) {
        const bad = pick(BAD_SEGMENTS);
        tricks.push(`{${name}}=${bad.slice(0, 20)}`);
        return bad;
      }
      if (name === 'context_id') {
        if (r < 0.82) return target.contextId;
        if (r < 0.92 && reserved.length > 0) {
          const word = pick(reserved);
          tricks.push(`reserved context_id=${word}`);
          return word;
        }
        return 'no-such-context';
      }
      if (r < 0.6 && target.knownIds.length > 0) return encodeURIComponent(pick(target.knownIds));
      return encodeURIComponent(`${name}-${Math.floor(rand() * 1000)}`);
    });
    return { path, tricks };
  };

  const query = (): string =>
    chance(0.8)
      ? ''
      : pick([
          '?infer=full',
          '?infer=%ZZ',
          '?limit=-1',
          '?limit=1e9',
          '?offset=abc',
          '?k=%ED%A0%80',
          '?deep=1&deep=2',
          '?a[b]=c',
        ]);

  for (let i = 0; i < count; i++) {
    const op = pick(ops);
    const { path, tricks } = fillPath(op.template);
    const headers: Record<string, string> = {};
    const r = rand();
    if (r < 0.08) {
      // no Authorization
    } else if (r < 0.16) {
      headers.authorization = pick([
        'Bearer',
        'Basic dXNlcjpwYXNz',
        'Bearer mem_agent_short',
        `Bearer mem_management_${'z'.repeat(40)}`,
        `Bearer ${'A'.repeat(8000)}`,
        'bearer    mem_agent_',
      ]);
    } else {
      headers.authorization = `Bearer ${pick(target.keys)}`;
    }
    const mutations: string[] = [...tricks];
    if (chance(0.1)) {
      headers['idempotency-key'] = pick(['', 'k', 'x'.repeat(4000), 'same-key', '%ED%A0%80']);
      mutations.push('idempotency-key');
    }
    if (chance(0.05)) {
      headers['x-request-id'] = pick(['', 'x'.repeat(5000), '../../etc/passwd', 'ok-request-id-1']);
    }
    if (chance(0.05)) headers.accept = pick(['text/markdown', '*/*;q=bad', 'application/xml']);

    let body: string | undefined;
    const wantsBody = op.method !== 'GET' && op.method !== 'DELETE';
    if (wantsBody || chance(0.05)) {
      const base: unknown =
        op.template === '/mcp'
          ? {
              jsonrpc: '2.0',
              id: i,
              method: pick(['tools/call', 'tools/list', 'initialize', 'nope']),
              params: { name: pick(['recall', 'remember', 'x']), arguments: {} },
            }
          : op.bodySchema === null
            ? {}
            : sample(op.bodySchema, 0);
      const m = rand();
      let value: unknown = base;
      if (m < 0.12) {
        body = pick(RAW_BODIES);
        mutations.push('raw-json');
      } else if (m < 0.32) {
        value = replaceSomewhere(base, wrongType);
        mutations.push('wrong-type');
      } else if (m < 0.4) {
        value = replaceSomewhere(base, () => deep(pick([50, 500, 5000])));
        mutations.push('deep-nesting');
      } else if (m < 0.55) {
        value = replaceSomewhere(base, hostileString);
        mutations.push('hostile-string');
      } else if (m < 0.7) {
        value = addField(base);
        mutations.push('unknown-field');
      } else {
        mutations.push('plausible');
      }
      try {
        body ??= JSON.stringify(value);
      } catch {
        // Node's stack is smaller than workerd's: write the deepest nesting out by hand.
        body = `${'['.repeat(5000)}${']'.repeat(5000)}`;
      }
      if (chance(0.08)) {
        headers['content-type'] = pick(CONTENT_TYPES);
        mutations.push(`content-type ${headers['content-type']}`);
      } else if (!chance(0.03)) {
        headers['content-type'] = 'application/json';
      }
    }
    if (op.template === '/mcp') {
      headers.accept = 'application/json, text/event-stream';
    }
    out.push({
      method: chance(0.02) ? pick(['PUT', 'PATCH', 'OPTIONS', 'TRACE']) : op.method,
      path: `${path}${query()}`,
      headers,
      ...(body === undefined ? {} : { body }),
      mutation: `${op.method} ${op.template}: ${mutations.join(', ') || 'none'}`,
    });
  }
  return out;
}

/** What every refused request must look like: an RFC 9457 problem, never a 5xx. */
export async function checkResponse(req: HostileRequest, res: Response): Promise<string | null> {
  const label = `${req.method} ${req.path.slice(0, 120)} [${req.mutation}]`;
  if (res.status >= 500) return `${res.status} for ${label}: ${(await res.text()).slice(0, 300)}`;
  if (res.status < 400) {
    await res.body?.cancel();
    return null;
  }
  const type = res.headers.get('content-type') ?? '';
  const text = await res.text();
  // The MCP transport reports protocol faults as JSON-RPC errors (spec section 7), not problems.
  if (
    req.path.startsWith('/mcp') &&
    type.startsWith('application/json') &&
    text.includes('"jsonrpc"')
  ) {
    return null;
  }
  if (!type.startsWith('application/problem+json')) {
    return `${res.status} with content-type ${type} for ${label}: ${text.slice(0, 200)}`;
  }
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return `${res.status} with a problem body that is not JSON for ${label}`;
  }
  for (const field of ['type', 'title', 'detail', 'instance'] as const) {
    if (typeof body[field] !== 'string')
      return `${res.status} problem without ${field} for ${label}`;
  }
  if (body.status !== res.status)
    return `problem status ${String(body.status)} != ${res.status} for ${label}`;
  return null;
}
