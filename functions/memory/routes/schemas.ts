import { z } from '@hono/zod-openapi';
import { ITEM_KINDS, SEARCH_MODES, type JsonObject } from '../store/types.ts';
import { refuseUnknownFields } from './unknown-fields.ts';

/** Request and response schemas shared by the route groups (one source for validation and OpenAPI). */

export const MAX_CONTENT_CHARS = 32_768;
export const MAX_METADATA_BYTES = 16_384;
export const MAX_SCOPES = 16;

export const Problem = z
  .object({
    type: z.string().openapi({ example: 'https://engram.example/errors/validation-error' }),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    instance: z.string(),
    code: z.string(),
    resolution: z.string(),
    retry_after: z.number().int().nullable().optional(),
  })
  .openapi('Problem');

const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: Problem } },
});

/** The error responses every authenticated route can produce. */
export const commonErrors = {
  400: problem(
    'validation-error: malformed JSON, a missing or invalid field, or a scope below the key’s floor',
  ),
  401: problem('unauthorized: missing, malformed, unknown or revoked key'),
  403: problem(
    'forbidden: the key may not do this (management only, scope outside the grant, other Context)',
  ),
  429: problem(
    'rate-limited: per-minute limit of the key and Context; see retry_after and Retry-After',
  ),
  503: problem('service unavailable: load shed; see Retry-After'),
} as const;

export const notFound = { 404: problem('not-found or context-not-found') } as const;
export const conflict = { 409: problem('conflict') } as const;
export const unprocessable = { 422: problem('unprocessable') } as const;

/** `?cursor&limit` of the control-plane lists (Contexts, keys, principals). */
export const PageQuery = z.object({
  cursor: z
    .string()
    .min(1)
    .max(300)
    .optional()
    .openapi({ description: 'next_cursor of the previous page' }),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

export const ScopePath = z.string().min(1).max(256).openapi({ example: 'team:eng/user:alice' });

export const Lens = z
  .array(z.union([ScopePath, z.array(ScopePath).min(1)]))
  .min(1)
  .max(64)
  .openapi({
    description: 'Disjunctive normal form: flat entries are OR-ed; a nested array is AND-ed.',
    example: ['team:eng', ['team:sales', 'region:eu']],
  });

export const Metadata = z
  .record(z.string(), z.unknown())
  .refine((m) => JSON.stringify(m).length <= MAX_METADATA_BYTES, {
    message: `metadata must serialise to at most ${MAX_METADATA_BYTES} bytes`,
  })
  .openapi({ example: { source: 'chat' } });

export const ContextIdParam = z.object({
  context_id: z
    .string()
    .min(1)
    .max(128)
    .openapi({ param: { name: 'context_id', in: 'path' }, example: 'acme-support' }),
});

/** `/{context_id}/facts/{id}`: a fact (or any memory item) by id. */
export const FactIdParam = ContextIdParam.extend({ id: z.string().min(1).max(128) });

export const MemoryItem = z
  .object({
    id: z.string(),
    kind: z.enum(ITEM_KINDS),
    content: z.string(),
    scopes: z.array(z.string()),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    session_id: z.string().nullable(),
    source_id: z.string().nullable(),
    created_at: z.string(),
    valid_from: z
      .string()
      .optional()
      .openapi({ description: 'When the fact became current (its created_at unless stored)' }),
    valid_until: z.string().nullable().optional().openapi({
      description:
        'Set when a later fact superseded, refined or absorbed this one (?infer=full, consolidation): it is history since, and left out of /query, lists and the context block unless include_superseded is asked for',
    }),
    superseded_by: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: 'The id of the fact that closed this one, when known' }),
    session: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: 'The conversation or session label given at write time' }),
    position: z
      .number()
      .int()
      .nullable()
      .optional()
      .openapi({ description: 'The turn position inside `session` given at write time' }),
  })
  .openapi('Fact');

export const MAX_SESSION_LABEL_CHARS = 128;

export const FactInput = z.object({
  content: z.string().trim().min(1).max(MAX_CONTENT_CHARS),
  scopes: z.array(ScopePath).max(MAX_SCOPES).optional(),
  metadata: Metadata.optional(),
  valid_from: z.iso
    .datetime({
      offset: true,
      error: 'valid_from must be an ISO 8601 date-time, e.g. 2023-05-08T13:56:00Z',
    })
    .optional()
    .openapi({
      description:
        'When it was said or happened (default: now). Relative dates in the content ("yesterday", "last May") are resolved against it and indexed.',
      example: '2023-05-08T13:56:00Z',
    }),
  session: z.string().min(1).max(MAX_SESSION_LABEL_CHARS).optional().openapi({
    description:
      'A conversation or session label the item belongs to; retrieval reads neighbouring turns of the same session',
    example: 'session-3',
  }),
  position: z
    .number()
    .int({ error: 'position must be an integer >= 0' })
    .min(0, { error: 'position must be an integer >= 0' })
    .max(Number.MAX_SAFE_INTEGER)
    .optional()
    .openapi({ description: 'The turn position inside `session` (0-based)', example: 12 }),
});

/**
 * The optional time and conversation fields of a fact write, as the operations take them. Only
 * the fields given are set, so a draft without them hashes as it always did (Idempotency-Key).
 */
export function factPlacement(f: z.infer<typeof FactInput>): {
  validFrom?: string;
  session?: string;
  position?: number;
} {
  return {
    // Stored normalised to UTC so that ordering and date tokens agree whatever offset was sent.
    ...(f.valid_from === undefined ? {} : { validFrom: new Date(f.valid_from).toISOString() }),
    ...(f.session === undefined ? {} : { session: f.session }),
    ...(f.position === undefined ? {} : { position: f.position }),
  };
}

export const SearchModeSchema = z.enum(SEARCH_MODES, {
  error: `mode must be one of ${SEARCH_MODES.join(', ')}`,
});

/**
 * A JSON request body validated by `schema`, which refuses fields it does not declare at any depth
 * (400 naming each). A route that means to accept extra fields declares them with a catch-all
 * (`.catchall(z.unknown())`, or a record such as `metadata`) and says so in its description.
 */
export function jsonBody<T extends z.ZodType>(schema: T) {
  return {
    content: { 'application/json': { schema: refuseUnknownFields(schema) } },
    required: true,
  } as const;
}

export function jsonResponse<T extends z.ZodType>(schema: T, description: string) {
  return { content: { 'application/json': { schema } }, description } as const;
}

/**
 * Request metadata as the JSON object it is: it was parsed from a JSON body, so every value is
 * JSON. (The schema stays `record(string, unknown)` because a recursive JSON schema sends the
 * OpenAPI generator into infinite recursion.)
 */
export function asJsonObject(value: Record<string, unknown> | undefined): JsonObject | null {
  return value === undefined ? null : (value as JsonObject);
}

/** What went into a context block: memories with their scores, and the session's turns. */
export const ContextBlockItems = z.array(
  z.object({
    id: z.string(),
    kind: z.enum(['fact', 'chunk', 'reflection', 'turn']),
    content: z.string(),
    score: z.number().optional(),
    role: z.string().optional(),
  }),
);
