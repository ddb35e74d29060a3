import { z } from 'zod';
import { bootstrapKeyProblem } from './bootstrap-key.ts';

/**
 * Every setting the Worker reads from its vars (wrangler.toml `[vars]`, `.dev.vars`, secrets),
 * parsed once at the boundary. A bad value is refused at start (`npm start`) and by the Worker
 * (every request answers 503 `misconfigured` naming it), never replaced by a silent default.
 */
export interface Settings {
  siteUrl: string;
  /** Empty means `<request origin>/errors`. */
  errorTypeBase: string;
  /** Empty means the built-in documentation index. */
  docsSearchOrigin: string;
  aiProvider: 'local' | 'workers-ai' | 'openai';
  roles: ('api' | 'worker' | 'scheduler')[];
  maxInFlight: number;
  rateLimitPerMinute: number;
  workersAiTextModel: string;
  workersAiEmbeddingModel: string;
  openaiBaseUrl: string;
  openaiTextModel: string;
  openaiEmbeddingModel: string;
  maxUploadBytes: number;
}

/** One refused setting: its name and one line saying what is wrong and how to fix it. */
export interface InvalidSetting {
  name: string;
  problem: string;
}

export type SettingsResult =
  { ok: true; settings: Settings } | { ok: false; invalid: InvalidSetting[] };

const ROLE_NAMES = ['api', 'worker', 'scheduler'] as const;
const PROVIDERS = ['local', 'workers-ai', 'openai'] as const;

function wholeNumber(what: string) {
  return z
    .string({ error: `is not set; it must be a whole number of 1 or more (${what})` })
    .refine((v) => /^[1-9][0-9]{0,14}$/.test(v), {
      error: (issue) =>
        `must be a whole number of 1 or more (${what}), not ${JSON.stringify(issue.input)}`,
    })
    .transform(Number);
}

function httpUrl(what: string, optional: boolean) {
  return z
    .string({ error: `is not set; it must be an http(s) URL (${what})` })
    .refine((v) => (optional && v === '') || isHttpUrl(v), {
      error: (issue) =>
        `must be an absolute http(s) URL${optional ? ' or empty' : ''} (${what}), not ${JSON.stringify(issue.input)}`,
    });
}

function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol === 'http:' || protocol === 'https:';
}

function modelName(what: string) {
  return z
    .string({ error: `is not set; it must name the ${what}` })
    .refine((v) => v.trim() !== '', { error: `must name the ${what}, not be empty` });
}

const settingsSchema = z.object({
  SITE_URL: httpUrl('the origin the site was built for', false),
  ERROR_TYPE_BASE: httpUrl('base of problem type URIs', true),
  DOCS_SEARCH_ORIGIN: httpUrl('documentation search proxy', true),
  AI_PROVIDER: z.enum(PROVIDERS, {
    error: (issue) =>
      `must be one of ${PROVIDERS.join(', ')}, not ${JSON.stringify(issue.input ?? '(unset)')}`,
  }),
  ROLES: z
    .string({ error: `is not set; it must be a comma list of ${ROLE_NAMES.join(', ')}` })
    .transform((v, ctx) => {
      // Empty means all three, as in a single-instance install (jobs/roles.ts).
      if (v.trim() === '') return [...ROLE_NAMES];
      const names = v.split(',').map((s) => s.trim());
      const unknown = names.filter((n) => !(ROLE_NAMES as readonly string[]).includes(n));
      if (unknown.length > 0) {
        ctx.addIssue({
          code: 'custom',
          message: `must be a comma list of ${ROLE_NAMES.join(', ')}, not ${JSON.stringify(v)}`,
        });
        return z.NEVER;
      }
      return ROLE_NAMES.filter((r) => names.includes(r));
    }),
  MAX_IN_FLIGHT: wholeNumber('requests in flight per isolate before shedding'),
  RATE_LIMIT_PER_MINUTE: wholeNumber('requests per key and Context per minute'),
  WORKERS_AI_TEXT_MODEL: modelName('Workers AI text model'),
  WORKERS_AI_EMBEDDING_MODEL: modelName('Workers AI embedding model'),
  OPENAI_BASE_URL: httpUrl('OpenAI-compatible API base', false),
  OPENAI_TEXT_MODEL: modelName('OpenAI-compatible text model'),
  OPENAI_EMBEDDING_MODEL: modelName('OpenAI-compatible embedding model'),
  MAX_UPLOAD_BYTES: wholeNumber('default per-file upload limit in bytes'),
  // Read by each Context's object (store/memory-budget.ts); checked here so a bad value is named.
  CONTEXT_MEMORY_BUDGET_KIB: wholeNumber('memory budget of one Context object in KiB').optional(),
  MEMORY_BOOTSTRAP_KEY: z.unknown().superRefine((v, ctx) => {
    const problem = bootstrapKeyProblem(typeof v === 'string' ? v : undefined);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  }),
});

/** Parses the settings out of a Worker `env` (or the vars `npm start` will hand to wrangler). */
export function parseSettings(env: object): SettingsResult {
  const parsed = settingsSchema.safeParse(env);
  if (!parsed.success) {
    return {
      ok: false,
      invalid: parsed.error.issues.map((issue) => ({
        name: String(issue.path[0] ?? '(settings)'),
        problem: issue.message,
      })),
    };
  }
  const v = parsed.data;
  return {
    ok: true,
    settings: {
      siteUrl: v.SITE_URL,
      errorTypeBase: v.ERROR_TYPE_BASE,
      docsSearchOrigin: v.DOCS_SEARCH_ORIGIN,
      aiProvider: v.AI_PROVIDER,
      roles: v.ROLES,
      maxInFlight: v.MAX_IN_FLIGHT,
      rateLimitPerMinute: v.RATE_LIMIT_PER_MINUTE,
      workersAiTextModel: v.WORKERS_AI_TEXT_MODEL,
      workersAiEmbeddingModel: v.WORKERS_AI_EMBEDDING_MODEL,
      openaiBaseUrl: v.OPENAI_BASE_URL,
      openaiTextModel: v.OPENAI_TEXT_MODEL,
      openaiEmbeddingModel: v.OPENAI_EMBEDDING_MODEL,
      maxUploadBytes: v.MAX_UPLOAD_BYTES,
    },
  };
}

/** One line per refused setting, as `npm start` prints them and the Worker logs them. */
export function describeInvalid(invalid: readonly InvalidSetting[]): string {
  return invalid.map((i) => `${i.name} ${i.problem}`).join('\n');
}
