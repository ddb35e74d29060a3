import { unknownScopes } from './scopes.ts';
import { clientAddress, oauthError, throttled, tooManyAttempts } from './throttle.ts';

/**
 * Bounds on dynamic client registration (RFC 7591), checked before the library stores anything:
 * the library accepts any number of redirect URIs and strings of any length, which let one
 * request store megabytes in KV and render them on the consent page.
 */
export const REGISTRATION_LIMITS = {
  bodyBytes: 16 * 1024,
  redirectUris: 5,
  uriChars: 2000,
  clientNameChars: 200,
  otherStringChars: 2000,
  contacts: 5,
  /** Registrations per client address per minute. */
  perMinute: 10,
} as const;

const URI_FIELDS = ['client_uri', 'logo_uri', 'policy_uri', 'tos_uri', 'jwks_uri'] as const;

function invalidMetadata(description: string): Response {
  return oauthError(400, 'invalid_client_metadata', description);
}

function tooLong(value: unknown, max: number): boolean {
  return typeof value === 'string' && value.length > max;
}

/** The first bound the metadata breaks, as an RFC 7591 error response; null when it is fine. */
export function checkClientMetadata(meta: Record<string, unknown>): Response | null {
  const L = REGISTRATION_LIMITS;
  const uris = meta.redirect_uris;
  if (Array.isArray(uris)) {
    if (uris.length > L.redirectUris)
      return oauthError(
        400,
        'invalid_redirect_uri',
        `at most ${L.redirectUris} redirect_uris (got ${uris.length})`,
      );
    if (uris.some((u) => typeof u !== 'string' || u.length > L.uriChars))
      return oauthError(
        400,
        'invalid_redirect_uri',
        `each redirect URI is a string of at most ${L.uriChars} characters`,
      );
  }
  if (tooLong(meta.client_name, L.clientNameChars))
    return invalidMetadata(`client_name is at most ${L.clientNameChars} characters`);
  for (const field of URI_FIELDS) {
    if (tooLong(meta[field], L.uriChars))
      return invalidMetadata(`${field} is at most ${L.uriChars} characters`);
  }
  for (const [field, value] of Object.entries(meta)) {
    if (field === 'redirect_uris' || field === 'client_name') continue;
    if (tooLong(value, L.otherStringChars))
      return invalidMetadata(`${field} is at most ${L.otherStringChars} characters`);
  }
  const contacts = meta.contacts;
  if (
    Array.isArray(contacts) &&
    (contacts.length > L.contacts || contacts.some((c) => tooLong(c, 320)))
  )
    return invalidMetadata(`at most ${L.contacts} contacts of at most 320 characters`);
  if (meta.scope !== undefined) {
    const unknown = typeof meta.scope === 'string' ? unknownScopes(meta.scope) : ['(not a string)'];
    if (unknown.length > 0)
      return invalidMetadata(`unknown scope: ${unknown.slice(0, 3).join(', ')}`.slice(0, 300));
  }
  return null;
}

/**
 * POST /oauth/register in front of the library: throttled per client address, body size and
 * metadata bounded. Returns the refusal, or the request to hand on (its body re-created, since
 * reading it here consumed it).
 */
export async function guardRegistration(request: Request, env: Env): Promise<Response | Request> {
  const wait = await throttled(
    env,
    `oauth-register|${clientAddress(request)}`,
    REGISTRATION_LIMITS.perMinute,
  );
  if (wait !== null) return tooManyAttempts(wait, 'client registrations');
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > REGISTRATION_LIMITS.bodyBytes)
    return invalidMetadata(
      `the registration body is at most ${REGISTRATION_LIMITS.bodyBytes} bytes`,
    );
  const text = await request.text();
  if (new TextEncoder().encode(text).byteLength > REGISTRATION_LIMITS.bodyBytes)
    return invalidMetadata(
      `the registration body is at most ${REGISTRATION_LIMITS.bodyBytes} bytes`,
    );
  let meta: unknown;
  try {
    meta = JSON.parse(text);
  } catch {
    return invalidMetadata('the registration body is not JSON');
  }
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta))
    return invalidMetadata('the registration body is a JSON object');
  const refused = checkClientMetadata(meta as Record<string, unknown>);
  if (refused) return refused;
  return new Request(request, { body: text });
}
