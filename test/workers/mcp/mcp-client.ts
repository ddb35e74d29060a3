import { env } from 'cloudflare:test';
import { exports } from 'cloudflare:workers';

/** Helpers for driving `/mcp` inside workerd with plain JSON-RPC over streamable HTTP. */
export const ORIGIN = 'http://example.com';

export interface JsonRpcReply {
  status: number;
  headers: Headers;
  body: {
    jsonrpc?: string;
    id?: number;
    result?: {
      isError?: boolean;
      structuredContent?: Record<string, unknown>;
      content?: Array<{ type: string; text?: string }>;
      tools?: Array<{ name: string; inputSchema: unknown; outputSchema?: unknown }>;
    };
    error?: { code: number; message: string };
  } & Record<string, unknown>;
}

let nextId = 1;

export async function rpc(
  key: string | null,
  method: string,
  params: Record<string, unknown> = {},
): Promise<JsonRpcReply> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-06-18',
  };
  if (key !== null) headers.authorization = `Bearer ${key}`;
  const res = await exports.default.fetch(`${ORIGIN}/mcp`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: text ? (JSON.parse(text) as JsonRpcReply['body']) : {},
  };
}

export function callTool(key: string | null, name: string, args: Record<string, unknown>) {
  return rpc(key, 'tools/call', { name, arguments: args });
}

// Set by vitest.workers.config.ts; an empty key would fail every call loudly.
export const BOOTSTRAP: string = env.MEMORY_BOOTSTRAP_KEY ?? '';

async function rest<T>(path: string, body: unknown): Promise<T> {
  const res = await exports.default.fetch(`${ORIGIN}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${BOOTSTRAP}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Another agent key on an existing Context. */
export async function keyOn(
  contextId: string,
  grants: Record<string, string[]>,
  name: string,
): Promise<string> {
  const principal = await rest<{ id: string }>('/api/v1/principals', {
    kind: 'agent',
    display_name: `${contextId}-${name}`,
  });
  const key = await rest<{ key: string }>('/api/v1/keys', {
    principal_id: principal.id,
    context_id: contextId,
    grants,
  });
  return key.key;
}

/** A fresh Context and an agent key bound to it, with the given grants (default: the root). */
export async function contextWithKey(
  contextId: string,
  grants: Record<string, string[]> = {
    'memory:read': ['*'],
    'memory:write': ['*'],
    'memory:forget': ['*'],
  },
  kind: 'agent' | 'supervisor' = 'agent',
): Promise<string> {
  await rest('/api/v1/contexts', { id: contextId });
  const principal = await rest<{ id: string }>('/api/v1/principals', {
    kind,
    display_name: `${contextId}-${kind}`,
  });
  const key = await rest<{ key: string }>('/api/v1/keys', {
    principal_id: principal.id,
    context_id: contextId,
    grants,
  });
  return key.key;
}

/** One JSON-RPC message of a reply, whether it came as JSON or as SSE events. */
export interface RpcMessage {
  jsonrpc: string;
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: Record<string, unknown> };
}

/**
 * POSTs one JSON-RPC request with extra headers and returns every message of the reply: the
 * result alone for a JSON answer, or the notifications and then the result of an SSE stream.
 */
export async function rpcMessages(
  key: string | null,
  method: string,
  params: Record<string, unknown> = {},
  extraHeaders: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; messages: RpcMessage[] }> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-06-18',
    ...extraHeaders,
  };
  if (key !== null) headers.authorization = `Bearer ${key}`;
  const res = await exports.default.fetch(`${ORIGIN}/mcp`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
  });
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  const messages = type.includes('text/event-stream')
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data: ') && line.length > 'data: '.length)
        .map((line) => JSON.parse(line.slice('data: '.length)) as RpcMessage)
    : text
      ? [JSON.parse(text) as RpcMessage]
      : [];
  return { status: res.status, headers: res.headers, messages };
}

/** The result (or error) message among a reply's messages. */
export function finalOf(messages: RpcMessage[]): RpcMessage | undefined {
  return messages.find((m) => m.id !== undefined);
}
