import { parseBearer } from '../memory/auth/bearer.ts';

/** The shape `auth/bearer.ts` accepts for a management key, in words for people. */
export const BOOTSTRAP_PREFIX = 'mem_management_';
export const BOOTSTRAP_RANDOM_MIN = 20;
export const BOOTSTRAP_RANDOM_MAX = 128;
const ALLOWED = /^[A-Za-z0-9_-]*$/;

const RULE = `${BOOTSTRAP_PREFIX} followed by ${BOOTSTRAP_RANDOM_MIN} to ${BOOTSTRAP_RANDOM_MAX} characters from A-Z a-z 0-9 _ -`;
const FIX =
  'fix: put such a key in .dev.vars (or delete the line and `npm start` writes a fresh one); in production, `wrangler secret put MEMORY_BOOTSTRAP_KEY`';

/**
 * Why the service would reject `key` as its bootstrap management key, or null when it accepts it.
 * Acceptance is decided by the same parser that reads every `Authorization` header, so start-up
 * and requests can never disagree; the words only say which part of the rule was broken.
 */
export function bootstrapKeyProblem(key: string | undefined): string | null {
  if (key === undefined || key === '') {
    return `is not set; it must be ${RULE}; ${FIX}`;
  }
  if (parseBearer(`Bearer ${key}`)?.kind === 'management') return null;
  let why: string;
  if (!key.startsWith(BOOTSTRAP_PREFIX)) {
    why = `it does not start with ${BOOTSTRAP_PREFIX}`;
  } else {
    const random = key.slice(BOOTSTRAP_PREFIX.length);
    if (!ALLOWED.test(random)) why = 'it has characters outside A-Z a-z 0-9 _ -';
    else if (random.length < BOOTSTRAP_RANDOM_MIN)
      why = `it has only ${random.length} characters after the prefix`;
    else if (random.length > BOOTSTRAP_RANDOM_MAX)
      why = `it has ${random.length} characters after the prefix`;
    else why = 'the API key parser rejects it';
  }
  return `is refused: it must be ${RULE}, but ${why}; ${FIX}`;
}
