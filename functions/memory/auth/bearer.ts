import type { PrincipalKind } from './principal.ts';

/** Key secrets look like `mem_<kind>_<random>`; random is 20..128 url-safe characters. */
const KEY_PATTERN = /^mem_(agent|supervisor|management)_([A-Za-z0-9_-]{20,128})$/;

export interface ParsedKey {
  secret: string;
  kind: PrincipalKind;
}

/** Parses `Authorization: Bearer <key>`; null when missing or malformed (both 401). */
export function parseBearer(header: string | undefined | null): ParsedKey | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const secret = match?.[1];
  if (!secret) return null;
  const parts = KEY_PATTERN.exec(secret);
  const kind = parts?.[1];
  if (kind !== 'agent' && kind !== 'supervisor' && kind !== 'management') return null;
  return { secret, kind };
}

/** A fresh secret for a principal kind: 32 random bytes, base64url. */
export function newKeySecret(kind: PrincipalKind): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `mem_${kind}_${base64url(bytes)}`;
}

export function base64url(bytes: Uint8Array): string {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** Hex SHA-256 of a secret: the only form in which keys are stored. */
export async function hashSecret(secret: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(secret));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Constant-time comparison of two equal-length strings (hex digests). */
export function constantTimeEqual(a: string, b: string): boolean {
  const ea = new TextEncoder().encode(a);
  const eb = new TextEncoder().encode(b);
  if (ea.byteLength !== eb.byteLength) return false;
  // workerd provides crypto.subtle.timingSafeEqual; it is not in every TS lib, so guard it.
  const subtle = crypto.subtle as SubtleCrypto & {
    timingSafeEqual?: (x: ArrayBufferView, y: ArrayBufferView) => boolean;
  };
  if (typeof subtle.timingSafeEqual === 'function') return subtle.timingSafeEqual(ea, eb);
  let diff = 0;
  for (let i = 0; i < ea.byteLength; i++) diff |= (ea[i] ?? 0) ^ (eb[i] ?? 0);
  return diff === 0;
}
