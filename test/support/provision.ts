import type { MemoryClient } from '../../sdk/js/src/index.ts';

/**
 * Creates a Context and an agent key on it with the same paths granted for every verb, through a
 * management client: the set-up most end-to-end suites start from. Returns the agent's secret.
 */
export async function provisionAgent(
  admin: MemoryClient,
  contextId: string,
  paths: string[],
): Promise<string> {
  await admin.createContext(contextId);
  const principal = await admin.createPrincipal({
    kind: 'agent',
    display_name: `${contextId}-agent`,
  });
  const key = await admin.createKey({
    principal_id: principal.id,
    context_id: contextId,
    grants: { 'memory:read': paths, 'memory:write': paths, 'memory:forget': paths },
  });
  return key.key;
}
