/**
 * Scope paths: `/`-separated segments such as `team:eng/user:alice`. A path matches a fact's path
 * when it is equal to it or an ancestor of it. `*` is the root: the ancestor of every path, and
 * the only path that also matches facts stored without scopes.
 */
export const ROOT_SCOPE = '*';

const SEGMENT = /^[A-Za-z0-9_.@+-]+(?::[A-Za-z0-9_.@+-]+)?$/;
export const MAX_SCOPE_LENGTH = 256;

/** Why a path is invalid, or null when it is a valid scope path. */
export function scopePathProblem(path: string): string | null {
  if (path === ROOT_SCOPE) return null;
  if (path.length === 0) return 'a scope path must not be empty';
  if (path.length > MAX_SCOPE_LENGTH)
    return `scope path longer than ${MAX_SCOPE_LENGTH} characters`;
  for (const segment of path.split('/')) {
    if (!SEGMENT.test(segment)) {
      return `scope path "${path}" has an invalid segment "${segment}" (expected name or kind:name)`;
    }
  }
  return null;
}

/** True when `ancestor` is `path` itself or one of its ancestors. */
export function covers(ancestor: string, path: string): boolean {
  if (ancestor === ROOT_SCOPE) return true;
  if (path === ROOT_SCOPE) return false;
  return path === ancestor || path.startsWith(`${ancestor}/`);
}

/** True when `path` is narrower than `floor` (a proper descendant of it). */
export function strictlyBelow(path: string, floor: string): boolean {
  return path !== floor && covers(floor, path);
}
