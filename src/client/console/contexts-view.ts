/**
 * `/console/contexts` (management key): the Contexts the key administers (`GET /contexts`, a page
 * at a time) and any created here; for each, its usage, schema version, migration state, its
 * scheduled backups to R2 (`PATCH /contexts/{id}` `backup`) and an export (the NDJSON backup).
 */
import { api, ApiError, call } from './api.ts';
import { saveAs } from './download.ts';
import { byId, field, fill, h, when } from './dom.ts';
import { chooseContext, manages, type ConsoleSession } from './session.ts';
import { refreshHeader, startView } from './shell.ts';
import { attempt, say } from './status.ts';
import type { BackupSetting, ContextInfo, ContextPage, Migrations } from './types.ts';

const contextPath = (id: string) => `/api/v1/contexts/${encodeURIComponent(id)}`;

function migrationState(info: ContextInfo, report: Migrations | null): string {
  if (report === null) return `v${info.schema_version}`;
  const behind = report.behind.find((b) => b.context_id === info.id);
  if (behind === undefined)
    return `v${info.schema_version} · up to date (latest v${report.latest_version})`;
  return `v${info.schema_version} · behind v${report.latest_version}${behind.migration_ready ? ', migration ready' : ''}`;
}

function backupText(backup: BackupSetting | null): string {
  return backup === null ? 'off' : `every ${backup.every_hours} h, keep ${backup.keep}`;
}

/**
 * The row's scheduled backups: what is set, and a form in a disclosure to set or turn them off.
 * The server checks the numbers (422 names the rule); the inputs' bounds only guide the reader.
 */
function backupCell(info: ContextInfo): HTMLElement {
  const shown = h('span', { 'data-backup': info.id }, backupText(info.backup));
  const hours = h('input', {
    type: 'number',
    name: 'every_hours',
    min: 1,
    max: 8760,
    required: true,
    value: info.backup?.every_hours ?? 24,
  });
  const keep = h('input', {
    type: 'number',
    name: 'keep',
    min: 1,
    max: 1000,
    required: true,
    value: info.backup?.keep ?? 7,
  });
  const off = h('button', { type: 'button' }, 'Turn off');
  const form = h(
    'form',
    { class: 'backup-form' },
    h('label', {}, 'Every (hours) ', hours),
    h('label', {}, 'Keep ', keep),
    h('div', { class: 'row-actions' }, h('button', { type: 'submit' }, 'Save'), off),
  );
  const save = (backup: BackupSetting | null): void => {
    void attempt(async () => {
      const updated = await api<ContextInfo>(contextPath(info.id), {
        method: 'PATCH',
        body: { backup },
      });
      shown.textContent = backupText(updated.backup);
      say(`Backups of ${info.id}: ${backupText(updated.backup)}.`);
    });
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    save({ every_hours: Number(hours.value), keep: Number(keep.value) });
  });
  off.addEventListener('click', () => save(null));
  const summary = h('summary', {}, 'Set');
  summary.setAttribute('aria-label', `Set backups of ${info.id}`);
  return h('td', {}, shown, h('details', {}, summary, form));
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
      `${u.facts} facts · ${u.documents} documents (${u.chunks} chunks) · ${u.sessions} sessions · ${u.turns} turns`,
    ),
    h('td', {}, String(u.llm_tokens), info.token_limit === null ? '' : ` / ${info.token_limit}`),
    h('td', {}, migrationState(info, report)),
    backupCell(info),
    h('td', {}, when(info.created_at)),
    h('td', {}, h('div', { class: 'row-actions' }, open, exporter)),
  );
}

/** Rows a page of the list adds; each row reads its Context's usage (one call per row). */
const PAGE = 20;

interface Listing {
  report: Migrations | null;
  /** Ids drawn so far, so a pinned Context is not drawn twice. */
  shown: Set<string>;
  cursor: string | null;
}

async function rows(ids: readonly string[], listing: Listing): Promise<HTMLElement[]> {
  const fresh = ids.filter((id) => !listing.shown.has(id));
  for (const id of fresh) listing.shown.add(id);
  // Usage lives in each Context's own database: the list leaves it out, each row asks for it.
  const infos = await Promise.all(
    fresh.map((id) => api<ContextInfo>(contextPath(id)).catch(() => null)),
  );
  return infos
    .filter((i): i is ContextInfo => i !== null)
    .map((i) => contextRow(i, listing.report));
}

/** The next page of `GET /contexts` after `listing.cursor` (the first page when it is null). */
async function nextPage(listing: Listing): Promise<HTMLElement[]> {
  const page = await api<ContextPage>('/api/v1/contexts', {
    query: { limit: PAGE, cursor: listing.cursor ?? undefined },
  });
  listing.cursor = page.next_cursor;
  return rows(
    page.contexts.map((c) => c.id),
    listing,
  );
}

async function draw(session: ConsoleSession, pinned: readonly string[]): Promise<void> {
  const report = await api<Migrations>('/api/v1/migrations').catch((error: unknown) => {
    // A Context-bound key may not read the rollout (403): the schema version alone is shown.
    if (error instanceof ApiError && error.status === 403) return null;
    throw error;
  });
  const listing: Listing = { report, shown: new Set(), cursor: null };
  const body = byId('context-rows', HTMLTableSectionElement);
  const more = byId('more-contexts', HTMLButtonElement);
  const top = await rows([...pinned, ...(session.contextId ? [session.contextId] : [])], listing);
  const first = await nextPage(listing);
  fill(
    body,
    ...(top.length + first.length > 0
      ? [...top, ...first]
      : [h('tr', {}, h('td', { colspan: 7 }, 'No Context yet.'))]),
  );
  const tell = (): void => {
    more.hidden = listing.cursor === null;
    say(
      `${listing.shown.size} Context(s) shown${listing.cursor === null ? '' : '; more with “More Contexts”'}.`,
    );
  };
  more.onclick = () => {
    void attempt(async () => {
      body.append(...(await nextPage(listing)));
      tell();
    });
  };
  tell();
}

startView(
  (session) => {
    if (!manages(session)) {
      say('Contexts are managed with a management key.', 'error');
      byId('console-view', HTMLElement).hidden = true;
      return;
    }
    const form = byId('context-create', HTMLFormElement);
    // Created in this visit: pinned at the top, wherever their ids fall in the pages.
    const created: string[] = [];
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const id = field(form, 'id');
      const limit = field(form, 'token_limit');
      void attempt(async () => {
        await api<ContextInfo>('/api/v1/contexts', {
          method: 'POST',
          body: { id, ...(limit === '' ? {} : { token_limit: Number(limit) }) },
        });
        created.unshift(id);
        refreshHeader();
        form.reset();
        await draw(session, created);
        say(`Created Context ${id}.`);
      });
    });
    void attempt(() => draw(session, created));
  },
  { needsContext: false },
);
