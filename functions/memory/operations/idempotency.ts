import type { AuthContext } from '../auth/principal.ts';
import { MemoryError } from '../errors.ts';
import type { ContextStoreStub } from '../store/context-store.ts';

export interface StoredResponse {
  status: number;
  body: unknown;
  replayed: boolean;
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Runs a write under an `Idempotency-Key` (per Context and principal, 24 h): a replay returns
 * the stored status and body; another body or an in-flight duplicate is 409; a failure releases
 * the key. `write` must complete the record itself in the same store transaction as the write.
 */
export async function withIdempotency(
  store: ContextStoreStub,
  auth: AuthContext,
  key: string | null,
  request: { operation: string; body: unknown },
  write: (
    idempotent: { principalId: string; key: string } | null,
  ) => Promise<{ status: number; body: unknown }>,
): Promise<StoredResponse> {
  if (key === null) return { ...(await write(null)), replayed: false };
  if (key.length === 0 || key.length > 255) {
    throw new MemoryError({
      kind: 'validation-error',
      detail: 'Idempotency-Key: 1-255 characters',
    });
  }
  const hash = await sha256Hex(JSON.stringify(request));
  const start = await store.idempotencyBegin(auth.principal.id, key, hash);
  if (start.state === 'conflict') throw new MemoryError(start.failure);
  if (start.state === 'replay')
    return { status: start.status, body: JSON.parse(start.body) as unknown, replayed: true };
  try {
    return { ...(await write({ principalId: auth.principal.id, key })), replayed: false };
  } catch (err) {
    await store.idempotencyRelease(auth.principal.id, key);
    throw err;
  }
}
