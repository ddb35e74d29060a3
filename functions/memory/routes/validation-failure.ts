import type { z } from '@hono/zod-openapi';
import { MemoryError, type FieldError } from '../errors.ts';

/** RFC 6901: `~` and `/` inside a key are escaped so the pointer stays unambiguous. */
function pointer(path: readonly PropertyKey[]): string {
  return path.map((p) => `/${String(p).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}

function isUnknownField(issue: z.core.$ZodIssue): boolean {
  return issue.code === 'custom' && issue.params?.unknown_field === true;
}

/**
 * The one 400 for a request that failed its zod schema: `detail` lists every issue in one
 * sentence (an unknown field reads `Unknown field 'a.b' in body`, as Stripe words it) and the
 * `errors` extension lists them again, one per field with a JSON Pointer.
 */
export function validationFailure(issues: readonly z.core.$ZodIssue[]): MemoryError {
  const errors: FieldError[] = issues.map((issue) => ({
    detail: isUnknownField(issue)
      ? issue.message
      : `${issue.path.length > 0 ? issue.path.join('.') : '(body)'}: ${issue.message}`,
    pointer: pointer(issue.path),
  }));
  return new MemoryError({
    kind: 'validation-error',
    detail: errors.map((e) => e.detail).join('; '),
    errors,
  });
}
