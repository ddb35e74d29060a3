import type { MemoryFailure } from '../errors.ts';
import type { KeyGrant, Verb } from '../auth/principal.ts';
import { covers, ROOT_SCOPE, strictlyBelow } from './path.ts';

/**
 * Checks requested paths against a key's grant for a verb and its scope floor:
 * a path inside none of the granted paths is 403; a path strictly below the floor is 400.
 */
export function checkPaths(
  key: KeyGrant,
  verb: Verb,
  paths: readonly string[],
): MemoryFailure | null {
  const granted = key.grants[verb];
  if (granted.length === 0) {
    return { kind: 'forbidden', detail: `this key has no ${verb} grant` };
  }
  for (const path of paths) {
    if (!granted.some((g) => covers(g, path))) {
      return {
        kind: 'forbidden',
        detail: `scope "${path}" is outside this key's ${verb} grant (${granted.join(', ')})`,
      };
    }
  }
  if (key.scopeFloor !== null) {
    for (const path of paths) {
      if (strictlyBelow(path, key.scopeFloor)) {
        return {
          kind: 'validation-error',
          detail: `scope "${path}" is narrower than this key's scope floor "${key.scopeFloor}"`,
        };
      }
    }
  }
  return null;
}

/** True when an item with these scopes lies inside the key's grant for a verb. */
export function itemWithinGrant(key: KeyGrant, verb: Verb, itemScopes: readonly string[]): boolean {
  return scopesWithin(key.grants[verb], itemScopes);
}

/** True when every scope lies under a granted path; an unscoped item needs the root grant. */
export function scopesWithin(granted: readonly string[], itemScopes: readonly string[]): boolean {
  if (granted.includes(ROOT_SCOPE)) return true;
  if (itemScopes.length === 0) return false;
  return itemScopes.every((s) => granted.some((g) => covers(g, s)));
}
