/**
 * `/console/callback`: where `/authorize` sends the reader back with a one-time code. The code
 * leaves the address bar first; then it is exchanged (with this tab's PKCE verifier, after the
 * `state` check), the token's account read from `GET /api/v1/whoami` as a key's is at sign-in,
 * and the reader lands on the overview signed in, exactly as with a key.
 */
import { api } from './api.ts';
import { byId } from './dom.ts';
import { finishOAuthSignIn } from './oauth.ts';
import { chooseContext, rememberWho, signInWithToken, signOut } from './session.ts';
import { explain, say } from './status.ts';
import type { WhoAmI } from './types.ts';

const params = new URLSearchParams(location.search);
// Single use and bound to this tab's verifier, the code still has no place in history.
history.replaceState(null, '', location.pathname);

async function complete(): Promise<void> {
  const { tokens, grant } = await finishOAuthSignIn(params);
  signInWithToken(tokens.access_token, grant);
  const who = await api<WhoAmI>('/api/v1/whoami');
  rememberWho(who);
  // A token is bound to the one Context chosen on the consent page.
  if (who.context_id !== null) chooseContext(who.context_id);
  location.replace('/console');
}

complete().catch((error: unknown) => {
  signOut();
  byId('callback-note', HTMLElement).hidden = true;
  byId('callback-retry', HTMLElement).hidden = false;
  say(explain(error), 'error');
});
