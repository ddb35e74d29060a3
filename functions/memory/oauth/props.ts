import { z } from 'zod';
import type { AuthContext } from '../auth/principal.ts';

/**
 * What a credential resolves to: on `/mcp`, carried in `ctx.props` by the OAuth provider, either
 * an OAuth access token (grants chosen on the consent page, stored encrypted in its grant) or a
 * plain `mem_` bearer key resolved through the same auth module as REST; on REST, the props of an
 * OAuth access token (oauth/access-token.ts).
 */
export interface CredentialProps {
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

/** The props of an authenticated request or token, or null when there are none (not wrapped). */
export function readCredentialProps(props: unknown): CredentialProps | null {
  const parsed = propsSchema.safeParse(props);
  return parsed.success ? parsed.data : null;
}
