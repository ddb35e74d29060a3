import { z } from '@hono/zod-openapi';

/**
 * The paths of fields in `value` that `schema` does not declare, found by walking the schema
 * beside the value. Objects declared with a catch-all (records such as `metadata`, or a route
 * that documents it ignores extra fields with `.catchall(z.unknown())`) accept any key. A union
 * is checked against the first branch the value parses as, the branch zod itself will take.
 */
export function unknownFields(
  schema: z.core.$ZodType,
  value: unknown,
  path: PropertyKey[] = [],
): PropertyKey[][] {
  if (schema instanceof z.core.$ZodObject) {
    if (!isPlainObject(value)) return [];
    const catchall = schema._zod.def.catchall;
    const open = catchall !== undefined && !(catchall instanceof z.core.$ZodNever);
    const shape: Record<string, z.core.$ZodType> = schema._zod.def.shape;
    const found: PropertyKey[][] = [];
    for (const [key, child] of Object.entries(value)) {
      const field = Object.hasOwn(shape, key) ? shape[key] : undefined;
      if (field !== undefined) found.push(...unknownFields(field, child, [...path, key]));
      else if (catchall !== undefined && open)
        found.push(...unknownFields(catchall, child, [...path, key]));
      else found.push([...path, key]);
    }
    return found;
  }
  if (schema instanceof z.core.$ZodArray) {
    if (!Array.isArray(value)) return [];
    return value.flatMap((item: unknown, i) =>
      unknownFields(schema._zod.def.element, item, [...path, i]),
    );
  }
  if (schema instanceof z.core.$ZodRecord) {
    if (!isPlainObject(value)) return [];
    const valueType = schema._zod.def.valueType;
    return Object.entries(value).flatMap(([k, v]) => unknownFields(valueType, v, [...path, k]));
  }
  if (
    schema instanceof z.core.$ZodOptional ||
    schema instanceof z.core.$ZodNullable ||
    schema instanceof z.core.$ZodDefault ||
    schema instanceof z.core.$ZodPrefault ||
    schema instanceof z.core.$ZodReadonly ||
    schema instanceof z.core.$ZodNonOptional ||
    schema instanceof z.core.$ZodCatch
  ) {
    return unknownFields(schema._zod.def.innerType, value, path);
  }
  if (schema instanceof z.core.$ZodPipe) return unknownFields(schema._zod.def.in, value, path);
  if (schema instanceof z.core.$ZodLazy)
    return unknownFields(schema._zod.def.getter(), value, path);
  if (schema instanceof z.core.$ZodUnion) {
    const options: readonly z.core.$ZodType[] = schema._zod.def.options;
    const taken = options.find((option) => z.safeParse(option, value).success);
    return taken === undefined ? [] : unknownFields(taken, value, path);
  }
  if (schema instanceof z.core.$ZodIntersection) {
    // A field is unknown only when neither side declares it.
    const left = unknownFields(schema._zod.def.left, value, path).map((p) => p.join('\u0000'));
    return unknownFields(schema._zod.def.right, value, path).filter((p) =>
      left.includes(p.join('\u0000')),
    );
  }
  return [];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `schema` refusing fields it does not declare, at any depth, with one issue per field, marked
 * `params.unknown_field`. The wrapper is a preprocess step, so OpenAPI still
 * describes `schema` itself and each route's parsed type is unchanged.
 */
export function refuseUnknownFields<T extends z.ZodType>(schema: T) {
  return z.preprocess((value, ctx) => {
    for (const field of unknownFields(schema, value)) {
      ctx.issues.push({
        code: 'custom',
        path: field,
        input: value,
        message: `Unknown field '${field.join('.')}' in body`,
        params: { unknown_field: true },
      });
    }
    return value;
  }, schema);
}
