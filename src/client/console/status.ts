/**
 * The page's one live region: what the console is doing and what went wrong, announced to screen
 * readers and shown under the heading. Errors keep the API's own words (title and detail).
 */
import { ApiError, SignedOutError } from './api.ts';

function region(): HTMLElement | null {
  return document.getElementById('console-status');
}

export function say(message: string, tone: 'info' | 'error' = 'info'): void {
  const el = region();
  if (!el) return;
  el.textContent = message;
  el.dataset.tone = tone;
}

export function explain(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 401) return `${error.message} Sign in again with a valid key.`;
    return error.message;
  }
  if (error instanceof SignedOutError) return 'Sign in first.';
  return error instanceof Error ? error.message : String(error);
}

/** Runs one user action, saying what failed instead of leaving the page silent. */
export async function attempt<T>(task: () => Promise<T>): Promise<T | undefined> {
  try {
    return await task();
  } catch (error) {
    say(explain(error), 'error');
    return undefined;
  }
}
