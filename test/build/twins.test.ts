import { readFileSync } from 'node:fs';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { ERROR_TYPES } from '../../src/lib/error-catalog.ts';
import { CONTENT, distFiles, htmlPages, manifest, read } from './dist.ts';

const SEGMENT = /^[A-Za-z0-9._~@-]+$/;
const twinOf = (path: string): string => (path === '/' ? '/index.md' : `${path}.md`);
const count = (text: string): number => countTokens(text, { disallowedSpecial: new Set() });

describe('markdown twins', () => {
  const pages = htmlPages();

  it('builds at least 30 HTML pages', () => {
    expect(pages.length).toBeGreaterThanOrEqual(30);
  });

  it('writes the homepage twin as index.md starting with a level-one heading', () => {
    expect(read('index.md').startsWith('# ')).toBe(true);
  });

  it('writes a twin for every page, beginning with a level-one heading', () => {
    for (const path of pages) {
      const md = read(twinOf(path));
      expect(md.startsWith('# '), `${twinOf(path)} starts ${JSON.stringify(md.slice(0, 40))}`).toBe(
        true,
      );
    }
  });

  it('keeps every page at most four segments, each matching the segment pattern', () => {
    for (const path of pages) {
      const segments = path.split('/').filter(Boolean);
      expect(segments.length, path).toBeLessThanOrEqual(4);
      for (const s of segments) expect(s, path).toMatch(SEGMENT);
    }
  });

  it('has no twin without its page', () => {
    const twins = distFiles().filter(
      (f) => f.endsWith('.md') && !f.startsWith('.well-known/') && !f.startsWith('_'),
    );
    const expected = new Set(pages.map((p) => twinOf(p).slice(1)));
    for (const t of twins) expect(expected.has(t), t).toBe(true);
  });

  it('leaves navigation and footer out of the twins', () => {
    const home = read('index.md');
    expect(home).not.toContain('Engram: memory for AI agents, on the edge.');
    expect(read('pricing.md')).not.toMatch(/^- \[Docs\]\(\/docs\)$/m);
  });

  it('serves /auth.md as the twin of /auth', () => {
    expect(pages).toContain('/auth');
    expect(read('auth.md').startsWith('# ')).toBe(true);
  });

  it('has an /errors/<slug> page and twin for every error type', () => {
    for (const e of ERROR_TYPES) {
      expect(pages).toContain(`/errors/${e.slug}`);
      const md = read(`errors/${e.slug}.md`);
      expect(md).toContain(e.code);
      expect(md).toContain(`"status": ${e.status}`);
    }
  });

  it('has learn pages at depths 1, 2, 3 and 4', () => {
    const depths = new Set(
      pages.filter((p) => p.startsWith('/learn')).map((p) => p.split('/').filter(Boolean).length),
    );
    expect([...depths].sort()).toEqual([1, 2, 3, 4]);
  });

  it('twins blog posts from their authored source, frontmatter removed', () => {
    const posts = pages.filter((p) => p.startsWith('/blog/'));
    expect(posts.length).toBeGreaterThanOrEqual(1);
    for (const post of posts) {
      const source = readFileSync(`${CONTENT}/blog/${post.slice('/blog/'.length)}.md`, 'utf8');
      const body = source
        .replace(/^---\r?\n[\s\S]*?\r?\n---[ \t]*\r?\n/, '')
        .replace(/^(\s*\n)+/, '');
      expect(read(`${post}.md`)).toBe(body);
    }
  });

  it('keeps tables, fenced code with a language and root-relative links in converted twins', () => {
    const errors = read('errors/not-found.md');
    expect(errors).toMatch(/^\| Field +\| Value +\|$/m);
    expect(errors).toContain('```json\n');
    expect(errors).toContain('](/errors)');
    expect(read('pricing.md')).toMatch(/^\| Plan +\| Node/m);
  });
});

describe('token manifest', () => {
  const m = manifest();

  it('lists every page with its twin', () => {
    expect(Object.keys(m.pages).sort()).toEqual(htmlPages());
    for (const [path, entry] of Object.entries(m.pages)) {
      expect(entry.path).toBe(path);
      expect(entry.twin).toBe(twinOf(path));
    }
  });

  it('counts twin and HTML tokens exactly with o200k_base', () => {
    expect(m.tokenizer).toBe('o200k_base');
    for (const entry of Object.values(m.pages)) {
      expect(entry.markdownTokens, entry.twin).toBe(count(read(entry.twin)));
      const html = entry.path === '/' ? 'index.html' : `${entry.path.slice(1)}.html`;
      expect(entry.originalTokens, html).toBe(count(read(html)));
      expect(entry.markdownTokens).toBeLessThan(entry.originalTokens);
    }
  });

  it('carries a title, a section and a YYYY-MM-DD lastmod per page', () => {
    for (const entry of Object.values(m.pages)) {
      expect(entry.title.length, entry.path).toBeGreaterThan(0);
      expect(entry.section, entry.path).toMatch(/^[a-z]+$/);
      expect(entry.lastmod, entry.path).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it('dates blog posts from their own frontmatter, not the build', () => {
    for (const entry of Object.values(m.pages).filter((e) => e.path.startsWith('/blog/'))) {
      const source = readFileSync(`${CONTENT}/blog/${entry.path.slice(6)}.md`, 'utf8');
      const updated = /^updated:\s*['"]?(\d{4}-\d{2}-\d{2})/m.exec(source)?.[1];
      const date = /^date:\s*['"]?(\d{4}-\d{2}-\d{2})/m.exec(source)?.[1];
      expect(entry.lastmod).toBe(updated ?? date);
    }
  });
});

describe('search index', () => {
  it('holds the title, URLs and twin text of every page', () => {
    const index = JSON.parse(read('_agent/search-index.json')) as {
      documents: { title: string; url: string; markdownUrl: string; text: string }[];
    };
    expect(index.documents).toHaveLength(htmlPages().length);
    for (const d of index.documents) {
      const twin = new URL(d.markdownUrl).pathname;
      expect(d.text).toBe(read(twin));
      expect(d.title.length).toBeGreaterThan(0);
    }
  });
});
