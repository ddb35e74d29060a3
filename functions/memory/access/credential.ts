import { hashSecret, parseBearer } from '../auth/bearer.ts';
import { MemoryError } from '../errors.ts';
import type { Credential } from './access-types.ts';

/** The credential of an `Authorization` header, or 401 when it is missing or malformed. */
export async function credentialOf(header: string | undefined | null): Promise<Credential> {
  const parsed = parseBearer(header);
  if (!parsed) {
    throw new MemoryError({
      kind: 'unauthorized',
      detail: header
        ? 'the bearer key is malformed (expected mem_<kind>_<secret>)'
        : 'missing Authorization: Bearer <key>',
    });
  }
  return { kind: parsed.kind, hash: await hashSecret(parsed.secret) };
}
