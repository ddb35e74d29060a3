/**
 * Token lifetimes of the OAuth provider (RFC 9700 §2.2.2, OAuth 2.1 §4.3.1): short access
 * tokens, refresh tokens that expire. `OAUTH_REFRESH_TOKEN_TTL_SECONDS` (a wrangler var or
 * `.dev.vars`) overrides the 30-day default; a value that is not a whole number of seconds in
 * range stops the OAuth endpoints with a message instead of silently meaning "never expires".
 */
export const ACCESS_TOKEN_TTL_SECONDS = 3600;
export const DEFAULT_REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;
/** KV's shortest expiry is 60 s; a year is the longest lifetime we accept for a refresh token. */
const MIN_REFRESH_TTL = 60;
const MAX_REFRESH_TTL = 365 * 24 * 3600;

type OAuthSettingsEnv = Partial<Record<'OAUTH_REFRESH_TOKEN_TTL_SECONDS', string>>;

export function refreshTokenTtlSeconds(env: object): number {
  const raw = (env as OAuthSettingsEnv).OAUTH_REFRESH_TOKEN_TTL_SECONDS;
  if (raw === undefined || raw.trim() === '') return DEFAULT_REFRESH_TOKEN_TTL_SECONDS;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < MIN_REFRESH_TTL || value > MAX_REFRESH_TTL) {
    throw new Error(
      `OAUTH_REFRESH_TOKEN_TTL_SECONDS must be a whole number of seconds from ${MIN_REFRESH_TTL} to ${MAX_REFRESH_TTL} (got "${raw}"); unset it for the default of 30 days`,
    );
  }
  return value;
}
