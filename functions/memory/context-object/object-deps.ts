import { createDeps } from '../operations/create-deps.ts';
import type { OperationDeps } from '../operations/deps.ts';

/** Builds the dependencies of an operation run inside the Context's object. */
export type ObjectDepsFactory = (env: Env, wiring: Partial<OperationDeps>) => OperationDeps;

let factory: ObjectDepsFactory = createDeps;

/**
 * Tests only: swaps how the object wires its operations (a scripted model, inference off, another
 * embedding model), the way `createMemoryApp({ deps })` does for the Worker's own operations.
 * Functions cannot cross RPC, so the swap happens where the operation runs. `null` restores the
 * default; keep `wiring` (the object's own store and Context row) in what you return.
 */
export function setObjectDeps(next: ObjectDepsFactory | null): void {
  factory = next ?? createDeps;
}

export function objectDeps(env: Env, wiring: Partial<OperationDeps>): OperationDeps {
  return factory(env, wiring);
}
