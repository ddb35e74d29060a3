import type { Context } from 'hono';
import { contextObject } from '../context-object/context-store.ts';
import { failure, unwrap } from '../errors.ts';
import type { MemoryEnv } from '../hono-env.ts';
import type {
  OperationInput,
  OperationName,
  OperationOutput,
} from '../operations/context-operations.ts';

/**
 * Runs a data-plane operation in its Context's own object: one RPC carrying the caller's
 * credential, the rate-limit clock, the operation's name and its input. The object checks
 * access and rate and runs it (docs/hot-path.md); its expected failures come back as values and
 * are thrown here for `app.onError`.
 */
export async function perform<N extends OperationName>(
  c: Context<MemoryEnv>,
  operation: N,
  input: OperationInput<N>,
): Promise<OperationOutput<N>> {
  const credential = c.get('credential');
  const rate = c.get('rate');
  // Both are set by the auth and rate-limit middleware on every /api/v1/<ctx>/... path.
  if (credential === undefined || rate === undefined)
    throw failure('internal', 'a data-plane route ran without its credential');
  const result = await contextObject(c.env, input.contextId).perform({
    credential,
    contextId: input.contextId,
    rate,
    operation,
    input,
  });
  return unwrap(result);
}
