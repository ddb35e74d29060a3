import { env } from 'cloudflare:test';
import { expect } from 'vitest';
import { runSchedulerTick } from '../../../functions/memory/jobs/scheduled.ts';
import { api, CapturingQueue, deliver, fakeEnv } from './helpers.ts';

/** Shared by the scheduled-backup suites: the setting, R2 listings and one scheduler tick. */

export const HOUR = 3_600_000;

export function patchContext(ctx: string, body: unknown): Promise<Response> {
  return api(`/api/v1/contexts/${ctx}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** Every R2 key under `prefix`, sorted. */
export async function r2Keys(prefix: string): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await env.BLOBS.list({ prefix, cursor });
    out.push(...page.objects.map((o) => o.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor !== undefined);
  return out.sort();
}

/** The export keys (`.ndjson`) of a Context's scheduled backups, oldest first. */
export async function backupExports(ctx: string): Promise<string[]> {
  return (await r2Keys(`backups/${ctx}/`)).filter((k) => k.endsWith('.ndjson'));
}

/** Runs one tick at `time` and delivers this Context's backup jobs; returns how many ran. */
export async function backupTick(ctx: string, time: number): Promise<number> {
  const queue = new CapturingQueue();
  const report = await runSchedulerTick(fakeEnv(queue), time, []);
  const mine = queue.sent.filter(
    (m) =>
      (m as { kind: string; context_id: string }).kind === 'context_backup' &&
      (m as { context_id: string }).context_id === ctx,
  );
  expect(report.backups.length).toBeGreaterThanOrEqual(mine.length);
  if (mine.length > 0) await deliver('memory-jobs', mine);
  // Distinct millisecond timestamps for the backup keys of consecutive ticks.
  await new Promise((r) => setTimeout(r, 5));
  return mine.length;
}
