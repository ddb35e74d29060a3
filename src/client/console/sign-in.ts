/**
 * `/console`: sign in with a key, then an overview of the chosen Context. The key is checked
 * against the API before it is kept: with a Context id, by reading that Context (any key of it
 * may); without one, by the root-only migration report (only a root management key may skip
 * the Context).
 */
import { api } from './api.ts';
import { byId, field, fill, h, when } from './dom.ts';
import { currentSession, keyKind, signIn, signOut } from './session.ts';
import { refreshHeader } from './shell.ts';
import { attempt, explain, say } from './status.ts';
import type { ContextInfo } from './types.ts';

const form = byId('sign-in', HTMLFormElement);

async function check(key: string, contextId: string | null): Promise<void> {
  signIn(key, contextId);
  try {
    if (contextId !== null)
      await api<ContextInfo>(`/api/v1/contexts/${encodeURIComponent(contextId)}`);
    else await api('/api/v1/migrations');
  } catch (error) {
    signOut();
    throw error;
  }
}

function usageRows(info: ContextInfo): HTMLElement {
  const u = info.usage;
  const rows: [string, string | number | HTMLElement][] = [
    ['Schema version', info.schema_version],
    ['Facts', u.facts],
    ['Document chunks', u.chunks],
    ['Reflections', u.reflections],
    ['Sessions', u.sessions],
    ['Turns', u.turns],
    ['Model tokens used', u.llm_tokens],
    ['Token limit', info.token_limit ?? 'none'],
    ['Created', when(info.created_at)],
  ];
  return h(
    'table',
    {},
    h('caption', {}, `Context ${info.id}`),
    h(
      'tbody',
      {},
      ...rows.map(([k, v]) => h('tr', {}, h('th', { scope: 'row' }, k), h('td', {}, v))),
    ),
  );
}

async function showOverview(): Promise<void> {
  const session = currentSession();
  const overview = byId('overview', HTMLElement);
  form.hidden = session !== null;
  overview.hidden = session === null;
  if (session === null) return;
  const body = byId('overview-body', HTMLElement);
  if (session.contextId === null) {
    fill(
      body,
      h(
        'p',
        {},
        'Signed in with a root management key. Open a Context in the header, or create one under Contexts.',
      ),
    );
    return;
  }
  const contextId = session.contextId;
  await attempt(async () => {
    const info = await api<ContextInfo>(`/api/v1/contexts/${encodeURIComponent(contextId)}`);
    fill(body, usageRows(info));
    say(`Signed in. Context ${contextId} is open.`);
  });
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const key = field(form, 'key');
  const contextId = field(form, 'context');
  if (keyKind(key) !== 'management' && contextId === '') {
    say('An agent or supervisor key belongs to one Context: enter its id too.', 'error');
    return;
  }
  void (async () => {
    try {
      await check(key, contextId === '' ? null : contextId);
      form.reset();
      refreshHeader();
      await showOverview();
    } catch (error) {
      say(explain(error), 'error');
    }
  })();
});

void showOverview();
