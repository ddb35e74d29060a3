import type { JsonSchema } from './openapi-types.ts';

/** One line of a parameter or schema table: nested properties are named by path (`results[].id`). */
export interface SchemaRow {
  name: string;
  depth: number;
  type: string;
  required: boolean;
  description: string;
  /** Enum values, bounds, default, pattern: what a caller must respect. */
  constraints: string[];
}

export type Components = Record<string, JsonSchema>;

/** How deep nested objects are expanded; deeper ones are named by type only. */
const MAX_DEPTH = 3;

/** Follows a local `#/components/schemas/X` reference; anything else is returned unchanged. */
export function resolve(schema: JsonSchema, components: Components): JsonSchema {
  const ref = schema.$ref;
  if (!ref) return schema;
  const name = ref.replace('#/components/schemas/', '');
  const target = components[name];
  if (!target) throw new Error(`Unresolved $ref ${ref}: no components.schemas.${name}`);
  return target;
}

function refName(schema: JsonSchema): string | undefined {
  return schema.$ref?.replace('#/components/schemas/', '');
}

/** A short type label: `string`, `integer or null`, `array of Fact`, `"a" | "b"`. */
export function typeLabel(schema: JsonSchema, components: Components): string {
  const named = refName(schema);
  if (named) return named;
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return variants.map((v) => typeLabel(v, components)).join(' or ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const labels = types.map((t) => {
    if (t !== 'array' || !schema.items) return t;
    const item = typeLabel(schema.items, components);
    return `array of ${item.includes(' or ') ? `(${item})` : item}`;
  });
  if (schema.format && labels.length > 0) labels[0] = `${labels[0]} (${schema.format})`;
  return labels.join(' or ') || 'any';
}

export function constraintsOf(schema: JsonSchema): string[] {
  const out: string[] = [];
  if (schema.enum) out.push(`one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`);
  if (schema.default !== undefined) out.push(`default ${JSON.stringify(schema.default)}`);
  if (schema.minimum !== undefined) out.push(`min ${schema.minimum}`);
  if (schema.maximum !== undefined) out.push(`max ${schema.maximum}`);
  if (schema.minLength !== undefined) out.push(`min length ${schema.minLength}`);
  if (schema.maxLength !== undefined) out.push(`max length ${schema.maxLength}`);
  if (schema.minItems !== undefined) out.push(`min items ${schema.minItems}`);
  if (schema.maxItems !== undefined) out.push(`max items ${schema.maxItems}`);
  if (schema.pattern) out.push(`pattern ${schema.pattern}`);
  return out;
}

/** The object whose properties a schema lists: itself, its array items, or its referenced type. */
function objectOf(schema: JsonSchema, components: Components): JsonSchema | undefined {
  const resolved = resolve(schema, components);
  if (resolved.properties) return resolved;
  if (resolved.items) {
    const items = resolve(resolved.items, components);
    if (items.properties) return items;
  }
  return undefined;
}

/**
 * The property table of a schema: one row per property, nested objects (and arrays of objects)
 * expanded below their parent up to MAX_DEPTH. A schema without properties yields no rows.
 */
export function schemaRows(
  schema: JsonSchema,
  components: Components,
  depth = 0,
  prefix = '',
): SchemaRow[] {
  const object = objectOf(schema, components);
  if (!object?.properties || depth >= MAX_DEPTH) return [];
  const required = new Set(object.required ?? []);
  const rows: SchemaRow[] = [];
  for (const [name, raw] of Object.entries(object.properties)) {
    const prop = resolve(raw, components);
    rows.push({
      name: `${prefix}${name}`,
      depth,
      type: typeLabel(raw, components),
      required: required.has(name),
      description: raw.description ?? prop.description ?? '',
      constraints: constraintsOf(prop),
    });
    const isArray =
      prop.type === 'array' || (Array.isArray(prop.type) && prop.type.includes('array'));
    rows.push(...schemaRows(raw, components, depth + 1, `${prefix}${name}${isArray ? '[]' : ''}.`));
  }
  return rows;
}
