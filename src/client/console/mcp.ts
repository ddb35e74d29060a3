/**
 * The few reads and writes REST does not offer yet (a fact's version chain, a new version that
 * supersedes the old, the entity list) come from the same service's MCP tools, called with the
 * same key: one JSON-RPC `tools/call` per request, which the stateless `/mcp` answers as JSON.
 * Same grants, same lens, same tenancy checks as REST (docs/mcp.md).
 */
import { ApiError, SignedOutError } from './api.ts';
import { currentSession } from './session.ts';

interface ToolResponse {
  result?: { isError?: boolean; structuredContent?: unknown; content?: { text?: string }[] };
  error?: { code: number; message: string };
}

let nextId = 1;

export async function callTool<T>(name: string, args: Record<string, unknown>): Promise<T> {
  const session = currentSession();
  if (session === null) throw new SignedOutError();
  const res = await fetch('/mcp', {
    method: 'POST',
    headers: {
      authorization: `Bearer ${session.key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method: 'tools/call',
      params: { name, arguments: args },
    }),
    credentials: 'omit',
    cache: 'no-store',
  });
  const body = (await res.json().catch(() => ({}))) as ToolResponse;
  if (!res.ok || body.error) {
    const detail = body.error?.message ?? `HTTP ${res.status}`;
    throw new ApiError(res.status, { title: 'MCP', status: res.status, detail });
  }
  const result = body.result;
  if (result?.isError) {
    const detail = result.content?.map((c) => c.text ?? '').join(' ') ?? 'tool failed';
    throw new ApiError(400, { title: name, status: 400, detail });
  }
  return result?.structuredContent as T;
}
