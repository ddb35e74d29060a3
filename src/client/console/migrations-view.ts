/**
 * `/console/migrations` (root management key): the code's latest per-Context schema version, how
 * many Contexts sit at each version, the Contexts still behind, and the dead-letter queue with a
 * retry per entry (`POST /migrations/dlq/{id}/retry`).
 */
import { api } from './api.ts';
import { byId, fill, h, when } from './dom.ts';
import { manages } from './session.ts';
import { startView } from './shell.ts';
import { attempt, say } from './status.ts';
import type { Migrations } from './types.ts';

function dlqRow(entry: Migrations['dlq'][number], redraw: () => void): HTMLElement {
  const retry = h('button', { type: 'button' }, 'Retry');
  retry.setAttribute('aria-label', `Retry ${entry.kind} job of ${entry.context_id}`);
  retry.disabled = entry.retried_at !== null;
  retry.addEventListener('click', () => {
    void attempt(async () => {
      const res = await api<{ job_id: string }>(
        `/api/v1/migrations/dlq/${encodeURIComponent(entry.id)}/retry`,
        { method: 'POST' },
      );
      say(`Re-enqueued as job ${res.job_id}.`);
      redraw();
    });
  });
  return h(
    'tr',
    {},
    h('th', { scope: 'row' }, entry.context_id),
    h('td', {}, entry.kind),
    h('td', {}, entry.error),
    h('td', {}, String(entry.attempts)),
    h('td', {}, when(entry.recorded_at)),
    h('td', {}, entry.retried_at ? h('span', {}, 'retried ', when(entry.retried_at)) : retry),
  );
}

async function draw(): Promise<void> {
  const report = await api<Migrations>('/api/v1/migrations');
  const histogram = Object.entries(report.histogram)
    .map(([version, count]) => `v${version}: ${count}`)
    .join(' · ');
  fill(
    byId('rollout', HTMLElement),
    h(
      'p',
      {},
      `Latest schema version: v${report.latest_version}. Contexts per version: ${histogram || 'none'}.`,
    ),
    report.behind.length === 0
      ? h('p', {}, 'Every Context is on the latest version.')
      : h(
          'ul',
          {},
          ...report.behind.map((b) =>
            h(
              'li',
              {},
              `${b.context_id}: v${b.schema_version}${b.migration_ready ? ' (migration ready)' : ''}`,
            ),
          ),
        ),
  );
  const redraw = () => void attempt(draw);
  fill(
    byId('dlq-rows', HTMLTableSectionElement),
    ...(report.dlq.length > 0
      ? report.dlq.map((e) => dlqRow(e, redraw))
      : [h('tr', {}, h('td', { colspan: 6 }, 'The dead-letter queue is empty.'))]),
  );
  say(`${report.behind.length} Context(s) behind, ${report.dlq.length} dead letter(s).`);
}

startView(
  (session) => {
    if (!manages(session)) {
      say('The rollout is visible to a root management key only.', 'error');
      byId('console-view', HTMLElement).hidden = true;
      return;
    }
    void attempt(draw);
  },
  { needsContext: false },
);
