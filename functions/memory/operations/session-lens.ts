import type { AuthContext } from '../auth/principal.ts';
import { lensFromGrant, type Lens } from '../scopes/lens.ts';

/**
 * Which sessions a caller sees, exactly as for facts: those whose scopes the read grant matches.
 * Every path that reads a session or its turns (REST, the context blocks, chat, MCP, inference)
 * passes this to the store, which answers "does not exist" for any other session.
 */
export function sessionLens(auth: AuthContext): Lens {
  return lensFromGrant(auth.key.grants['memory:read']);
}

/** For writes that name a session (a fact's `session_id`): readable or writable is enough. */
export function sessionWriteLens(auth: AuthContext): Lens {
  return lensFromGrant([...auth.key.grants['memory:read'], ...auth.key.grants['memory:write']]);
}
