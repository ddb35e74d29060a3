import { vi, expect } from 'vitest';
import { api } from '../jobs/helpers.ts';

export interface DocumentBody {
  id: string;
  status: string;
  error: string | null;
  deduplicated?: boolean;
  filename: string | null;
  content_type: string;
  size_bytes: number;
  pages: number | null;
  chunk_count: number | null;
  processing_started_at: string | null;
  processing_completed_at: string | null;
}

export async function uploadRaw(
  ctx: string,
  body: BodyInit,
  contentType: string,
  query = '',
): Promise<Response> {
  return api(`/api/v1/${ctx}/documents${query}`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body,
  });
}

export async function uploadMultipart(
  ctx: string,
  file: File,
  fields: Record<string, string> = {},
): Promise<Response> {
  const form = new FormData();
  form.set('file', file);
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  return api(`/api/v1/${ctx}/documents`, { method: 'POST', body: form });
}

export async function getDocument(ctx: string, id: string): Promise<Response> {
  return api(`/api/v1/${ctx}/documents/${encodeURIComponent(id)}`);
}

/** Polls the document, as a client would, until processing has ended (ready or failed). */
export async function settle(ctx: string, id: string): Promise<DocumentBody> {
  let last: DocumentBody | null = null;
  await vi.waitFor(
    async () => {
      const res = await getDocument(ctx, id);
      expect(res.status).toBe(200);
      last = (await res.json()) as DocumentBody;
      expect(['ready', 'failed']).toContain(last.status);
    },
    { timeout: 20_000, interval: 100 },
  );
  if (last === null) throw new Error('document never settled');
  return last;
}

export interface QueryHit {
  id: string;
  kind: string;
  content: string;
  metadata?: Record<string, unknown> | null;
}

export async function query(ctx: string, text: string, mode: string): Promise<QueryHit[]> {
  const res = await api(`/api/v1/${ctx}/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: text, mode, k: 10 }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { results: QueryHit[] }).results;
}

export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
