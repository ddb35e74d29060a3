import { ERROR_TYPES } from '../lib/error-catalog.ts';
import { exampleValue } from './example-value.ts';
import { OPERATION_EXAMPLES } from './examples.ts';
import type { JsonSchema, OpenApiDocument, Operation, Parameter } from './openapi-types.ts';
import { schemaRows, typeLabel, constraintsOf, type SchemaRow } from './schema-rows.ts';

/** One of the two described APIs: the memory service and this origin. */
export interface ApiSource {
  /** URL segment: `/docs/reference/<api>/<operation>`. */
  api: 'memory' | 'site';
  title: string;
  doc: OpenApiDocument;
}

export interface ParameterView extends SchemaRow {
  in: Parameter['in'];
}

export interface BodyView {
  mediaType: string;
  rows: SchemaRow[];
  /** A JSON example, or a short note for non-JSON bodies. */
  example: string;
  typeLabel: string;
}

export interface ResponseView {
  status: string;
  description: string;
  body?: BodyView;
  /** Problem types (/errors/<slug>) this status can carry. */
  errors: { slug: string; title: string }[];
}

export interface OperationView {
  api: ApiSource['api'];
  apiTitle: string;
  /** kebab-case operation id: the page's last URL segment. */
  slug: string;
  /** Sidebar label and page title, from the operation id. */
  title: string;
  operationId: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  tag: string;
  auth: string;
  parameters: ParameterView[];
  requestBody?: BodyView;
  responses: ResponseView[];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export function kebab(id: string): string {
  return id.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
}

const WORDS: Record<string, string> = {
  api: 'API',
  mcp: 'MCP',
  ai: 'AI',
  llms: 'LLMs',
  openapi: 'OpenAPI',
};

/** `createFactsBatch` -> `Create facts batch`, `getOpenApiDescription` -> `Get OpenAPI description`. */
export function humanize(id: string): string {
  const words = id
    .replace('OpenApi', 'Openapi')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(' ')
    .map((w) => WORDS[w] ?? w);
  const [first = '', ...rest] = words;
  return [first.charAt(0).toUpperCase() + first.slice(1), ...rest].join(' ');
}

export function referencePath(op: Pick<OperationView, 'api' | 'slug'>): string {
  return `/docs/reference/${op.api}/${op.slug}`;
}

function isOperation(value: unknown): value is Operation {
  return typeof value === 'object' && value !== null && 'responses' in value;
}

function authOf(source: ApiSource, op: Operation): string {
  const security = op.security ?? source.doc.security ?? [];
  if (security.length === 0 || security.every((s) => Object.keys(s).length === 0)) {
    return 'None: public, no credentials.';
  }
  if (/management key/i.test(`${op.summary ?? ''} ${op.description ?? ''}`)) {
    return 'Bearer management key (`mem_management_…`) in the `Authorization` header.';
  }
  return 'Bearer API key of the Context (`mem_agent_…` or `mem_supervisor_…`) in the `Authorization` header, with a grant for the scopes the request touches.';
}

function bodyView(
  content: Record<string, { schema?: JsonSchema }> | undefined,
  source: ApiSource,
  only: 'required' | 'all',
  /** The operation's own example (src/api-reference/examples.ts), else one from the schema. */
  example?: unknown,
): BodyView | undefined {
  const entry = Object.entries(content ?? {})[0];
  if (!entry) return undefined;
  const [mediaType, media] = entry;
  const components = source.doc.components?.schemas ?? {};
  const schema = media.schema ?? {};
  const json = mediaType.includes('json') && !mediaType.includes('ndjson');
  return {
    mediaType,
    rows: schemaRows(schema, components),
    typeLabel: typeLabel(schema, components),
    example: json
      ? JSON.stringify(example ?? exampleValue(schema, components, { only }), null, 2)
      : `(${mediaType} body)`,
  };
}

/**
 * Problem slugs named in a response description, else every catalogued problem of that status
 * that can happen on this path: `context-not-found` only where the path names a Context.
 */
export function errorsOf(
  status: string,
  description: string,
  path: string,
): ResponseView['errors'] {
  if (!/^[45]/.test(status)) return [];
  const named = ERROR_TYPES.filter((e) => new RegExp(`\\b${e.slug}\\b`).test(description));
  const namesContext = /\{context_id\}|\/contexts\/\{id\}/.test(path);
  const found =
    named.length > 0
      ? named
      : ERROR_TYPES.filter(
          (e) => String(e.status) === status && (e.slug !== 'context-not-found' || namesContext),
        );
  return found.map((e) => ({ slug: e.slug, title: e.title }));
}

export function operationsOf(source: ApiSource): OperationView[] {
  const components = source.doc.components?.schemas ?? {};
  const views: OperationView[] = [];
  for (const [path, item] of Object.entries(source.doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!isOperation(op) || !op.operationId) continue;
      const parameters = (op.parameters ?? []).map((p): ParameterView => {
        const schema = p.schema ?? {};
        return {
          in: p.in,
          name: p.name,
          depth: 0,
          type: typeLabel(schema, components),
          required: p.required ?? false,
          description: p.description ?? schema.description ?? '',
          constraints: constraintsOf(schema),
        };
      });
      const responses = Object.entries(op.responses ?? {}).map(([status, r]): ResponseView => {
        const description = r.description ?? '';
        const body = /^2/.test(status) ? bodyView(r.content, source, 'all') : undefined;
        return { status, description, body, errors: errorsOf(status, description, path) };
      });
      views.push({
        api: source.api,
        apiTitle: source.title,
        slug: kebab(op.operationId),
        title: humanize(op.operationId),
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        summary: op.summary ?? `${method.toUpperCase()} ${path}`,
        description: op.description ?? '',
        tag: op.tags?.[0] ?? 'general',
        auth: authOf(source, op),
        parameters,
        requestBody: bodyView(
          op.requestBody?.content,
          source,
          'required',
          OPERATION_EXAMPLES[op.operationId]?.body,
        ),
        responses,
      });
    }
  }
  return views;
}
