/**
 * The console's sign-in state. The key lives in `sessionStorage` only: never a cookie (it would
 * travel with every request to the origin) and never a URL (it would land in history, logs and
 * Referer headers). Closing the tab forgets it.
 */
const KEY = 'engram.console.key';
const CONTEXT = 'engram.console.context';
const KNOWN = 'engram.console.contexts';

export type KeyKind = 'management' | 'agent' | 'supervisor' | 'unknown';

export interface ConsoleSession {
  key: string;
  kind: KeyKind;
  /** The Context the views read; null until one is chosen (a root key is bound to none). */
  contextId: string | null;
}

/** A key names its kind after `mem_` (docs/security.md): that is all the console infers from it. */
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

export function currentSession(): ConsoleSession | null {
  const key = read(KEY);
  if (key === null || key === '') return null;
  const contextId = read(CONTEXT);
  return { key, kind: keyKind(key), contextId: contextId === '' ? null : contextId };
}

export function signIn(key: string, contextId: string | null): void {
  sessionStorage.setItem(KEY, key);
  if (contextId === null) sessionStorage.removeItem(CONTEXT);
  else chooseContext(contextId);
}

export function chooseContext(contextId: string): void {
  sessionStorage.setItem(CONTEXT, contextId);
  rememberContext(contextId);
}

export function signOut(): void {
  for (const name of [KEY, CONTEXT, KNOWN]) sessionStorage.removeItem(name);
}

/**
 * Context ids this tab has opened or created. The API has no "list Contexts" endpoint, so this is
 * what the context picker offers; it holds ids only, never data.
 */
export function knownContexts(): string[] {
  const raw = read(KNOWN);
  if (raw === null) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

export function rememberContext(contextId: string): void {
  const ids = [contextId, ...knownContexts().filter((id) => id !== contextId)].slice(0, 20);
  sessionStorage.setItem(KNOWN, JSON.stringify(ids));
}
