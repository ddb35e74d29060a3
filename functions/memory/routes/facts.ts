import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { failure } from '../errors.ts';
import type { MemoryEnv } from '../hono-env.ts';
import { providerOf } from '../operations/model-provider.ts';
import type { BudgetState } from '../operations/model-usage.ts';
import type { StoredResponse } from '../operations/idempotency.ts';
import type { LensInput } from '../scopes/lens.ts';
import { ITEM_KINDS } from '../store/types.ts';
import { setModelHeaders } from './model-responses.ts';
import { perform } from './in-context.ts';
import type { RouteModule } from './registry.ts';
import {
  commonErrors,
  conflict,
  ContextIdParam,
  FactIdParam,
  FactInput,
  jsonBody,
  jsonResponse,
  Lens,
  asJsonObject,
  factPlacement,
  MemoryItem,
  notFound,
  unprocessable,
} from './schemas.ts';

const FactsResponse = z.object({ facts: z.array(MemoryItem) }).openapi('Facts');
const IdempotencyHeader = z.object({
  'idempotency-key': z
    .string()
    .min(1)
    .max(255)
    .optional()
    .openapi({
      param: {
        name: 'idempotency-key',
        in: 'header',
        description: 'Idempotency-Key: replays within 24 h return the stored response',
      },
    }),
});

const create = createRoute({
  method: 'post',
  path: '/api/v1/{context_id}/facts',
  operationId: 'createFact',
  tags: ['facts'],
  summary: 'Write a fact (Idempotency-Key honoured; ?infer=full is model-backed)',
  request: {
    params: ContextIdParam,
    query: z.object({
      infer: z.enum(['full'], { error: 'infer must be "full" when given' }).optional(),
    }),
    headers: IdempotencyHeader,
    body: jsonBody(FactInput.extend({ session_id: z.string().min(1).max(128).optional() })),
  },
  responses: {
    201: jsonResponse(FactsResponse, 'The stored fact(s)'),
    ...commonErrors,
    ...notFound,
    ...conflict,
    ...unprocessable,
  },
});

const batch = createRoute({
  method: 'post',
  path: '/api/v1/{context_id}/facts/batch',
  operationId: 'createFactsBatch',
  tags: ['facts'],
  summary: 'Write 1..100 facts, all or nothing (Idempotency-Key honoured)',
  request: {
    params: ContextIdParam,
    headers: IdempotencyHeader,
    body: jsonBody(z.object({ facts: z.array(FactInput).min(1).max(100) })),
  },
  responses: {
    201: jsonResponse(FactsResponse, 'The stored facts'),
    ...commonErrors,
    ...notFound,
    ...conflict,
  },
});

const get = createRoute({
  method: 'get',
  path: '/api/v1/{context_id}/facts/{id}',
  operationId: 'getFact',
  summary: 'One fact by id, with its scopes, validity and what superseded it',
  tags: ['facts'],
  request: { params: FactIdParam },
  responses: { 200: jsonResponse(MemoryItem, 'The fact'), ...commonErrors, ...notFound },
});

const list = createRoute({
  method: 'get',
  path: '/api/v1/{context_id}/facts',
  operationId: 'listFacts',
  tags: ['facts'],
  summary: 'Facts in insertion order, cursor-paginated, filtered by a lens',
  request: {
    params: ContextIdParam,
    query: z.object({
      cursor: z.string().max(64).optional(),
      limit: z.coerce.number().int().min(1).max(100).default(50),
      lens: z
        .string()
        .max(8192)
        .optional()
        .openapi({ description: 'JSON-encoded lens, e.g. ["team:eng",["a","b"]]' }),
      kind: z.enum(ITEM_KINDS).optional(),
      include_superseded: z
        .enum(['true', 'false'])
        .optional()
        .openapi({ description: 'true: also list facts closed by supersession (valid_until set)' }),
    }),
  },
  responses: {
    200: jsonResponse(
      z.object({ facts: z.array(MemoryItem), next_cursor: z.string().nullable() }),
      'A page of facts',
    ),
    ...commonErrors,
    ...notFound,
  },
});

