/**
 * `/console`: sign in with a key, or through OAuth (oauth.ts), then an overview of what the key
 * may do and of the chosen Context. The key is checked against the API before it is kept:
 * `GET /api/v1/whoami` (any valid key) says who it is, which Context it is bound to and what it
 * may read and write; a Context id typed in is then opened with it (`GET /contexts/{id}`), which
 * any key of that Context may do.
 */
import { api } from './api.ts';
import { byId, field, fill, h, when } from './dom.ts';
import { startOAuthSignIn } from './oauth.ts';
import { currentSession, rememberWho, signIn, signOut } from './session.ts';
import { refreshHeader } from './shell.ts';
import { attempt, explain, say } from './status.ts';
import type { ContextInfo, WhoAmI } from './types.ts';

const form = byId('sign-in', HTMLFormElement);
const oauth = byId('oauth-sign-in', HTMLElement);

async function check(key: string, typed: string | null): Promise<void> {
  signIn(key, typed);
  try {
    const who = await api<WhoAmI>('/api/v1/whoami');
    // A key bound to one Context opens it without being told; a typed id is checked by reading it.
    const contextId = typed ?? who.context_id;
    signIn(key, contextId);
    rememberWho(who);
    if (contextId !== null)
      await api<ContextInfo>(`/api/v1/contexts/${encodeURIComponent(contextId)}`);
  } catch (error) {
    signOut();
    throw error;
  }
}

/** What the key may do, in the server's words (`GET /api/v1/whoami`). */
function keyRows(who: WhoAmI): HTMLElement {
  const paths = (list: string[]) => (list.length === 0 ? 'nothing' : list.join(', '));
  const rows: [string, string][] = [
    ['Principal', `${who.principal.display_name} (${who.principal.kind})`],
    // An OAuth grant is `oauth:<id of the key consented with>` (docs/console.md).
    [
      'Key',
      who.key_id.startsWith('oauth:') ? `OAuth token from ${who.key_id.slice(6)}` : who.key_id,
    ],
    ['Contexts', who.context_id === null ? 'every Context (root management key)' : who.context_id],
    ['May read', paths(who.grants['memory:read'])],
    ['May write', paths(who.grants['memory:write'])],
    ['May forget', paths(who.grants['memory:forget'])],
    ['Scope floor', who.scope_floor ?? 'none'],
  ];
  return h(
    'table',
    { id: 'key-facts' },
    h('caption', {}, 'This key'),
    h(
      'tbody',
      {},
      ...rows.map(([k, v]) => h('tr', {}, h('th', { scope: 'row' }, k), h('td', {}, v))),
    ),
  );
}

function usageRows(info: ContextInfo): HTMLElement {
  const u = info.usage;
  const rows: [string, string | number | HTMLElement][] = [
    ['Schema version', info.schema_version],
    ['Facts', u.facts],
    ['Documents', u.documents],
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
  oauth.hidden = session !== null;
  overview.hidden = session === null;
  if (session === null) return;
  const body = byId('overview-body', HTMLElement);
  const about = session.who === null ? null : keyRows(session.who);
  if (session.contextId === null) {
    fill(
      body,
      about,
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
    fill(body, usageRows(info), about);
    say(`Signed in. Context ${contextId} is open.`);
  });
}

function readForm(): { key: string; contextId: string | null } {
  const contextId = field(form, 'context');
  return { key: field(form, 'key'), contextId: contextId === '' ? null : contextId };
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const { key, contextId } = readForm();
  void (async () => {
    try {
      await check(key, contextId);
      form.reset();
      refreshHeader();
      await showOverview();
    } catch (error) {
      say(explain(error), 'error');
    }
  })();
});

byId('oauth-start', HTMLButtonElement).addEventListener('click', () => {
  say('Opening the consent page…');
  startOAuthSignIn().catch((error: unknown) => say(explain(error), 'error'));
});

void showOverview();
