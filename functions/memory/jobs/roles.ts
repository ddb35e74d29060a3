/** The three roles one deployment of the Worker can play (spec section 1). */
export type Role = 'api' | 'worker' | 'scheduler';

const ALL: Role[] = ['api', 'worker', 'scheduler'];

/** `ROLES` is a comma list; empty or absent means all three, as in a single-instance install. */
export function parseRoles(value: string | undefined): Set<Role> {
  const names = (value ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== '');
  if (names.length === 0) return new Set(ALL);
  return new Set(ALL.filter((role) => names.includes(role)));
}

// `hasRole` runs on every request; the setting is one of a handful of strings per isolate, so
// each is parsed once (a split, trims and a Set per request showed in the Worker's CPU profile).
const parsed = new Map<string, Set<Role>>();

export function hasRole(env: { ROLES?: string }, role: Role): boolean {
  const value = env.ROLES ?? '';
  let roles = parsed.get(value);
  if (roles === undefined) {
    roles = parseRoles(value);
    if (parsed.size < 16) parsed.set(value, roles);
  }
  return roles.has(role);
}
