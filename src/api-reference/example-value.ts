import { IDS } from './examples.ts';
import type { JsonSchema } from './openapi-types.ts';
import { resolve, type Components } from './schema-rows.ts';

/**
 * Example values for the reference pages' request and response samples, derived from the schema:
 * its own `example`, else its default or first enum value, else a value a reader recognises for a
 * well-known field name, else a placeholder of the right type.
 */
const NAMED: Record<string, unknown> = {
  context_id: IDS.context,
  content: 'Alice leads the Platform team in Berlin',
  query: 'where is the Platform team',
  message: 'Who leads the Platform team?',
  display_name: 'support-bot',
  principal_id: IDS.principal,
  session_id: IDS.session,
  created_at: '2026-11-18T09:30:00.000Z',
  updated_at: '2026-11-18T09:30:00.000Z',
  role: 'user',
};

const MAX_DEPTH = 4;

export interface ExampleOptions {
  /** Requests show required fields and those with an example; responses show every field. */
  only: 'required' | 'all';
}

export function exampleValue(
  schema: JsonSchema,
  components: Components,
  options: ExampleOptions,
  name?: string,
  depth = 0,
): unknown {
  const s = resolve(schema, components);
  if (s.example !== undefined) return s.example;
  if (s.examples?.[0] !== undefined) return s.examples[0];
  if (s.default !== undefined) return s.default;
  if (s.const !== undefined) return s.const;
  if (s.enum?.[0] !== undefined) return s.enum[0];
  // A request's `id` names the Context being created; a response's ids are the service's own.
  const named =
    name === 'id' ? (options.only === 'required' ? IDS.context : IDS.fact) : name && NAMED[name];
  if (named !== undefined && named !== '' && typeAllows(s, typeof named)) return named;
  const variant = s.anyOf?.[0] ?? s.oneOf?.[0];
  if (variant) return exampleValue(variant, components, options, name, depth);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if (depth >= MAX_DEPTH && (type === 'array' || type === 'object'))
    return type === 'array' ? [] : {};
  if (type === 'object' || s.properties) {
    const out: Record<string, unknown> = {};
    const required = new Set(s.required ?? []);
    for (const [key, prop] of Object.entries(s.properties ?? {})) {
      const keep =
        options.only === 'all' ||
        required.has(key) ||
        resolve(prop, components).example !== undefined;
      if (keep) out[key] = exampleValue(prop, components, options, key, depth + 1);
    }
    return out;
  }
  if (type === 'array') {
    return s.items ? [exampleValue(s.items, components, options, name, depth + 1)] : [];
  }
  if (type === 'integer' || type === 'number') return s.minimum ?? 1;
  if (type === 'boolean') return true;
  if (type === 'string') return s.format === 'binary' ? '<file bytes>' : 'string';
  return null;
}

function typeAllows(schema: JsonSchema, jsType: string): boolean {
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  return types.length === 0 || types.includes(jsType);
}
