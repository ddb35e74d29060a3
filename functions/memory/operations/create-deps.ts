import { contextStore } from '../store/context-store.ts';
import type { ContextRow } from './context-row.ts';
import type { OperationDeps } from './deps.ts';
import { inferFactsHook } from './infer-facts.ts';
import { configuredEmbedder } from './model-provider.ts';

// Apart from deps.ts, which holds only types: the operations import those types, and this wiring
// imports operations (inference, the model provider), so one module would import itself in a
// circle. Only the edges (routes' app, MCP route, jobs, OAuth, tests) call createDeps.

/** Default wiring from the Worker's bindings; the model-backed issue swaps embedder/inferFacts here. */
export function createDeps(env: Env, overrides: Partial<OperationDeps> = {}): OperationDeps {
  return {
    env,
    db: env.DB,
    store: (contextId) => contextStore(env, contextId),
    contextRow: (contextId) =>
      env.DB.prepare('SELECT * FROM contexts WHERE id = ?').bind(contextId).first<ContextRow>(),
    embedder: configuredEmbedder(env),
    inferFacts: inferFactsHook,
    ...overrides,
  };
}
