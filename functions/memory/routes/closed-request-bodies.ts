/** A JSON Schema node as the OpenAPI generator writes it (only the keys this walk needs). */
interface SchemaNode {
  type?: unknown;
  properties?: Record<string, SchemaNode>;
  additionalProperties?: unknown;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  allOf?: SchemaNode[];
  $ref?: string;
}

interface OpenApiLike {
  paths?: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, SchemaNode> };
}

/**
 * Marks every object schema of a JSON request body `additionalProperties: false`, as the
 * validation does (routes/unknown-fields.ts): the schemas themselves stay open so that responses
 * sharing them are not constrained. Objects that declare what they accept beyond their
 * properties (records such as `metadata`) keep their own `additionalProperties`.
 */
export function closeRequestBodies<T extends object>(generated: T): T {
  // The generator's own types are wider than this walk needs; it reads only these keys.
  const doc = generated as OpenApiLike;
  const components = doc.components?.schemas ?? {};
  const seen = new Set<SchemaNode>();
  const close = (node: SchemaNode | undefined): void => {
    if (node === undefined || seen.has(node)) return;
    seen.add(node);
    if (node.$ref !== undefined) close(components[node.$ref.split('/').at(-1) ?? '']);
    if (node.properties !== undefined) {
      if (node.additionalProperties === undefined) node.additionalProperties = false;
      for (const child of Object.values(node.properties)) close(child);
    }
    close(node.items);
    for (const branch of [...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])]) {
      close(branch);
    }
  };
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item)) {
      const body = (op as { requestBody?: { content?: Record<string, { schema?: SchemaNode }> } })
        .requestBody;
      close(body?.content?.['application/json']?.schema);
    }
  }
  return generated;
}
