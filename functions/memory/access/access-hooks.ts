import type { ContextRow } from '../operations/context-row.ts';

/**
 * What control-plane writes tell a Context's object after D1 has changed (D1 stays the source of
 * truth): forget these keys, here is the Context's new row. `ContextStore` implements it.
 */
export interface AccessHooks {
  forgetKeys(keyIds: string[]): Promise<number>;
  refreshContextRow(row: ContextRow): Promise<void>;
  /** The Context is gone from D1: drop whatever a request read in the meantime. */
  forgetContext(): Promise<void>;
}

export function accessHooks(env: Env, contextId: string): AccessHooks {
  // The namespace's stub type cannot be expanded by tsc here (see ContextStoreStub); these two
  // methods take and return plain data.
  return env.CONTEXT_STORE.getByName(contextId) as unknown as AccessHooks;
}
