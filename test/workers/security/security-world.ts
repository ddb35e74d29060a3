import { expect } from 'vitest';
import { ALL, BOOTSTRAP, call, json, unique, type GrantsInput } from '../memory/helpers.ts';
import { oauthToken } from './oauth-token.ts';

// The key kinds, the access policy and the World (Contexts, keys, fixtures) of the security table
// (security-table.test.ts); the routes are in security-routes.ts.

/** The key kinds and grants a request can come with. */
export const KEYS = [
  'root', // unbound management key (the bootstrap key)
  'bound', // management key bound to the Context, every grant
  'otherMgmt', // management key bound to another Context
  'agent', // agent key, every grant
  'supervisor', // supervisor key, every grant
  'reader', // agent key with memory:read only
  'scoped', // agent key granted team:a for every verb; its requests name team:b
  'revoked', // an agent key, revoked
  'otherAgent', // agent key of another Context, every grant
  'none', // no Authorization header
  'oauth', // OAuth access token consented with the agent key's whole grant
  'oauthRead', // OAuth access token consented with memory:read only
  'oauthMgmt', // OAuth access token consented with the bound management key's whole grant
  'oauthRevoked', // OAuth access token whose key was revoked since
] as const;
export type KeyName = (typeof KEYS)[number];

/** OAuth access tokens: sent at the loopback origin, where this origin's OAuth flow issued them. */
export const OAUTH_KEYS: ReadonlySet<KeyName> = new Set([
  'oauth',
  'oauthRead',
  'oauthMgmt',
  'oauthRevoked',
]);

/** What a route needs: the rows of the access policy. */
export type Need =
  | 'root' // deployment-wide: creating Contexts, migrations and dead letters
  | 'anyMgmt' // any management key, acting in its own tenant (principals)
  | 'anyKey' // any valid key, about itself (whoami)
  | 'tenantAdmin' // a management key of this Context (or root)
  | 'view' // any key of this Context (reads the Context's settings)
  | 'read'
  | 'write'
  | 'forget'
  | 'supervise'; // persisting reflections: a supervisor (or management) principal

export const OK = 0; // placeholder for the route's own success status
// An OAuth token carries memory scopes only (docs/console.md): management routes refuse even a
// management principal's token (403), while its memory verbs follow the consent.
export const POLICY: Record<Need, Record<KeyName, number>> = {
  // prettier-ignore
  root:        { root: OK, bound: 403, otherMgmt: 403, agent: 403, supervisor: 403, reader: 403, scoped: 403, revoked: 401, otherAgent: 403, none: 401, oauth: 403, oauthRead: 403, oauthMgmt: 403, oauthRevoked: 401 },
  // prettier-ignore
  anyMgmt:     { root: OK, bound: OK,  otherMgmt: OK,  agent: 403, supervisor: 403, reader: 403, scoped: 403, revoked: 401, otherAgent: 403, none: 401, oauth: 403, oauthRead: 403, oauthMgmt: 403, oauthRevoked: 401 },
  // prettier-ignore
  anyKey:      { root: OK, bound: OK,  otherMgmt: OK,  agent: OK,  supervisor: OK,  reader: OK,  scoped: OK,  revoked: 401, otherAgent: OK,  none: 401, oauth: OK,  oauthRead: OK,  oauthMgmt: OK,  oauthRevoked: 401 },
  // prettier-ignore
  tenantAdmin: { root: OK, bound: OK,  otherMgmt: 403, agent: 403, supervisor: 403, reader: 403, scoped: 403, revoked: 401, otherAgent: 403, none: 401, oauth: 403, oauthRead: 403, oauthMgmt: 403, oauthRevoked: 401 },
  // prettier-ignore
  view:        { root: OK, bound: OK,  otherMgmt: 403, agent: OK,  supervisor: OK,  reader: OK,  scoped: OK,  revoked: 401, otherAgent: 403, none: 401, oauth: OK,  oauthRead: OK,  oauthMgmt: OK,  oauthRevoked: 401 },
  // prettier-ignore
  read:        { root: OK, bound: OK,  otherMgmt: 403, agent: OK,  supervisor: OK,  reader: OK,  scoped: 403, revoked: 401, otherAgent: 403, none: 401, oauth: OK,  oauthRead: OK,  oauthMgmt: OK,  oauthRevoked: 401 },
  // prettier-ignore
  write:       { root: OK, bound: OK,  otherMgmt: 403, agent: OK,  supervisor: OK,  reader: 403, scoped: 403, revoked: 401, otherAgent: 403, none: 401, oauth: OK,  oauthRead: 403, oauthMgmt: OK,  oauthRevoked: 401 },
  // prettier-ignore
  forget:      { root: OK, bound: OK,  otherMgmt: 403, agent: OK,  supervisor: OK,  reader: 403, scoped: 403, revoked: 401, otherAgent: 403, none: 401, oauth: OK,  oauthRead: 403, oauthMgmt: OK,  oauthRevoked: 401 },
  // prettier-ignore
  supervise:   { root: OK, bound: OK,  otherMgmt: 403, agent: 403, supervisor: OK,  reader: 403, scoped: 403, revoked: 401, otherAgent: 403, none: 401, oauth: 403, oauthRead: 403, oauthMgmt: OK,  oauthRevoked: 401 },
};

const GRANTS: Record<'reader' | 'scoped', GrantsInput> = {
  reader: { 'memory:read': ['*'] },
  scoped: { 'memory:read': ['team:a'], 'memory:write': ['team:a'], 'memory:forget': ['team:a'] },
};

/** OAuth flows of the table, each from its own address (registrations and consents are throttled). */
let tokens = 0;

/** A Context, a second one, and the keys of the table, issued on first use. */
export class World {
  readonly ctx = unique('sec');
  readonly other = unique('sec-other');
  private readonly keys = new Map<KeyName, string | null>();

