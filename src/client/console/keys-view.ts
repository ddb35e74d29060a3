/**
 * `/console/keys` (management key): the keys and principals this key may manage
 * (key-lists.ts: `GET /keys`, `GET /principals`, never a secret), create principals, issue keys
 * with per-verb grants and an optional scope floor (the secret is shown once, here), look a
 * principal up, change a key's grants and revoke a key. The lists are read again after a change.
 */
import { api, call } from './api.ts';
import { byId, field, fill, h } from './dom.ts';
import { drawKeys, drawPrincipals } from './key-lists.ts';
import { manages } from './session.ts';
import { startView } from './shell.ts';
import { attempt, say } from './status.ts';
import type { ApiKeyInfo, PrincipalInfo } from './types.ts';

type KeyInfo = ApiKeyInfo & { key?: string };

/** `team:eng, user:alice` -> `['team:eng', 'user:alice']`; empty grants nothing. */
export function paths(text: string): string[] {
  return text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

function grantsOf(form: HTMLFormElement): Record<string, string[]> {
  return {
    'memory:read': paths(field(form, 'read')),
    'memory:write': paths(field(form, 'write')),
    'memory:forget': paths(field(form, 'forget')),
  };
}

function onSubmit(id: string, run: (form: HTMLFormElement) => Promise<void>): void {
  const form = byId(id, HTMLFormElement);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void attempt(() => run(form));
  });
}

startView(
  (session) => {
    if (!manages(session)) {
      say('Keys and principals are managed with a management key.', 'error');
      byId('console-view', HTMLElement).hidden = true;
      return;
    }
    const keyContext = byId('key-context', HTMLInputElement);
    if (session.contextId !== null) keyContext.value = session.contextId;
    const usePrincipal = (p: PrincipalInfo): void => {
      const input = byId('key-principal', HTMLInputElement);
      input.value = p.id;
      input.focus();
      say(`New key for ${p.display_name}: choose its grants and issue it.`);
    };
    const revoke = (key: KeyInfo): void => {
      if (!confirm(`Revoke key ${key.id}? It stops working on its next request.`)) return;
      void attempt(async () => {
        await call(`/api/v1/keys/${encodeURIComponent(key.id)}`, { method: 'DELETE' });
        say(`Revoked ${key.id}.`);
        await redraw();
      });
    };
    const redraw = (): Promise<unknown> =>
      Promise.all([drawKeys(session.contextId, revoke), drawPrincipals(usePrincipal)]);
    void attempt(async () => {
      await redraw();
      say('Keys and principals this key may manage.');
    });

    onSubmit('principal-create', async (form) => {
      const p = await api<PrincipalInfo>('/api/v1/principals', {
        method: 'POST',
        body: { kind: field(form, 'kind'), display_name: field(form, 'display_name') },
      });
      byId('key-principal', HTMLInputElement).value = p.id;
      await drawPrincipals(usePrincipal);
      say(`Created principal ${p.id}.`);
    });
    onSubmit('key-create', async (form) => {
      const floor = field(form, 'scope_floor');
      const k = await api<KeyInfo>('/api/v1/keys', {
        method: 'POST',
        body: {
          principal_id: field(form, 'principal_id'),
          context_id: field(form, 'context_id') === '' ? null : field(form, 'context_id'),
          grants: grantsOf(form),
          ...(floor === '' ? {} : { scope_floor: floor }),
        },
      });
      fill(
        byId('secret', HTMLElement),
        h('h2', {}, 'New key: copy it now'),
        h('p', {}, 'This secret is shown once and is not kept by the console.'),
        h('p', { class: 'secret' }, h('code', { id: 'new-key' }, k.key ?? '')),
      );
      byId('secret', HTMLElement).hidden = false;
      await drawKeys(session.contextId, revoke);
      say(`Issued key ${k.id}.`);
    });
    onSubmit('principal-get', async (form) => {
      const p = await api<PrincipalInfo>(
        `/api/v1/principals/${encodeURIComponent(field(form, 'id'))}`,
      );
      fill(byId('principal-found', HTMLElement), `${p.display_name} · ${p.kind} · ${p.id}`);
    });
    onSubmit('key-patch', async (form) => {
      const id = field(form, 'id');
      const k = await api<KeyInfo>(`/api/v1/keys/${encodeURIComponent(id)}`, {
        method: 'PATCH',
        body: { grants: grantsOf(form) },
      });
      await drawKeys(session.contextId, revoke);
      say(`Key ${k.id} now reads ${k.grants['memory:read'].join(', ') || 'nothing'}.`);
    });
    onSubmit('key-revoke', async (form) => {
      const id = field(form, 'id');
      if (!confirm(`Revoke key ${id}? It stops working on its next request.`)) return;
      await call(`/api/v1/keys/${encodeURIComponent(id)}`, { method: 'DELETE' });
      await drawKeys(session.contextId, revoke);
      say(`Revoked ${id}.`);
    });
  },
  { needsContext: false },
);
