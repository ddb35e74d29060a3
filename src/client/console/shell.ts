/**
 * The frame around every console view: who is signed in, which Context the views read, the
 * Context picker and sign-out. A view page opened without a key sends the reader to sign in.
 */
import { api } from './api.ts';
import { byId, fill, h } from './dom.ts';
import { chooseContext, currentSession, manages, signOut, type ConsoleSession } from './session.ts';
import { say } from './status.ts';
import type { ContextPage } from './types.ts';

const SIGN_IN_PATH = '/console';
/** Context ids the picker offers: the first page of `GET /contexts`, enough to pick from. */
const PICKER_SIZE = 100;

/**
 * The Contexts the key may open: those `GET /api/v1/contexts` lists for a management key (all for
 * a root key, its own for a bound one), the one an agent or supervisor key is bound to.
 */
async function openableContexts(session: ConsoleSession): Promise<string[]> {
  // An OAuth token is bound to one Context and manages nothing, whatever its principal's kind.
  if (!manages(session)) {
    const bound = session.who?.context_id ?? session.contextId;
    return bound === null ? [] : [bound];
  }
  const page = await api<ContextPage>('/api/v1/contexts', { query: { limit: PICKER_SIZE } });
  return page.contexts.map((c) => c.id);
}

/** `agent key`, or `agent via OAuth` when the bearer is an access token standing for one. */
function credentialLabel(session: ConsoleSession): string {
  return session.oauth === null ? `${session.kind} key` : `${session.kind} via OAuth`;
}

function paintHeader(session: ConsoleSession | null): void {
  const who = document.getElementById('console-who');
  if (who) {
    const name = session?.who ? ` (${session.who.principal.display_name})` : '';
    const text =
      session === null
        ? 'Not signed in'
        : `${credentialLabel(session)}${name} · ${session.contextId === null ? 'no Context chosen' : session.contextId}`;
    fill(who, text);
    // The line is cut with an ellipsis when it is too long (console.css): the whole of it on hover.
    who.title = text;
  }
  // Hidden by visibility, not removed: the header keeps its height, so nothing below it shifts.
  document.body.dataset.session = session === null ? 'none' : session.kind;
  const input = document.getElementById('context-input');
  if (input instanceof HTMLInputElement && session?.contextId) input.value = session.contextId;
  const list = document.getElementById('known-contexts');
  if (list === null || session === null) return;
  // The picker is a convenience: a failure leaves it empty and the field still takes any id.
  void openableContexts(session)
    .then((ids) => fill(list, ...ids.map((id) => h('option', { value: id }))))
    .catch(() => undefined);
}

function wireHeader(): void {
  const picker = document.getElementById('context-form');
  picker?.addEventListener('submit', (event) => {
    event.preventDefault();
    const value = byId('context-input', HTMLInputElement).value.trim();
    if (value === '') return;
    chooseContext(value);
    location.reload();
  });
  document.getElementById('sign-out')?.addEventListener('click', () => {
    signOut();
    location.assign(SIGN_IN_PATH);
  });
}

wireHeader();
paintHeader(currentSession());

/**
 * Starts a view once a key is present. `needsContext` views (everything inside one Context) ask
 * for a Context first when none is chosen.
 */
export function startView(
  run: (session: ConsoleSession, contextId: string) => void | Promise<void>,
  options: { needsContext: boolean } = { needsContext: true },
): void {
  const session = currentSession();
  if (session === null) {
    location.replace(SIGN_IN_PATH);
    return;
  }
  const view = document.getElementById('console-view');
  if (options.needsContext && session.contextId === null) {
    say('Choose a Context in the header (type its id and press Open) to see its memory.');
    if (view) view.hidden = true;
    return;
  }
  void run(session, session.contextId ?? '');
}

export function refreshHeader(): void {
  paintHeader(currentSession());
}
