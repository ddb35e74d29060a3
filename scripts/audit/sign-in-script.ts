/**
 * The script that signs a console tab in before its own scripts run: it writes what the sign-in
 * form keeps (src/client/console/session.ts: the key, the chosen Context, whoami's answer) into
 * `sessionStorage`, and only on the audited origin, so no other document of the tab (Lighthouse
 * opens about:blank first) ever holds the key. Text, because Lighthouse's puppeteer tab and
 * playwright's page both take a script as a string.
 */

/** The `sessionStorage` names of src/client/console/session.ts (a browser module, not importable here). */
export const SESSION_NAMES = {
  key: 'engram.console.key',
  context: 'engram.console.context',
  who: 'engram.console.whoami',
} as const;

export interface ConsoleSignIn {
  /** The origin the key belongs to, e.g. `http://127.0.0.1:8787`. */
  origin: string;
  key: string;
  contextId: string;
  /** The server's `GET /api/v1/whoami` answer for the key, as the sign-in form keeps it. */
  who: unknown;
}

export function signInScript(s: ConsoleSignIn): string {
  const set = (name: string, value: string) =>
    `sessionStorage.setItem(${JSON.stringify(name)}, ${JSON.stringify(value)});`;
  return [
    '(() => {',
    `  if (location.origin !== ${JSON.stringify(s.origin)}) return;`,
    `  ${set(SESSION_NAMES.key, s.key)}`,
    `  ${set(SESSION_NAMES.context, s.contextId)}`,
    `  ${set(SESSION_NAMES.who, JSON.stringify(s.who))}`,
    '})();',
  ].join('\n');
}
