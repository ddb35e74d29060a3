import { covers, ROOT_SCOPE, scopePathProblem } from './path.ts';

/** A lens as sent: flat entries are OR-ed; a nested array is one AND-ed clause. */
export type LensInput = ReadonlyArray<string | readonly string[]>;

/** A lens in disjunctive normal form: OR over clauses, each clause an AND of paths. */
export type Lens = string[][];

export const MAX_LENS_PATHS = 64;

/** Normalises a lens input into DNF, or returns why it is invalid. */
export function parseLens(input: LensInput): { lens: Lens } | { problem: string } {
  if (input.length === 0)
    return { problem: 'lens must not be empty; omit it to read everything granted' };
  const lens: Lens = [];
  let count = 0;
  for (const entry of input) {
    const clause = typeof entry === 'string' ? [entry] : [...entry];
    if (clause.length === 0) return { problem: 'a nested lens clause must not be empty' };
    for (const path of clause) {
      const problem = scopePathProblem(path);
      if (problem) return { problem: `lens: ${problem}` };
    }
    count += clause.length;
    lens.push(clause);
  }
  if (count > MAX_LENS_PATHS) return { problem: `lens has more than ${MAX_LENS_PATHS} paths` };
  return { lens };
}

/** Every path a lens mentions (what grant and floor checks look at). */
export function lensPaths(lens: Lens): string[] {
  return [...new Set(lens.flat())];
}

/** True when one clause of the lens has each of its paths covering some scope of the item. */
export function lensMatches(lens: Lens, itemScopes: readonly string[]): boolean {
  return lens.some((clause) =>
    clause.every((path) =>
      path === ROOT_SCOPE ? true : itemScopes.some((scope) => covers(path, scope)),
    ),
  );
}

/** The lens a read uses when none is given: everything the key may read (OR of its grant). */
export function lensFromGrant(paths: readonly string[]): Lens {
  return paths.map((p) => [p]);
}
