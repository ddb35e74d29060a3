import { z } from 'zod';
import { PRINCIPAL_KINDS, type AuthContext } from '../auth/principal.ts';
import { scopePathProblem } from '../scopes/path.ts';

const ScopePathSchema = z.string().refine((p) => scopePathProblem(p) === null, {
  message: 'not a scope path',
});

/**
 * Who queued a job, with the grants their key had at that moment. Background work done on a
 * principal's behalf (turn extraction, inference) runs with exactly these, never with the
 * Context's full rights; a message without an actor fails validation and is dead-lettered.
 */
export const actorSchema = z.object({
  principal_id: z.string().min(1),
  principal_kind: z.enum(PRINCIPAL_KINDS),
  display_name: z.string(),
  key_id: z.string().min(1),
  grants: z.object({
    'memory:read': z.array(ScopePathSchema),
    'memory:write': z.array(ScopePathSchema),
    'memory:forget': z.array(ScopePathSchema),
  }),
  scope_floor: ScopePathSchema.nullable(),
});

export type JobActor = z.infer<typeof actorSchema>;

/** Captures the caller's grants for a queue message. */
export function actorOf(auth: AuthContext): JobActor {
  return {
    principal_id: auth.principal.id,
    principal_kind: auth.principal.kind,
    display_name: auth.principal.displayName,
    key_id: auth.key.keyId,
    grants: {
      'memory:read': [...auth.key.grants['memory:read']],
      'memory:write': [...auth.key.grants['memory:write']],
      'memory:forget': [...auth.key.grants['memory:forget']],
    },
    scope_floor: auth.key.scopeFloor,
  };
}

/** The job's caller, bound to the one Context the message names. */
export function authOfActor(actor: JobActor, contextId: string): AuthContext {
  return {
    principal: {
      id: actor.principal_id,
      kind: actor.principal_kind,
      displayName: actor.display_name,
    },
    key: {
      keyId: actor.key_id,
      contextId,
      grants: actor.grants,
      scopeFloor: actor.scope_floor,
    },
  };
}
