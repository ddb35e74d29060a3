import { z } from '@hono/zod-openapi';
import { requireRootManagement } from '../auth/guards.ts';
import type { MemoryApp } from '../hono-env.ts';
import { versionReport } from '../jobs/context-versions.ts';
import { listDeadLetters, retryDeadLetter } from '../jobs/dead-letters.ts';
import { LATEST_SCHEMA_VERSION } from '../store/schema/index.ts';
import type { RouteModule } from './registry.ts';
import { commonErrors, conflict, jsonResponse, notFound } from './schemas.ts';

const MigrationsSchema = z
  .object({
    latest_version: z
      .number()
      .int()
      .openapi({ description: 'The code’s latest per-Context schema version' }),
    histogram: z
      .record(z.string(), z.number().int())
      .openapi({ description: 'Contexts per schema version' }),
    behind: z.array(
      z.object({
        context_id: z.string(),
        schema_version: z.number().int(),
        migration_ready: z.boolean(),
      }),
    ),
    dlq: z.array(
      z.object({
        id: z.string(),
        context_id: z.string(),
        job_id: z.string(),
        kind: z.string(),
        error: z.string(),
        attempts: z.number().int(),
        recorded_at: z.string(),
        retried_at: z.string().nullable(),
        retry_job_id: z.string().nullable(),
      }),
    ),
  })
  .openapi('Migrations');

function documentMigrationRoutes(app: MemoryApp): void {
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/api/v1/migrations',
    operationId: 'getMigrations',
    tags: ['migrations'],
    summary:
      'Schema rollout: version histogram, Contexts behind, dead letters (root management key)',
    responses: { 200: jsonResponse(MigrationsSchema, 'Rollout state'), ...commonErrors },
  });
  app.openAPIRegistry.registerPath({
    method: 'post',
    path: '/api/v1/migrations/dlq/{id}/retry',
    operationId: 'retryDeadLetter',
    tags: ['migrations'],
    summary: 'Re-enqueue a dead-lettered job (root management key)',
    request: { params: z.object({ id: z.string() }) },
    responses: {
      202: jsonResponse(
        z.object({ dlq_id: z.string(), job_id: z.string(), status: z.literal('queued') }),
        'Re-enqueued',
      ),
      ...commonErrors,
      ...notFound,
      ...conflict,
    },
  });
}

/**
 * `GET /api/v1/migrations` (management key): the code's latest schema version, the version
 * histogram of Contexts, the Contexts still behind, and the dead-letter entries.
 * `POST /api/v1/migrations/dlq/{id}/retry` re-enqueues one dead-lettered job.
 */
function registerMigrationRoutes(app: MemoryApp): void {
  documentMigrationRoutes(app);
  app.get('/api/v1/migrations', async (c) => {
    requireRootManagement(c);
    const report = await versionReport(c.env.DB, LATEST_SCHEMA_VERSION);
    return c.json(
      {
        latest_version: LATEST_SCHEMA_VERSION,
        histogram: report.histogram,
        behind: report.behind,
        dlq: await listDeadLetters(c.env.DB),
      },
      200,
    );
  });
  app.post('/api/v1/migrations/dlq/:id/retry', async (c) => {
    requireRootManagement(c);
    const id = c.req.param('id');
    const { job_id } = await retryDeadLetter(c.env, id);
    return c.json({ dlq_id: id, job_id, status: 'queued' }, 202);
  });
}

/** Schema migration state and the dead-letter queue (root management key), control-plane routes. */
export const migrationsRoutes: RouteModule = {
  name: 'migrations',
  register: registerMigrationRoutes,
};
