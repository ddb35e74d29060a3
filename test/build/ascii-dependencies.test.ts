import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  escapeNonAscii as escape,
  escapePackage as escapeDir,
} from '../../scripts/ascii-dependencies.mjs';

/** Evaluates an expression the way a module would, in this process. */
const value = (expression: string): unknown => new Function(`return (${expression});`)();

describe('escaping non-ASCII characters in dependencies (scripts/ascii-dependencies.mjs)', () => {
  it('keeps what regular expressions match, with and without the u flag', () => {
    const sources = [
      String.raw`/[-–—]/`,
      String.raw`/^\p{Lu}[\p{Ll}'’]/u`,
      String.raw`/[a-z0-9][-–—][a-z]/i`,
      String.raw`/😀+/u`,
      String.raw`/[\’]/`,
    ];
    const inputs = ['a–b', 'x—', 'Don’t', "Don't", 'a-b', '😀😀', '’', 'plain'];
    for (const source of sources) {
      const escaped = escape(source);
      expect(escaped).toMatch(/^[\x00-\x7f]*$/u);
      const before = value(source) as RegExp;
      const after = value(escaped) as RegExp;
      expect(after.flags).toBe(before.flags);
      for (const input of inputs) expect(after.test(input)).toBe(before.test(input));
    }
  });

  it('keeps strings, identity escapes and names; drops a byte-order mark', () => {
    expect(value(escape("'¦ café ’ 😀'"))).toBe('¦ café ’ 😀');
    expect(value(escape(String.raw`'\’'`))).toBe('’');
    expect(value(escape(String.raw`'\\’'`))).toBe('\\’');
    expect(value(escape('((naïve) => naïve + 1)(1)'))).toBe(2);
    expect(escape('\ufeff1')).toBe('1');
  });

  it('rewrites a package once and leaves a file that would not parse escaped as it was', () => {
    const root = mkdtempSync(join(tmpdir(), 'engram-ascii-'));
    try {
      writeFileSync(join(root, 'package.json'), '{"type":"module"}');
      writeFileSync(join(root, 'a.js'), 'export const dash = /[–—]/;\n');
      // A no-break space between tokens: whitespace to the parser, not allowed as an escape.
      writeFileSync(join(root, 'b.js'), 'export const\u00a0x = 1;\n');
      writeFileSync(join(root, 'c.js'), 'export const y = 2;\n');
      expect(escapeDir(root)).toBe(1);
      expect(readFileSync(join(root, 'a.js'), 'utf8')).toBe(
        'export const dash = /[\\u2013\\u2014]/;\n',
      );
      expect(readFileSync(join(root, 'b.js'), 'utf8')).toBe('export const\u00a0x = 1;\n');
      expect(escapeDir(root)).toBe(0);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
