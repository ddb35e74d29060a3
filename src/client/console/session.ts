/**
 * The console's sign-in state. The key lives in `sessionStorage` only: never a cookie (it would
 * travel with every request to the origin) and never a URL (it would land in history, logs and
 * Referer headers). Closing the tab forgets it.
 */
import type { WhoAmI } from './types.ts';

const KEY = 'engram.console.key';
const CONTEXT = 'engram.console.context';
/** What `GET /api/v1/whoami` said about the key at sign-in: what the frame shows about it. */
const WHO = 'engram.console.whoami';

export type KeyKind = 'management' | 'agent' | 'supervisor' | 'unknown';

export interface ConsoleSession {
  key: string;
  kind: KeyKind;
  /** The Context the views read; null until one is chosen (a root key is bound to none). */
  contextId: string | null;
  /** The server's account of the key, from sign-in; null when the key was put here otherwise. */
  who: WhoAmI | null;
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
    contextId: contextId === '' ? null : contextId,
    who,
  };
}

export function signIn(key: string, contextId: string | null): void {
  sessionStorage.setItem(KEY, key);
  sessionStorage.removeItem(WHO);
  if (contextId === null) sessionStorage.removeItem(CONTEXT);
  else chooseContext(contextId);
}

/** Keeps the server's account of the signed-in key (`GET /api/v1/whoami`). */
export function rememberWho(who: WhoAmI): void {
  sessionStorage.setItem(WHO, JSON.stringify(who));
}

export function chooseContext(contextId: string): void {
  sessionStorage.setItem(CONTEXT, contextId);
}

export function signOut(): void {
  for (const name of [KEY, CONTEXT, WHO]) sessionStorage.removeItem(name);
}
