/**
 * The two lists of the keys view: keys (`GET /api/v1/keys`, the open Context's when one is open,
 * never a secret) and principals (`GET /api/v1/principals`), a page at a time with a "More"
 * button, as the server scopes them to the signed-in management key's tenant.
 */
import { api } from './api.ts';
import { byId, fill, h, when } from './dom.ts';
import { attempt } from './status.ts';
import type { ApiKeyInfo, PrincipalInfo } from './types.ts';

const PAGE = 25;

interface Page<T> {
  rows: T[];
  next_cursor: string | null;
}

/** Draws the first page into `body`, and the next one each time `more` is pressed. */
async function paged<T>(
  body: HTMLTableSectionElement,
  more: HTMLButtonElement,
  read: (cursor: string | null) => Promise<Page<T>>,
  row: (item: T) => HTMLElement,
  empty: string,
  columns: number,
): Promise<void> {
  const first = await read(null);
  fill(
    body,
    ...(first.rows.length > 0
      ? first.rows.map(row)
      : [h('tr', {}, h('td', { colspan: columns }, empty))]),
  );
  let cursor = first.next_cursor;
  more.hidden = cursor === null;
  more.onclick = () => {
    const after = cursor;
    if (after === null) return;
    void attempt(async () => {
      const page = await read(after);
      body.append(...page.rows.map(row));
      cursor = page.next_cursor;
      more.hidden = cursor === null;
    });
  };
}

function grantText(key: ApiKeyInfo): string {
  const part = (verb: string, paths: string[]) =>
    paths.length === 0 ? null : `${verb} ${paths.join(', ')}`;
  const parts = [
    part('read', key.grants['memory:read']),
    part('write', key.grants['memory:write']),
    part('forget', key.grants['memory:forget']),
  ].filter((p): p is string => p !== null);
  const floor = key.scope_floor === null ? '' : ` · floor ${key.scope_floor}`;
  return `${parts.length === 0 ? 'nothing' : parts.join(' · ')}${floor}`;
}

export async function drawKeys(
  contextId: string | null,
  revoke: (key: ApiKeyInfo) => void,
): Promise<void> {
  fill(
    byId('keys-scope', HTMLElement),
    contextId === null
      ? 'Every key this management key may manage (no Context open).'
      : `Keys of Context ${contextId}.`,
  );
  await paged<ApiKeyInfo>(
    byId('key-rows', HTMLTableSectionElement),
    byId('more-keys', HTMLButtonElement),
    async (cursor) => {
      const page = await api<{ keys: ApiKeyInfo[]; next_cursor: string | null }>('/api/v1/keys', {
        query: { limit: PAGE, cursor: cursor ?? undefined, context_id: contextId ?? undefined },
      });
      return { rows: page.keys, next_cursor: page.next_cursor };
    },
    (key) => {
      const button = h('button', { type: 'button' }, 'Revoke');
      button.setAttribute('aria-label', `Revoke ${key.id}`);
      button.addEventListener('click', () => revoke(key));
      return h(
        'tr',
        { 'data-key-id': key.id },
        h('th', { scope: 'row' }, h('code', {}, key.id), ' ', h('code', {}, `${key.prefix}…`)),
        h('td', {}, `${key.kind} · `, h('code', {}, key.principal_id)),
        h('td', {}, key.context_id ?? 'every Context'),
        h('td', {}, grantText(key)),
        h('td', {}, when(key.created_at)),
        h('td', {}, button),
      );
    },
    'No key yet.',
    6,
  );
}

export async function drawPrincipals(use: (principal: PrincipalInfo) => void): Promise<void> {
  await paged<PrincipalInfo>(
    byId('principal-rows', HTMLTableSectionElement),
    byId('more-principals', HTMLButtonElement),
    async (cursor) => {
      const page = await api<{ principals: PrincipalInfo[]; next_cursor: string | null }>(
        '/api/v1/principals',
        { query: { limit: PAGE, cursor: cursor ?? undefined } },
      );
      return { rows: page.principals, next_cursor: page.next_cursor };
    },
    (principal) => {
      const button = h('button', { type: 'button' }, 'Use for a new key');
      button.setAttribute('aria-label', `Use for a new key: ${principal.display_name}`);
      button.addEventListener('click', () => use(principal));
      return h(
        'tr',
        { 'data-principal-id': principal.id },
        h('th', { scope: 'row' }, principal.display_name, ' ', h('code', {}, principal.id)),
        h('td', {}, principal.kind),
        h('td', {}, principal.owner_context_id ?? 'deployment'),
        h('td', {}, when(principal.created_at)),
        h('td', {}, button),
      );
    },
    'No principal yet.',
    5,
  );
}
