import { requireManagement } from '../auth/guards.ts';
import type { MemoryApp } from '../hono-env.ts';
import { versionReport } from '../jobs/context-versions.ts';
import { listDeadLetters, retryDeadLetter } from '../jobs/dead-letters.ts';
import { LATEST_SCHEMA_VERSION } from '../store/schema/index.ts';

/**
 * `GET /api/v1/migrations` (management key): the code's latest schema version, the version
 * histogram of Contexts, the Contexts still behind, and the dead-letter entries.
 * `POST /api/v1/migrations/dlq/{id}/retry` re-enqueues one dead-lettered job.
 */
export function registerMigrationRoutes(app: MemoryApp): void {
  app.get('/api/v1/migrations', async (c) => {
    requireManagement(c);
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
    requireManagement(c);
    const id = c.req.param('id');
    const { job_id } = await retryDeadLetter(c.env, id);
    return c.json({ dlq_id: id, job_id, status: 'queued' }, 202);
  });
}
