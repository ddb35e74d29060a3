import type { ModelProvider } from '../models/provider.ts';
import { embedderOf, selectProvider } from '../models/select-provider.ts';
import type { OperationDeps } from './deps.ts';

/**
 * The provider of a request. Tests hand one in explicitly (a scripted fake); otherwise
 * `AI_PROVIDER` decides. Providers hold no state, so building one per request is cheap.
 */
export function providerOf(deps: OperationDeps, override?: ModelProvider): ModelProvider {
  return override ?? selectProvider(deps.env);
}

/** The embedder the memory core should use for this Worker's configured provider. */
export function configuredEmbedder(env: Env) {
  return embedderOf(selectProvider(env));
}