const remove = createRoute({
  method: 'delete',
  path: '/api/v1/{context_id}/facts/{id}',
  operationId: 'deleteFact',
  tags: ['facts'],
  summary: 'Forget a fact: it leaves every index at once',
  request: { params: FactIdParam },
  responses: { 204: { description: 'Deleted' }, ...commonErrors, ...notFound, ...unprocessable },
});

function parseLensParam(raw: string | undefined): LensInput | undefined {
  if (raw === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw failure(
      'validation-error',
      'lens: not valid JSON (expected e.g. ["team:eng",["a","b"]])',
    );
  }
  const parsed = Lens.safeParse(value);
  if (!parsed.success)
    throw failure(
      'validation-error',
      `lens: ${parsed.error.issues.map((i) => i.message).join('; ')}`,
    );
  return parsed.data;
}

/**
 * `?infer=full` is model-backed: like /chat, /reflect and /consolidate its response reports the
 * Context's soft token budget (re-read after the charge, in the same call) and who answered. A
 * replay reports the budget as it stands now.
 */
function setInferHeaders(c: Context<MemoryEnv>, stored: StoredResponse, budget: BudgetState): void {
  const provider = providerOf(c.get('deps'));
  const facts = (stored.body as { facts?: { model?: { provider?: unknown; model?: unknown } }[] })
    .facts;
  const named = facts?.[0]?.model;
  const model =
    typeof named?.provider === 'string' && typeof named.model === 'string'
      ? { provider: named.provider, model: named.model }
      : { provider: provider.name, model: provider.textModel };
  setModelHeaders(c, budget, model);
}

function send(c: Context<MemoryEnv>, stored: StoredResponse) {
  if (stored.replayed) c.header('idempotency-replayed', 'true');
  return c.json(stored.body as z.infer<typeof FactsResponse>, 201);
}

export const factsRoutes: RouteModule = {
  name: 'facts',
  register(app) {
    app.openapi(create, async (c) => {
      const body = c.req.valid('json');
      const input = {
        contextId: c.req.valid('param').context_id,
        drafts: [
          {
            content: body.content,
            scopes: body.scopes ?? [],
            metadata: asJsonObject(body.metadata),
            sessionId: body.session_id ?? null,
            ...factPlacement(body),
          },
        ],
        infer: c.req.valid('query').infer ?? null,
        idempotencyKey: c.req.valid('header')['idempotency-key'] ?? null,
        operation: 'facts.create' as const,
      };
      if (input.infer !== 'full') return send(c, await perform(c, 'writeFacts', input));
      const { stored, budget } = await perform(c, 'writeFactsWithBudget', input);
      setInferHeaders(c, stored, budget);
      return send(c, stored);
    });
    app.openapi(batch, async (c) => {
      const stored = await perform(c, 'writeFacts', {
        contextId: c.req.valid('param').context_id,
        drafts: c.req.valid('json').facts.map((f) => ({
          content: f.content,
          scopes: f.scopes ?? [],
          metadata: asJsonObject(f.metadata),
          sessionId: null,
          ...factPlacement(f),
        })),
        infer: null,
        idempotencyKey: c.req.valid('header')['idempotency-key'] ?? null,
        operation: 'facts.batch',
      });
      return send(c, stored);
    });
    app.openapi(get, async (c) => {
      const { context_id, id } = c.req.valid('param');
      return c.json(await perform(c, 'getFact', { contextId: context_id, id }), 200);
    });
    app.openapi(list, async (c) => {
      const q = c.req.valid('query');
      const page = await perform(c, 'listFacts', {
        contextId: c.req.valid('param').context_id,
        cursor: q.cursor ?? null,
        limit: q.limit,
        lens: parseLensParam(q.lens),
        kind: q.kind ?? null,
        includeSuperseded: q.include_superseded === 'true',
      });
      return c.json(page, 200);
    });
    app.openapi(remove, async (c) => {
      const { context_id, id } = c.req.valid('param');
      await perform(c, 'deleteFact', { contextId: context_id, id });
      return c.body(null, 204);
    });
  },
};
