import { z } from 'zod';
import { writeFacts } from '../../operations/write-fact.ts';
import type { FactDraft } from '../../operations/deps.ts';
import { contextIdField, defineTool, WRITES_NEW } from '../tool.ts';
import { toolOutput } from '../tool-result.ts';

const factInput = z.object({
  content: z.string().min(1).max(32_000).describe('The fact, in plain language.'),
  scopes: z
    .array(z.string().min(1))
    .max(32)
    .optional()
    .describe('Scope paths such as team:eng/user:alice; they must lie inside the write grant.'),
  metadata: z.record(z.string(), z.json()).optional(),
});

export const factOutput = z.looseObject({
  id: z.string(),
  kind: z.string(),
  content: z.string(),
  scopes: z.array(z.string()),
});

const input = z
  .object({
    context_id: contextIdField,
    content: factInput.shape.content.optional(),
    scopes: factInput.shape.scopes,
    metadata: factInput.shape.metadata,
    facts: z
      .array(factInput)
      .min(1)
      .max(100)
      .optional()
      .describe('Several facts, written all-or-nothing.'),
    session_id: z.string().min(1).optional().describe('Session the fact came from.'),
    infer: z
      .enum(['full'])
      .optional()
      .describe('"full" extracts atomic facts with the model instead of storing the text as is.'),
  })
  .refine((v) => (v.content === undefined) !== (v.facts === undefined), {
    message: 'give either content or facts, not both',
  });

function drafts(args: z.infer<typeof input>): FactDraft[] {
  const sessionId = args.session_id ?? null;
  const list = args.facts ?? [
    { content: args.content ?? '', scopes: args.scopes, metadata: args.metadata },
  ];
  return list.map((f) => ({
    content: f.content,
    scopes: f.scopes ?? [],
    metadata: f.metadata ?? null,
    sessionId,
  }));
}

export const rememberTool = defineTool({
  name: 'remember',
  input,
  output: toolOutput({ facts: z.array(factOutput) }),
  annotations: WRITES_NEW,
  async run(args, ctx) {
    const stored = await writeFacts(ctx.deps, ctx.auth, {
      contextId: await ctx.enter(args.context_id),
      drafts: drafts(args),
      infer: args.infer ?? null,
      idempotencyKey: null,
      operation: args.facts ? 'facts.batch' : 'facts.create',
    });
    return stored.body as Record<string, unknown>;
  },
});
