import { z } from 'zod';
import type { AuthContext } from '../auth/principal.ts';

/**
 * What an MCP request's credential resolves to, carried in `ctx.props` by the OAuth provider:
 * either an OAuth access token (grants chosen on the consent page, stored encrypted in its grant)
 * or a plain `mem_` bearer key resolved through the same auth module as REST.
 */
export interface McpProps {
  source: 'oauth' | 'key';
  auth: AuthContext;
}

const pathsSchema = z.array(z.string());

// Props cross a KV round trip (OAuth grants) and the provider's `unknown`; check them once here.
const propsSchema = z.object({
  source: z.enum(['oauth', 'key']),
  auth: z.object({
    principal: z.object({
      id: z.string(),
      kind: z.enum(['agent', 'supervisor', 'management']),
      displayName: z.string(),
    }),
    key: z.object({
      keyId: z.string(),
      contextId: z.string().nullable(),
      grants: z.object({
        'memory:read': pathsSchema,
        'memory:write': pathsSchema,
        'memory:forget': pathsSchema,
      }),
      scopeFloor: z.string().nullable(),
    }),
  }),
});

/** The props of an authenticated MCP request, or null when there are none (not wrapped). */
export function readMcpProps(props: unknown): McpProps | null {
  const parsed = propsSchema.safeParse(props);
  return parsed.success ? parsed.data : null;
}
