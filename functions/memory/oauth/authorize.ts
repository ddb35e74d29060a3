import {
  AuthorizationError,
  authorizationErrorRedirect,
  type OAuthHelpers,
} from '@cloudflare/workers-oauth-provider';
import { authenticate } from '../auth/authenticate.ts';
import {
  OAUTH_KEY_PREFIX,
  VERBS,
  type AuthContext,
  type Grants,
  type Verb,
} from '../auth/principal.ts';
import { MemoryError } from '../errors.ts';
import { requireContext } from '../operations/contexts.ts';
import { createDeps } from '../operations/create-deps.ts';
import { checkPaths } from '../scopes/grants.ts';
import { scopePathProblem } from '../scopes/path.ts';
import { renderConsentPage, type ConsentPageInput } from './consent-page.ts';
import type { CredentialProps } from './props.ts';
import { unknownScopes } from './scopes.ts';
import { clientAddress, throttled } from './throttle.ts';

/** Consent form posts (API key guesses) per client address per minute. */
export const CONSENT_ATTEMPTS_PER_MINUTE = 10;

const FIELD_OF: Record<Verb, 'read' | 'write' | 'forget'> = {
  'memory:read': 'read',
  'memory:write': 'write',
  'memory:forget': 'forget',
};

const CONSENT_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; frame-ancestors 'none'";

function page(input: ConsentPageInput, status: number, headers?: Headers): Response {
  const h = new Headers(headers);
  h.set('content-type', 'text/html; charset=utf-8');
  h.set('cache-control', 'no-store');
  h.set('x-frame-options', 'DENY');
  // Stricter than the site's policy: the page's one stylesheet is inline and it loads nothing.
  // No `form-action`: browsers apply it to the redirect that follows the post, and that goes to
  // the client's redirect URI. nosniff and HSTS come from the Worker entry.
  h.set('content-security-policy', CONSENT_CSP);
  h.set('referrer-policy', 'no-referrer');
  return new Response(renderConsentPage(input), { status, headers: h });
}

function textError(status: number, message: string): Response {
  return new Response(`${message}\n`, {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  });
}

