/**
 * The frame around every console view: who is signed in, which Context the views read, the
 * Context picker and sign-out. A view page opened without a key sends the reader to sign in.
 */
import { byId, fill, h } from './dom.ts';
import {
  chooseContext,
  currentSession,
  knownContexts,
  signOut,
  type ConsoleSession,
} from './session.ts';
import { say } from './status.ts';

const SIGN_IN_PATH = '/console';

function paintHeader(session: ConsoleSession | null): void {
  const who = document.getElementById('console-who');
  if (who) {
    fill(
      who,
      session === null
        ? 'Not signed in'
        : `${session.kind} key · ${session.contextId === null ? 'no Context chosen' : session.contextId}`,
    );
  }
  // Hidden by visibility, not removed: the header keeps its height, so nothing below it shifts.
  document.body.dataset.session = session === null ? 'none' : session.kind;
  const list = document.getElementById('known-contexts');
  if (list) fill(list, ...knownContexts().map((id) => h('option', { value: id })));
  const input = document.getElementById('context-input');
  if (input instanceof HTMLInputElement && session?.contextId) input.value = session.contextId;
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
