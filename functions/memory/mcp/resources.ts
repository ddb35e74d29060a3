import {
  ErrorCode,
  McpError,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';
import { MCP_RESOURCE_TEMPLATES } from '../../../src/schemas/mcp-tools.ts';
import { failure } from '../errors.ts';
import { buildContextBlock } from '../operations/context-block.ts';
import { getDocument, listDocuments } from '../operations/documents.ts';
import { getFact, listFacts } from '../operations/facts.ts';
import { getSession, listSessions, listTurns, MAX_TURNS_PAGE } from '../operations/sessions.ts';
import type { ToolContext } from './tool.ts';

/**
 * Memory as MCP resources. Every URI names its Context, so a credential that is not bound to
 * one Context can still read: `memory://{context_id}/facts/{fact_id}`,
 * `.../sessions/{session_id}` (with its turns), `.../documents/{document_id}` (with its
 * processing status) and `.../context` (the prompt-ready context block). Reads go through the
 * same operations as REST, so a key sees exactly what REST would show it.
 */

/** The URI templates, as src/schemas/mcp-tools.ts defines them for the server card too. */
export const RESOURCE_TEMPLATES: ResourceTemplate[] = MCP_RESOURCE_TEMPLATES;

export type MemoryUri =
  | { kind: 'fact'; contextId: string; id: string }
  | { kind: 'session'; contextId: string; id: string }
  | { kind: 'document'; contextId: string; id: string }
  | { kind: 'context'; contextId: string };

const URI = /^memory:\/\/([^/?#]+)\/(?:(facts|sessions|documents)\/([^/?#]+)|(context))$/;

export function parseMemoryUri(uri: string): MemoryUri | null {
  const m = URI.exec(uri);
  if (!m) return null;
  let contextId: string;
  let id: string;
  try {
    contextId = decodeURIComponent(m[1] ?? '');
    id = decodeURIComponent(m[3] ?? '');
  } catch {
    return null;
  }
  if (m[4] === 'context') return { kind: 'context', contextId };
  if (m[2] === 'facts') return { kind: 'fact', contextId, id };
  if (m[2] === 'sessions') return { kind: 'session', contextId, id };
  return { kind: 'document', contextId, id };
}

export function memoryUri(contextId: string, kind: MemoryUri['kind'], id = ''): string {
  const ctx = encodeURIComponent(contextId);
  if (kind === 'context') return `memory://${ctx}/context`;
  const part = kind === 'fact' ? 'facts' : kind === 'session' ? 'sessions' : 'documents';
  return `memory://${ctx}/${part}/${encodeURIComponent(id)}`;
}

function json(uri: string, value: unknown): ReadResourceResult {
  return {
    contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(value, null, 2) }],
  };
}

/** Reads one resource; an unknown URI is a JSON-RPC error, a failed read a MemoryError. */
export async function readResource(uri: string, ctx: ToolContext): Promise<ReadResourceResult> {
  const parsed = parseMemoryUri(uri);
  if (parsed === null) {
    throw new McpError(ErrorCode.InvalidParams, `Unknown resource: ${uri}`);
  }
  const contextId = await ctx.enter(parsed.contextId);
  switch (parsed.kind) {
    case 'fact':
      return json(uri, await getFact(ctx.deps, ctx.auth, { contextId, id: parsed.id }));
    case 'session': {
      const session = await getSession(ctx.deps, ctx.auth, { contextId, sessionId: parsed.id });
      const page = await listTurns(ctx.deps, ctx.auth, {
        contextId,
        sessionId: parsed.id,
        limit: MAX_TURNS_PAGE,
        offset: 0,
      });
      return json(uri, { ...session, turns: page.turns, turns_total: page.total });
    }
    case 'document': {
      const doc = await getDocument(ctx.deps, ctx.auth, { contextId, id: parsed.id });
      return json(uri, { ...doc, id: `document:${doc.id}` });
    }
    case 'context': {
      const block = await buildContextBlock(ctx.deps, ctx.auth, { contextId });
      return { contents: [{ uri, mimeType: 'text/plain', text: block.context }] };
    }
  }
}

/** Resources per page of `resources/list`. */
export const RESOURCE_PAGE = 50;

type Phase = 'context' | 'sessions' | 'documents' | 'facts';

interface ListCursor {
  phase: Phase;
  /** The phase's own cursor (facts, documents) or offset (sessions). */
  at: string | null;
}

function encodeCursor(c: ListCursor): string {
  return btoa(JSON.stringify(c)).replace(/=+$/, '');
}

function decodeCursor(cursor: string): ListCursor {
  try {
    const value: unknown = JSON.parse(atob(cursor));
    if (
      typeof value === 'object' &&
      value !== null &&
      'phase' in value &&
      'at' in value &&
      (value.phase === 'sessions' || value.phase === 'documents' || value.phase === 'facts') &&
      (value.at === null || typeof value.at === 'string')
    ) {
      return { phase: value.phase, at: value.at };
    }
  } catch {
    // reported below
  }
  throw new McpError(ErrorCode.InvalidParams, 'Invalid cursor: not one this server returned');
}

const NEXT_PHASE: Record<Phase, Phase | null> = {
  context: 'sessions',
  sessions: 'documents',
  documents: 'facts',
  facts: null,
};

/**
 * `resources/list` for a credential bound to one Context: its context block, then its sessions,
 * documents and current facts, each inside the key's read grant, in pages with a cursor. A
 * credential bound to no Context lists nothing (it reads through the URI templates instead).
 */
export async function listResources(
  cursor: string | undefined,
  ctx: ToolContext,
): Promise<{ resources: Resource[]; nextCursor?: string }> {
  const contextId = ctx.auth.key.contextId;
  if (contextId === null) return { resources: [] };
  await ctx.enter(contextId);
  const resources: Resource[] = [];
  let at: ListCursor = cursor === undefined ? { phase: 'context', at: null } : decodeCursor(cursor);
  for (;;) {
    const room = RESOURCE_PAGE - resources.length;
    let next: string | null = null;
    if (at.phase === 'context') {
      resources.push({
        uri: memoryUri(contextId, 'context'),
        name: 'context-block',
        title: 'Context block',
        description: `The prompt-ready context block of ${contextId}.`,
        mimeType: 'text/plain',
      });
    } else if (at.phase === 'sessions') {
      const offset = at.at === null ? 0 : Number.parseInt(at.at, 10);
      if (!Number.isSafeInteger(offset) || offset < 0) throw failure('validation-error', 'cursor');
      const page = hasReadGrant(ctx)
        ? await listSessions(ctx.deps, ctx.auth, { contextId, limit: room, offset })
        : { sessions: [], total: 0 };
      for (const s of page.sessions) {
        resources.push({
          uri: memoryUri(contextId, 'session', s.id),
          name: `session ${s.id}`,
          description: `Session ${s.id}, started ${s.created_at}.`,
          mimeType: 'application/json',
        });
      }
      if (offset + page.sessions.length < page.total) next = String(offset + page.sessions.length);
    } else if (at.phase === 'documents') {
      const page = await listDocuments(ctx.deps, ctx.auth, {
        contextId,
        limit: room,
        cursor: at.at,
      });
      for (const d of page.documents) {
        resources.push({
          uri: memoryUri(contextId, 'document', `document:${d.id}`),
          name: d.filename ?? `document:${d.id}`,
          description: `Document ${d.filename ?? d.id} (${d.status}).`,
          mimeType: 'application/json',
          size: d.size_bytes,
        });
      }
      next = page.next_cursor;
    } else {
      const page = await listFacts(ctx.deps, ctx.auth, {
        contextId,
        cursor: at.at,
        limit: room,
        lens: undefined,
        kind: 'fact',
      });
      for (const f of page.facts) {
        resources.push({
          uri: memoryUri(contextId, 'fact', f.id),
          name: f.id,
          description: f.content.length > 120 ? `${f.content.slice(0, 117)}...` : f.content,
          mimeType: 'application/json',
        });
      }
      next = page.next_cursor;
    }
    const following: ListCursor | null =
      next !== null
        ? { phase: at.phase, at: next }
        : NEXT_PHASE[at.phase] === null
          ? null
          : { phase: NEXT_PHASE[at.phase] ?? 'facts', at: null };
    if (following === null) return { resources };
    if (resources.length >= RESOURCE_PAGE)
      return { resources, nextCursor: encodeCursor(following) };
    at = following;
  }
}

// REST lists the sessions inside a key's read grant and refuses keys with no read grant at all.
// A listing skips sessions for such keys instead of failing the whole page.
function hasReadGrant(ctx: ToolContext): boolean {
  return ctx.auth.key.grants['memory:read'].length > 0;
}
