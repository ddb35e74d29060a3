/**
 * `/console/keys` (management key): create principals, issue keys with per-verb grants and an
 * optional scope floor (the secret is shown once, here), look a principal up, change a key's
 * grants and revoke a key. The API lists neither keys nor principals, so the view works by id;
 * what this tab created is listed below the forms for this visit only (ids, never secrets).
 */
import { api, call } from './api.ts';
import { byId, field, fill, h } from './dom.ts';
import { startView } from './shell.ts';
import { attempt, say } from './status.ts';

interface Principal {
  id: string;
  kind: string;
  display_name: string;
  external_id?: string | null;
}

interface KeyInfo {
  id: string;
  principal_id: string;
  context_id: string | null;
  grants: Record<string, string[]>;
  scope_floor: string | null;
  key?: string;
}

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

function log(...parts: (string | HTMLElement)[]): void {
  byId('issued', HTMLElement).prepend(h('li', {}, ...parts));
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
    if (session.kind !== 'management') {
      say('Keys and principals are managed with a management key.', 'error');
      byId('console-view', HTMLElement).hidden = true;
      return;
    }
    say('Keys are looked up by id: the API lists neither keys nor principals.');
    const keyContext = byId('key-context', HTMLInputElement);
    if (session.contextId !== null) keyContext.value = session.contextId;

    onSubmit('principal-create', async (form) => {
      const p = await api<Principal>('/api/v1/principals', {
        method: 'POST',
        body: { kind: field(form, 'kind'), display_name: field(form, 'display_name') },
      });
      byId('key-principal', HTMLInputElement).value = p.id;
      log(`Principal ${p.display_name} (${p.kind}): `, h('code', {}, p.id));
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
      log(
        `Key `,
        h('code', {}, k.id),
        ` for ${k.principal_id} in ${k.context_id ?? 'every Context'}`,
      );
      say(`Issued key ${k.id}.`);
    });
    onSubmit('principal-get', async (form) => {
      const p = await api<Principal>(`/api/v1/principals/${encodeURIComponent(field(form, 'id'))}`);
      fill(byId('principal-found', HTMLElement), `${p.display_name} · ${p.kind} · ${p.id}`);
    });
    onSubmit('key-patch', async (form) => {
      const id = field(form, 'id');
      const k = await api<KeyInfo>(`/api/v1/keys/${encodeURIComponent(id)}`, {
        method: 'PATCH',
        body: { grants: grantsOf(form) },
      });
      say(`Key ${k.id} now reads ${k.grants['memory:read']?.join(', ') || 'nothing'}.`);
    });
    onSubmit('key-revoke', async (form) => {
      const id = field(form, 'id');
      if (!confirm(`Revoke key ${id}? It stops working on its next request.`)) return;
      await call(`/api/v1/keys/${encodeURIComponent(id)}`, { method: 'DELETE' });
      log(`Revoked `, h('code', {}, id));
      say(`Revoked ${id}.`);
    });
  },
  { needsContext: false },
);
