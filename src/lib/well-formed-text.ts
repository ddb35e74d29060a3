/**
 * Only valid text is stored: a string with a lone UTF-16 surrogate has no UTF-8 form (SQLite and
 * D1 would store replacement bytes or garbage), and U+0000 ends a C string inside SQLite's own
 * functions. Both are refused; every other code point, noncharacters included, is valid text.
 * A regex rather than `String.prototype.isWellFormed` so the same check runs on Node 20 too.
 */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `text` is not storable text, or null when it is. */
export function textProblem(text: string): string | null {
  const surrogate = LONE_SURROGATE.exec(text);
  if (surrogate) {
    const code = surrogate[0].charCodeAt(0).toString(16).toUpperCase();
    return `a lone surrogate (U+${code}) at index ${surrogate.index} is not valid Unicode text`;
  }
  const nul = text.indexOf('\u0000');
  if (nul >= 0) return `U+0000 (NUL) at index ${nul} is not allowed in text`;
  return null;
}

export interface TextFault {
  /** Where the string sits, e.g. `facts[0].metadata.team` (a key: `metadata.<key>`). */
  path: string;
  problem: string;
}

const join = (path: string, key: string | number): string =>
  typeof key === 'number' ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`;

/** The first string (value or object key) in a parsed JSON value that is not valid text. */
export function findTextFault(value: unknown, path = ''): TextFault | null {
  if (typeof value === 'string') {
    const problem = textProblem(value);
    return problem ? { path: path || '(body)', problem } : null;
  }
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const fault = findTextFault(item, join(path, i));
      if (fault) return fault;
    }
    return null;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const keyProblem = textProblem(key);
      if (keyProblem) return { path: join(path, '<key>'), problem: `a key: ${keyProblem}` };
      const fault = findTextFault(item, join(path, key));
      if (fault) return fault;
    }
  }
  return null;
}
