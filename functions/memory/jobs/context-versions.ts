/**
 * The control plane's record of each Context's schema version (`contexts.schema_version`, the
 * mirror of the store's own stamp) and migration readiness (`context_job_health`), read by the
 * scheduler and `/migrations`.
 */

/** Stamps the registry monotonically: an older report never lowers a recorded version. */
export async function recordSchemaVersion(
  db: D1Database,
  contextId: string,
  version: number,
): Promise<void> {
  await db
    .prepare(
      'UPDATE contexts SET schema_version = MAX(schema_version, ?), updated_at = ? WHERE id = ?',
    )
    .bind(version, new Date().toISOString(), contextId)
    .run();
}

// A Context's last context_migrate job was dead-lettered after its last success.
const BLOCKED = `(h.last_migrate_dead_at IS NOT NULL
  AND (h.last_migrate_success_at IS NULL OR h.last_migrate_dead_at > h.last_migrate_success_at))`;

const FROM = `FROM contexts c LEFT JOIN context_job_health h ON h.context_id = c.id`;

/** A set of Contexts as SQL, so bulk enqueueing runs in the database (a few queries per tick). */
export interface ContextSelection {
  /** `SELECT c.id ...`: one `id` column. */
  sql: string;
  binds: (string | number)[];
}

/** Contexts behind `latest` that are not blocked by a dead-lettered migration. */
export function behindContexts(latest: number): ContextSelection {
  return {
    sql: `SELECT c.id ${FROM} WHERE c.schema_version < ? AND NOT ${BLOCKED} ORDER BY c.id`,
    binds: [latest],
  };
}

/** Migration-ready Contexts: at `latest` and no dead-lettered migration since their last success. */
export function migrationReadyContexts(latest: number): ContextSelection {
  return {
    sql: `SELECT c.id ${FROM} WHERE c.schema_version = ? AND NOT ${BLOCKED} ORDER BY c.id`,
    binds: [latest],
  };
}

export interface BehindContext {
  context_id: string;
  schema_version: number;
  migration_ready: boolean;
}

export interface VersionReport {
  histogram: Record<string, number>;
  behind: BehindContext[];
}

/** Every Context's version, counted per version, and those behind. */
export async function versionReport(db: D1Database, latest: number): Promise<VersionReport> {
  const { results } = await db
    .prepare(`SELECT c.id, c.schema_version, ${BLOCKED} AS blocked ${FROM} ORDER BY c.id`)
    .all<{ id: string; schema_version: number; blocked: number }>();
  const histogram: Record<string, number> = {};
  const behind: BehindContext[] = [];
  for (const row of results) {
    const key = String(row.schema_version);
    histogram[key] = (histogram[key] ?? 0) + 1;
    if (row.schema_version < latest) {
      behind.push({
        context_id: row.id,
        schema_version: row.schema_version,
        migration_ready: row.blocked === 0,
      });
    }
  }
  return { histogram, behind };
}
