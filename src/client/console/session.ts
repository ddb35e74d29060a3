/**
 * The console's sign-in state. The key, or the OAuth access and refresh tokens, live in
 * `sessionStorage` only: never a cookie (it would travel with every request to the origin) and
 * never a URL (it would land in history, logs and Referer headers). Closing the tab forgets them.
 */
import type { WhoAmI } from './types.ts';

/** The bearer every call sends: the API key, or the OAuth access token. */
const KEY = 'engram.console.key';
/** Signed in through OAuth: the client the tokens were issued to and the refresh token. */
const OAUTH = 'engram.console.oauth';
const CONTEXT = 'engram.console.context';
/** What `GET /api/v1/whoami` said about the key at sign-in: what the frame shows about it. */
const WHO = 'engram.console.whoami';

export type KeyKind = 'management' | 'agent' | 'supervisor' | 'unknown';

/** What an OAuth sign-in keeps besides the access token, to refresh it. */
export interface OAuthGrant {
  clientId: string;
  /** Absent when the server issued none: the session then ends with the access token. */
  refreshToken: string | null;
}

export interface ConsoleSession {
  /** The bearer: an API key, or an OAuth access token. */
  key: string;
  kind: KeyKind;
  /** Set when signed in through OAuth (the bearer is then an access token). */
  oauth: OAuthGrant | null;
  /** The Context the views read; null until one is chosen (a root key is bound to none). */
  contextId: string | null;
  /** The server's account of the key, from sign-in; null when the key was put here otherwise. */
  who: WhoAmI | null;
}

/**
 * Whether the session may use the management views: a management key. An OAuth sign-in carries
 * memory scopes only, whatever its principal's kind (the API answers 403), so it may not.
 */
export function manages(session: ConsoleSession): boolean {
  return session.kind === 'management' && session.oauth === null;
}

/** A key names its kind after `mem_` (docs/security.md): the fallback when whoami is absent. */
export function keyKind(key: string): KeyKind {
  const match = /^mem_(management|agent|supervisor)_/.exec(key);
  return match?.[1] === 'management' || match?.[1] === 'agent' || match?.[1] === 'supervisor'
    ? match[1]
    : 'unknown';
}

function read(name: string): string | null {
  try {
    return sessionStorage.getItem(name);
  } catch {
    return null;
  }
}

function readOAuth(): OAuthGrant | null {
  const raw = read(OAUTH);
  if (raw === null) return null;
  try {
    // Written by this module (rememberOAuth); typed, not validated (docs/console.md).
    return JSON.parse(raw) as OAuthGrant;
  } catch {
    return null;
  }
}

function readWho(): WhoAmI | null {
  const raw = read(WHO);
  if (raw === null) return null;
  try {
    // Written by this module from the server's answer; typed, not validated (docs/console.md).
    return JSON.parse(raw) as WhoAmI;
  } catch {
    return null;
  }
}

export function currentSession(): ConsoleSession | null {
  const key = read(KEY);
  if (key === null || key === '') return null;
  const contextId = read(CONTEXT);
  const who = readWho();
  return {
    key,
    kind: who?.principal.kind ?? keyKind(key),
    oauth: readOAuth(),
    contextId: contextId === '' ? null : contextId,
    who,
  };
}

export function signIn(key: string, contextId: string | null): void {
  sessionStorage.setItem(KEY, key);
  sessionStorage.removeItem(WHO);
  sessionStorage.removeItem(OAUTH);
  if (contextId === null) sessionStorage.removeItem(CONTEXT);
  else chooseContext(contextId);
}

/** Signs in with an OAuth access token: the bearer, and what refreshing it needs. */
export function signInWithToken(accessToken: string, grant: OAuthGrant): void {
  signIn(accessToken, null);
  sessionStorage.setItem(OAUTH, JSON.stringify(grant));
}

/** A refreshed access token (and the rotated refresh token) replace the spent ones. */
export function replaceToken(accessToken: string, grant: OAuthGrant): void {
  sessionStorage.setItem(KEY, accessToken);
  sessionStorage.setItem(OAUTH, JSON.stringify(grant));
}

/** Keeps the server's account of the signed-in key (`GET /api/v1/whoami`). */
export function rememberWho(who: WhoAmI): void {
  sessionStorage.setItem(WHO, JSON.stringify(who));
}

export function chooseContext(contextId: string): void {
  sessionStorage.setItem(CONTEXT, contextId);
}

/** Everything the console keeps goes, an OAuth flow under way included. */
export function signOut(): void {
  const names: string[] = [];
  for (let i = 0; i < sessionStorage.length; i++) names.push(sessionStorage.key(i) ?? '');
  for (const name of names.filter((n) => n.startsWith('engram.console.')))
    sessionStorage.removeItem(name);
}