  async init(): Promise<this> {
    for (const id of [this.ctx, this.other]) {
      const res = await call('POST', '/api/v1/contexts', { body: { id } });
      expect(res.status).toBe(201);
    }
    return this;
  }

  private async issue(
    ctx: string,
    kind: 'agent' | 'supervisor' | 'management',
    grants: GrantsInput,
  ): Promise<{ id: string; key: string }> {
    const principal = await call('POST', '/api/v1/principals', {
      body: { kind, display_name: unique(kind) },
    });
    const principalId = (await json<{ id: string }>(principal)).id;
    const res = await call('POST', '/api/v1/keys', {
      body: { principal_id: principalId, context_id: ctx, grants },
    });
    expect(res.status).toBe(201);
    return json<{ id: string; key: string }>(res);
  }

  /** An access token consented with a fresh key of `kind` (revoked afterwards if asked). */
  private async token(
    kind: 'agent' | 'management',
    fields: Record<string, string>,
    revoke = false,
  ): Promise<string> {
    const issued = await this.issue(this.ctx, kind, ALL);
    tokens += 1;
    const token = await oauthToken(issued.key, fields, `192.0.2.${tokens % 250}`);
    if (revoke) expect((await call('DELETE', `/api/v1/keys/${issued.id}`)).status).toBe(204);
    return token;
  }

  async key(name: KeyName): Promise<string | null> {
    const known = this.keys.get(name);
    if (known !== undefined) return known;
    const every = { read: '*', write: '*', forget: '*' };
    let key: string | null;
    if (name === 'root') key = BOOTSTRAP;
    else if (name === 'oauth') key = await this.token('agent', every);
    else if (name === 'oauthRead') key = await this.token('agent', { read: '*' });
    else if (name === 'oauthMgmt') key = await this.token('management', every);
    else if (name === 'oauthRevoked') key = await this.token('agent', { read: '*' }, true);
    else if (name === 'none') key = null;
    else if (name === 'bound') key = (await this.issue(this.ctx, 'management', ALL)).key;
    else if (name === 'otherMgmt') key = (await this.issue(this.other, 'management', ALL)).key;
    else if (name === 'supervisor') key = (await this.issue(this.ctx, 'supervisor', ALL)).key;
    else if (name === 'otherAgent') key = (await this.issue(this.other, 'agent', ALL)).key;
    else if (name === 'reader' || name === 'scoped')
      key = (await this.issue(this.ctx, 'agent', GRANTS[name])).key;
    else if (name === 'revoked') {
      const issued = await this.issue(this.ctx, 'agent', ALL);
      expect((await call('DELETE', `/api/v1/keys/${issued.id}`)).status).toBe(204);
      key = issued.key;
    } else key = (await this.issue(this.ctx, 'agent', ALL)).key;
    this.keys.set(name, key);
    return key;
  }

  /** Fixtures are made with the root key, fresh for each case that needs one. */
  async fact(): Promise<string> {
    const res = await call('POST', `/api/v1/${this.ctx}/facts`, {
      // Oslo: an entity only team:b knows (GET /{ctx}/entities/{name}).
      body: { content: `Fixture fact ${unique('f')} from Oslo`, scopes: ['team:b'] },
    });
    return (await json<{ facts: { id: string }[] }>(res)).facts[0]?.id ?? '';
  }

  /** A session in `scope` (team:b is outside the scoped key's grant, team:a inside it). */
  async session(scope: string): Promise<string> {
    const res = await call('POST', `/api/v1/${this.ctx}/sessions`, { body: { scopes: [scope] } });
    expect(res.status).toBe(201);
    return (await json<{ id: string }>(res)).id;
  }

  async document(): Promise<string> {
    const res = await call('POST', `/api/v1/${this.ctx}/documents?filename=f.md&scopes=team:b`, {
      rawBody: `# Fixture ${unique('d')}\n\nSome text.`,
      headers: { 'content-type': 'text/markdown' },
    });
    return (await json<{ id: string }>(res)).id;
  }

  /** A document's file, as its sha256 and the text uploaded (made with the root key). */
  async documentBlob(): Promise<{ sha256: string; text: string }> {
    const text = `# Blob ${unique('b')}\n\nSome text.`;
    const res = await call('POST', `/api/v1/${this.ctx}/documents?filename=b.md&scopes=team:b`, {
      rawBody: text,
      headers: { 'content-type': 'text/markdown' },
    });
    expect(res.status).toBe(202);
    return { sha256: (await json<{ sha256: string }>(res)).sha256, text };
  }

  /** The export of `contextId`, taken with the root key: a valid backup to import. */
  async exportOf(contextId: string): Promise<string> {
    const res = await call('GET', `/api/v1/contexts/${contextId}/export`);
    expect(res.status).toBe(200);
    return res.text();
  }

  async principalHere(): Promise<string> {
    const bound = await this.key('bound');
    const res = await call('POST', '/api/v1/principals', {
      key: bound,
      body: { kind: 'agent', display_name: unique('tenant-agent') },
    });
    return (await json<{ id: string }>(res)).id;
  }

  async keyHere(): Promise<string> {
    return (await this.issue(this.ctx, 'agent', ALL)).id;
  }
}

export interface Req {
  method: string;
  path: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface Route {
  name: string;
  need: Need;
  ok: number;
  /** Builds the request; `scope` is the path a scoped request names (team:b: outside `scoped`). */
  build: (w: World, scope: string) => Promise<Req>;
  /** Each case gets a World of its own: the request destroys or needs an empty Context. */
  fresh?: boolean;
  /** Statuses that differ from POLICY for this route, with the reason in the comment. */
  except?: Partial<Record<KeyName, number>>;
}
