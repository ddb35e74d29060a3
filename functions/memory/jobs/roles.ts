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

export function hasRole(env: { ROLES?: string }, role: Role): boolean {
  return parseRoles(env.ROLES).has(role);
}
