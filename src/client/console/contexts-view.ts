/**
 * `/console/contexts` (management key): create a Context (root key), and for each Context this tab
 * knows its usage, schema version, migration state and an export (NDJSON backup). The API has no
 * route that lists Contexts, so the table holds the ones opened or created here.
 */
import { api, ApiError, call } from './api.ts';
import { saveAs } from './download.ts';
import { byId, field, fill, h, when } from './dom.ts';
import { chooseContext, knownContexts, rememberContext, type ConsoleSession } from './session.ts';
import { refreshHeader, startView } from './shell.ts';
import { attempt, say } from './status.ts';
import type { ContextInfo, Migrations } from './types.ts';

const contextPath = (id: string) => `/api/v1/contexts/${encodeURIComponent(id)}`;

function migrationState(info: ContextInfo, report: Migrations | null): string {
  if (report === null) return `v${info.schema_version}`;
  const behind = report.behind.find((b) => b.context_id === info.id);
  if (behind === undefined)
    return `v${info.schema_version} · up to date (latest v${report.latest_version})`;
  return `v${info.schema_version} · behind v${report.latest_version}${behind.migration_ready ? ', migration ready' : ''}`;
}

function contextRow(info: ContextInfo, report: Migrations | null): HTMLElement {
  const open = h('button', { type: 'button' }, 'Open');
  open.setAttribute('aria-label', `Open ${info.id}`);
  open.addEventListener('click', () => {
    chooseContext(info.id);
    location.assign('/console');
  });
  const exporter = h('button', { type: 'button' }, 'Export');
  exporter.setAttribute('aria-label', `Export ${info.id}`);
  exporter.addEventListener('click', () => {
    void attempt(async () => {
      const res = await call(`${contextPath(info.id)}/export`);
      const bytes = await saveAs(res, `${info.id}.ndjson`);
      say(
        `Exported ${info.id}: ${bytes} bytes of NDJSON (document files: GET .../export/blobs/{sha256}).`,
      );
    });
  });
  const u = info.usage;
  return h(
    'tr',
    { 'data-context-id': info.id },
    h('th', { scope: 'row' }, info.id),
    h(
      'td',
      {},
      `${u.facts} facts · ${u.chunks} chunks · ${u.sessions} sessions · ${u.turns} turns`,
    ),
    h('td', {}, String(u.llm_tokens), info.token_limit === null ? '' : ` / ${info.token_limit}`),
    h('td', {}, migrationState(info, report)),
    h('td', {}, when(info.created_at)),
    h('td', {}, h('div', { class: 'row-actions' }, open, exporter)),
  );
}

async function draw(session: ConsoleSession): Promise<void> {
  const report = await api<Migrations>('/api/v1/migrations').catch((error: unknown) => {
    // A Context-bound key may not read the rollout (403): the schema version alone is shown.
    if (error instanceof ApiError && error.status === 403) return null;
    throw error;
  });
  // The rollout names the Contexts behind the latest schema and those with dead letters: a root
  // key sees those too, beside the ones this tab opened.
  const fromRollout = [
    ...(report?.behind.map((b) => b.context_id) ?? []),
    ...(report?.dlq.map((d) => d.context_id) ?? []),
  ];
  const ids = [
    ...new Set([
      ...(session.contextId ? [session.contextId] : []),
      ...knownContexts(),
      ...fromRollout,
    ]),
  ];
  const infos = await Promise.all(
    ids.map((id) => api<ContextInfo>(contextPath(id)).catch(() => null)),
  );
  const rows = infos.filter((i): i is ContextInfo => i !== null).map((i) => contextRow(i, report));
  say(
    `${rows.length} Context(s): opened or created in this tab, or named by the rollout (the API lists none).`,
  );
  fill(
    byId('context-rows', HTMLTableSectionElement),
    ...(rows.length > 0 ? rows : [h('tr', {}, h('td', { colspan: 6 }, 'No Context opened yet.'))]),
  );
}

startView(
  (session) => {
    if (session.kind !== 'management') {
      say('Contexts are managed with a management key.', 'error');
      byId('console-view', HTMLElement).hidden = true;
      return;
    }
    const form = byId('context-create', HTMLFormElement);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const id = field(form, 'id');
      const limit = field(form, 'token_limit');
      void attempt(async () => {
        await api<ContextInfo>('/api/v1/contexts', {
          method: 'POST',
          body: { id, ...(limit === '' ? {} : { token_limit: Number(limit) }) },
        });
        rememberContext(id);
        refreshHeader();
        form.reset();
        say(`Created Context ${id}.`);
        await draw(session);
      });
    });
    void attempt(() => draw(session));
  },
  { needsContext: false },
);
