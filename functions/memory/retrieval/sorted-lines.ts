/**
 * A read-only table from words to JSON values kept as its text, one `key<TAB>value` line a key,
 * sorted by key: a look-up is a binary search over the line starts and parses only its own
 * value. Building an object of every entry instead (`JSON.parse` of compromise's 24,000-word
 * lexicon: about 22 ms) is work a cold question paid for the few words it looks up.
 */
export class SortedLines {
  private readonly text: string;
  private readonly starts: Uint32Array;

  constructor(text: string) {
    this.text = text;
    let count = text.length === 0 ? 0 : 1;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count += 1;
    this.starts = new Uint32Array(count);
    let line = 0;
    if (count > 0) this.starts[line++] = 0;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
      this.starts[line++] = i + 1;
    }
  }

  /** The line's key: up to its tab. */
  private keyAt(line: number): string {
    const start = this.starts[line] ?? 0;
    return this.text.slice(start, this.text.indexOf('\t', start));
  }

  /** The JSON text of `key`'s value, or undefined when the table does not list it. */
  private valueText(key: string): string | undefined {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.keyAt(mid);
      if (at === key) {
        const start = (this.starts[mid] ?? 0) + at.length + 1;
        const end = mid + 1 < this.starts.length ? (this.starts[mid + 1] ?? 0) - 1 : undefined;
        return this.text.slice(start, end);
      }
      if (at < key) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  has(key: string): boolean {
    return this.valueText(key) !== undefined;
  }

  /** `key`'s value, parsed, or undefined. */
  get(key: string): unknown {
    const text = this.valueText(key);
    return text === undefined ? undefined : JSON.parse(text);
  }
}

/** The text of a table (the build writes it): every own entry, sorted by key as `<` orders. */
export function sortedLinesOf(table: Record<string, unknown>): string {
  const keys = Object.keys(table).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return keys
    .map((key) => {
      if (/[\t\n]/.test(key)) throw new Error(`a table key holds a tab or a newline: ${key}`);
      return `${key}\t${JSON.stringify(table[key])}`;
    })
    .join('\n');
}
