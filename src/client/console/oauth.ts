/**
 * Sign-in through this origin's OAuth 2.1 flow, as a public client: Authorization Code with PKCE
 * (S256). The console registers itself by dynamic client registration (`POST /oauth/register`,
 * no secret) and sends the reader to `/authorize`, whose consent page asks for their key once and
 * for what to grant; `/console/callback` exchanges the one-time code. The verifier, the state and
 * the tokens stay in `sessionStorage`; only the code ever travels in a URL (docs/console.md).
 */
import type { OAuthGrant } from './session.ts';
import { currentSession, replaceToken } from './session.ts';

const PENDING = 'engram.console.oauth-pending';
export const CALLBACK_PATH = '/console/callback';
/** What the console asks for; the consent page decides what it gets (at most the key's grant). */
const SCOPE = 'memory:read memory:write memory:forget';

/** One flow under way: what the callback checks and the exchange needs. */
interface PendingFlow {
  state: string;
  verifier: string;
  clientId: string;
  redirectUri: string;
}

export interface TokenResponse {
  access_token: string;
  refresh_token?: string;
}

function base64url(bytes: Uint8Array): string {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function randomString(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

async function challengeOf(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

/** The protected resource every token is bound to: the origin itself (docs/mcp.md). */
function resource(): string {
  return `${location.origin}/`;
}

/** What the authorization server said, in its words (RFC 6749 §5.2, RFC 7591 §3.2.2). */
async function oauthFailure(res: Response, what: string): Promise<Error> {
  const body: unknown = await res.json().catch(() => null);
  const described =
    typeof body === 'object' && body !== null && 'error_description' in body
      ? String(body.error_description)
      : `HTTP ${res.status}`;
  return new Error(`${what} failed: ${described}`);
}

async function registerClient(redirectUri: string): Promise<string> {
  const res = await fetch('/oauth/register', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Engram console',
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    }),
    credentials: 'omit',
    cache: 'no-store',
  });
  if (!res.ok) throw await oauthFailure(res, 'Registering the console as an OAuth client');
  const client = (await res.json()) as { client_id: string };
  return client.client_id;
}

/** Registers the console, keeps the flow's secrets in the tab, and leaves for `/authorize`. */
export async function startOAuthSignIn(): Promise<void> {
  const redirectUri = `${location.origin}${CALLBACK_PATH}`;
  const clientId = await registerClient(redirectUri);
  const flow: PendingFlow = {
    state: randomString(),
    verifier: randomString(),
    clientId,
    redirectUri,
  };
  sessionStorage.setItem(PENDING, JSON.stringify(flow));
  const params = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope: SCOPE,
    state: flow.state,
    code_challenge: await challengeOf(flow.verifier),
    code_challenge_method: 'S256',
    resource: resource(),
  });
  location.assign(`/authorize?${params}`);
}

/** The flow this tab started, read once: a code can be exchanged a single time. */
function takePendingFlow(): PendingFlow | null {
  const raw = sessionStorage.getItem(PENDING);
  sessionStorage.removeItem(PENDING);
  if (raw === null) return null;
  try {
    // Written by startOAuthSignIn in this tab; typed, not validated (docs/console.md).
    return JSON.parse(raw) as PendingFlow;
  } catch {
    return null;
  }
}

async function tokenRequest(form: Record<string, string>, what: string): Promise<TokenResponse> {
  const res = await fetch('/oauth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
    credentials: 'omit',
    cache: 'no-store',
  });
  if (!res.ok) throw await oauthFailure(res, what);
  return (await res.json()) as TokenResponse;
}

/**
 * The callback's half: checks `state` against the flow this tab started and exchanges the code
 * with its verifier. Returns the tokens and the client they were issued to.
 */
export async function finishOAuthSignIn(
  params: URLSearchParams,
): Promise<{ tokens: TokenResponse; grant: OAuthGrant }> {
  const flow = takePendingFlow();
  const refused = params.get('error');
  if (refused !== null) {
    const why = params.get('error_description') ?? refused;
    throw new Error(`Sign-in was not granted: ${why}`);
  }
  const code = params.get('code');
  if (flow === null || code === null || params.get('state') !== flow.state) {
    throw new Error('This sign-in was not started in this tab (or was already used). Start again.');
  }
  const tokens = await tokenRequest(
    {
      grant_type: 'authorization_code',
      code,
      redirect_uri: flow.redirectUri,
      client_id: flow.clientId,
      code_verifier: flow.verifier,
      resource: resource(),
    },
    'Exchanging the sign-in code',
  );
  return { tokens, grant: { clientId: flow.clientId, refreshToken: tokens.refresh_token ?? null } };
}

let refreshing: Promise<boolean> | null = null;

async function refreshOnce(): Promise<boolean> {
  const grant = currentSession()?.oauth;
  if (!grant?.refreshToken) return false;
  try {
    const tokens = await tokenRequest(
      {
        grant_type: 'refresh_token',
        refresh_token: grant.refreshToken,
        client_id: grant.clientId,
        resource: resource(),
      },
      'Refreshing the access token',
    );
    replaceToken(tokens.access_token, {
      clientId: grant.clientId,
      refreshToken: tokens.refresh_token ?? null,
    });
    return true;
  } catch {
    return false;
  }
}

/**
 * A new access token from the refresh token, once however many calls asked at the same time:
 * the server revokes the whole grant when a spent refresh token comes back (oauth/refresh-guard).
 */
export function refreshAccessToken(): Promise<boolean> {
  refreshing ??= refreshOnce().finally(() => {
    refreshing = null;
  });
  return refreshing;
}
