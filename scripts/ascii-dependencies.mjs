// Rewrites the few dependencies whose JavaScript holds non-ASCII characters outside strings
// (compromise's and chrono-node's regular-expression literals: typographic quotes and dashes)
// with `\u` escapes, so that the Worker script wrangler bundles is ASCII. esbuild escapes such
// characters in strings but copies regular-expression literals as written, and one character
// above U+00FF anywhere makes V8 keep the whole 4.4 MB source two bytes a character: about 4 MiB
// of every isolate's heap (docs/self-hosting.md, "Start-up: time and heap"). The escapes mean the
// same to the parser, so behaviour does not change; test/build/worker-bundle.test.ts fails if the
// bundle stops being ASCII.
//
// Run by npm as `postinstall` (plain JavaScript: the `node` devDependency may not be on the path
// yet, and Node 20 does not run TypeScript). Idempotent: an escaped file has nothing left to do.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Packages the Worker bundles whose code holds non-ASCII characters esbuild does not escape. */
export const PACKAGES = ['compromise', 'chrono-node'];

const SCRIPT = /\.(?:js|mjs|cjs)$/;

function hex(unit) {
  return `\\u${unit.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * The source with every non-ASCII character written as `\uXXXX` (an astral one as its two
 * surrogates, which strings and regular expressions with or without the `u` flag read as the same
 * code point). A character written after a lone backslash (an identity escape, `\’`) loses the
 * backslash, since `\\u2019` would read as a backslash and "u2019". A leading byte-order mark goes.
 */
export function escapeNonAscii(source) {
  let out = '';
  let start = source.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (let i = start; i < source.length; i += 1) {
    const unit = source.charCodeAt(i);
    if (unit < 0x80) continue;
    let head = source.slice(start, i);
    let slashes = 0;
    while (slashes < head.length && head[head.length - 1 - slashes] === '\\') slashes += 1;
    if (slashes % 2 === 1) head = head.slice(0, -1);
    out += head + hex(unit);
    start = i + 1;
  }
  return out + source.slice(start);
}

function* scripts(dir) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules') continue;
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isDirectory()) yield* scripts(path);
    else if (SCRIPT.test(name)) yield path;
  }
}

/** Whether Node still parses the file (as the module kind its package gives it). */
function parses(path) {
  try {
    execFileSync(process.execPath, ['--check', path], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Escapes every script of the package at `root`; returns how many files changed. */
export function escapePackage(root) {
  let changed = 0;
  for (const path of scripts(root)) {
    const source = readFileSync(path, 'utf8');
    // eslint-disable-next-line no-control-regex -- the test is for anything outside ASCII
    if (!/[^\x00-\x7f]/.test(source)) continue;
    writeFileSync(path, escapeNonAscii(source));
    // Only a space or line break outside ASCII can stand between tokens, where an escape is
    // not allowed; other characters are inside literals, comments or names. Such a file is
    // parsed again (a process each, so not every file: the packages have hundreds).
    if (!/[\s\ufeff]/u.test(source.replace(/[\x00-\x7f]+/g, '')) || parses(path)) changed += 1;
    else {
      // A character outside any literal (a non-ASCII space between tokens) cannot be escaped:
      // keep the file as it was; the bundle test names what is left.
      writeFileSync(path, source);
      console.warn(`ascii-dependencies: left ${path} as it was (it would not parse escaped)`);
    }
  }
  return changed;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const name of PACKAGES) {
    // The hoisted copy, the one the bundler resolves (a package's `exports` may not list its
    // package.json, so it is not resolved through `require`).
    const root = join(process.cwd(), 'node_modules', name);
    if (!existsSync(root)) continue;
    const changed = escapePackage(root);
    if (changed > 0) console.log(`ascii-dependencies: ${name}: ${changed} files escaped`);
  }
}