function paths(value: ReturnType<FormData['get']>): string[] {
  if (typeof value !== 'string') return [];
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** GET /authorize: validates the client's request and shows the consent form. */
async function showConsent(request: Request, helpers: OAuthHelpers): Promise<Response> {
  let authRequest;
  try {
    authRequest = await helpers.parseAuthRequest(request);
  } catch (err) {
    const detail = err instanceof Error ? err.message : 'invalid authorization request';
    return textError(400, `This authorization request is not valid: ${detail}`);
  }
  // The client and its redirect URI are verified by now, so the refusal goes back to the client
  // (RFC 6749 §4.1.2.1) rather than a page the person cannot act on.
  const unknown = unknownScopes(new URL(request.url).searchParams.get('scope'));
  if (unknown.length > 0) {
    const location = authorizationErrorRedirect(
      authRequest,
      'invalid_scope',
      `unknown scope: ${unknown.slice(0, 3).join(', ')}`,
    );
    return new Response(null, { status: 302, headers: { location } });
  }
  const description = await helpers.describeConsent(authRequest);
  const { handle, headers } = await helpers.beginConsent(authRequest);
  const values = { context_id: '', read: '*', write: '', forget: '' };
  return page({ handle, description, error: null, values }, 200, headers);
}

/**
 * The grants the person chose, checked against the key they proved they hold: the token can
 * never exceed that key (its principal, its Context, its grant per verb and its scope floor).
 */
async function chosenGrants(env: Env, form: FormData): Promise<AuthContext> {
  const apiKey = form.get('api_key');
  const auth = await authenticate(
    env,
    typeof apiKey === 'string' ? `Bearer ${apiKey.trim()}` : null,
  );
  const requested = form.get('context_id');
  const contextId =
    typeof requested === 'string' && requested.trim() !== ''
      ? requested.trim()
      : auth.key.contextId;
  if (contextId === null) {
    throw new MemoryError({ kind: 'validation-error', detail: 'name the Context to grant' });
  }
  if (auth.key.contextId !== null && auth.key.contextId !== contextId) {
    // Same answer as a missing Context: the page must not reveal which Contexts exist.
    throw new MemoryError({ kind: 'unauthorized', detail: 'key not valid for this Context' });
  }
  await requireContext(createDeps(env), auth, contextId);
  const grants: Grants = { 'memory:read': [], 'memory:write': [], 'memory:forget': [] };
  for (const verb of VERBS) {
    const chosen = paths(form.get(FIELD_OF[verb]));
    for (const path of chosen) {
      const problem = path === '*' ? null : scopePathProblem(path);
      if (problem)
        throw new MemoryError({ kind: 'validation-error', detail: `${verb}: ${problem}` });
    }
    if (chosen.length === 0) continue;
    // `*` on the form means "all of this key's grant for the verb", whatever that grant is.
    if (chosen.includes('*')) {
      if (auth.key.grants[verb].length === 0) {
        throw new MemoryError({ kind: 'forbidden', detail: `this key has no ${verb} grant` });
      }
      grants[verb] = [...auth.key.grants[verb]];
      continue;
    }
    const denied = checkPaths(auth.key, verb, chosen);
    if (denied) throw new MemoryError(denied);
    grants[verb] = chosen;
  }
  if (VERBS.every((verb) => grants[verb].length === 0)) {
    throw new MemoryError({ kind: 'validation-error', detail: 'grant at least one scope' });
  }
  return {
    principal: auth.principal,
    key: {
      keyId: `${OAUTH_KEY_PREFIX}${auth.key.keyId}`,
      contextId,
      grants,
      scopeFloor: auth.key.scopeFloor,
    },
  };
}

/** POST /authorize: the person's decision; on approval the grant carries exactly their choice. */
async function decide(request: Request, env: Env, helpers: OAuthHelpers): Promise<Response> {
  const form = await request.formData();
  const handle = form.get('handle');
  if (typeof handle !== 'string' || handle === '')
    return textError(400, 'The consent form is missing its handle.');
  try {
    if (form.get('decision') === 'deny') {
      const denied = await helpers.denyConsent(request, handle);
      return new Response(null, { status: 302, headers: denied.headers });
    }
    const values = {
      context_id: String(form.get('context_id') ?? ''),
      read: String(form.get('read') ?? ''),
      write: String(form.get('write') ?? ''),
      forget: String(form.get('forget') ?? ''),
    };
    // Each approval tries an API key: throttle them per address so keys cannot be guessed here.
    const wait = await throttled(
      env,
      `oauth-consent|${clientAddress(request)}`,
      CONSENT_ATTEMPTS_PER_MINUTE,
    );
    if (wait !== null) {
      const error = `Too many attempts from this address. Try again in ${wait} seconds.`;
      const headers = new Headers({ 'retry-after': String(wait) });
      return page({ handle, description: null, error, values }, 429, headers);
    }
    let auth: AuthContext;
    try {
      auth = await chosenGrants(env, form);
    } catch (err) {
      if (!(err instanceof MemoryError)) throw err;
      // A missing Context reads like a bad key, as on the MCP surface: no enumeration here either.
      const f = err.failure;
      const message =
        f.kind === 'context-not-found' || f.kind === 'unauthorized'
          ? 'That key is not valid for this Context (or the Context does not exist).'
          : f.detail;
      const status = f.kind === 'context-not-found' ? 401 : toStatus(f.kind);
      return page({ handle, description: null, error: message, values }, status);
    }
    const scope = VERBS.filter((verb) => auth.key.grants[verb].length > 0);
    const approved = await helpers.approveConsent(request, handle, { scope });
    const props: CredentialProps = { source: 'oauth', auth };
    const { redirectTo } = await helpers.completeAuthorization({
      request: approved.request,
      userId: auth.principal.id,
      metadata: { label: auth.principal.displayName, context_id: auth.key.contextId },
      scope,
      props,
    });
    const headers = new Headers(approved.headers);
    headers.set('location', redirectTo);
    return new Response(null, { status: 302, headers });
  } catch (err) {
    if (err instanceof AuthorizationError)
      return textError(400, `Authorization failed: ${err.description}`);
    throw err;
  }
}

function toStatus(kind: string): number {
  if (kind === 'unauthorized') return 401;
  if (kind === 'forbidden') return 403;
  return 400;
}

/** `/authorize`: the consent page of the OAuth flow for MCP clients. */
export function handleAuthorize(
  request: Request,
  env: Env,
  helpers: OAuthHelpers,
): Promise<Response> {
  if (request.method === 'GET') return showConsent(request, helpers);
  if (request.method === 'POST') return decide(request, env, helpers);
  return Promise.resolve(new Response(null, { status: 405, headers: { allow: 'GET, POST' } }));
}
