import type { z } from 'zod';

/**
 * Formats zod issues as build errors that name the file, the path inside it and the rule
 * broken, e.g. `content/pricing/catalogue.json: cloud[1].cta.href: must be absent ...`.
 */
export function formatIssues(
  file: string,
  issues: readonly z.core.$ZodIssue[],
  prefix: readonly PropertyKey[] = [],
): string {
  const lines = issues.map(
    (issue) => `${file}: ${formatPath([...prefix, ...issue.path])}: ${issue.message}`,
  );
  return `Invalid content in ${file}:\n  ${lines.join('\n  ')}`;
}

export function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

/** Parses `data` or throws an Error whose message is {@link formatIssues}. */
export function parseOrThrow<T extends z.ZodType>(
  schema: T,
  data: unknown,
  file: string,
  prefix: readonly PropertyKey[] = [],
): z.output<T> {
  const result = schema.safeParse(data);
  if (!result.success) throw new Error(formatIssues(file, result.error.issues, prefix));
  return result.data;
}
