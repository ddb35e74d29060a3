import { describe, expect, it } from 'vitest';
import { htmlToMarkdown, resolveUrl } from './html-to-markdown.ts';

const PAGE = 'https://engram.example/learn/memory-basics/retrieval';
const page = (main: string): string =>
  `<!doctype html><html><head><title>T</title><script>var x = 1</script></head><body><header><nav><a href="/">Home</a></nav></header><main>${main}</main><footer>Footer text</footer></body></html>`;
const convert = (main: string): string => htmlToMarkdown(page(main), { pageUrl: PAGE });

describe('htmlToMarkdown', () => {
  it('converts only <main>: no navigation, footer or scripts', () => {
    const md = convert('<h1>Title</h1><p>Body</p>');
    expect(md).toBe('# Title\n\nBody\n');
  });

  it('keeps heading levels', () => {
    expect(convert('<h1>A</h1><h2>B</h2><h3>C</h3>')).toBe('# A\n\n## B\n\n### C\n');
  });

  it('resolves relative links against the page URL to root-relative paths', () => {
    expect(
      convert('<p><a href="hybrid-search">next</a> <a href="../foundations#x">up</a></p>'),
    ).toBe('[next](/learn/memory-basics/hybrid-search) [up](/learn/foundations#x)\n');
  });

  it('makes same-origin absolute links root-relative and keeps other origins absolute', () => {
    expect(
      convert(
        '<p><a href="https://engram.example/pricing?x=1">p</a> <a href="https://other.example/a">o</a></p>',
      ),
    ).toBe('[p](/pricing?x=1) [o](https://other.example/a)\n');
  });

  it('leaves mailto links alone', () => {
    expect(convert('<p><a href="mailto:hi@engram.example">mail</a></p>')).toBe(
      '[mail](mailto:hi@engram.example)\n',
    );
  });

  it('converts tables to GFM tables', () => {
    const md = convert(
      '<table><thead><tr><th>Mode</th><th>Rank</th></tr></thead><tbody><tr><td>bm25</td><td>FTS5</td></tr></tbody></table>',
    );
    expect(md).toBe('| Mode | Rank |\n| ---- | ---- |\n| bm25 | FTS5 |\n');
  });

  it('converts nested lists', () => {
    expect(convert('<ul><li>one</li><li>two<ol><li>inner</li></ol></li></ul>')).toBe(
      '- one\n- two\n  1. inner\n',
    );
  });

  it('fences code with the language of a highlighted block (pre data-language)', () => {
    const md = convert(
      '<pre class="astro-code" data-language="ts"><code><span class="line"><span>const a = 1;</span></span>\n<span class="line"><span>const b = 2;</span></span></code></pre>',
    );
    expect(md).toBe('```ts\nconst a = 1;\nconst b = 2;\n```\n');
  });

  it('fences code with the language of code.language-x', () => {
    expect(convert('<pre><code class="language-json">{"a": 1}</code></pre>')).toBe(
      '```json\n{"a": 1}\n```\n',
    );
  });

  it('keeps inline code and emphasis', () => {
    expect(
      convert('<p>Use <code>hybrid</code> for <em>most</em> <strong>queries</strong>.</p>'),
    ).toBe('Use `hybrid` for _most_ **queries**.\n');
  });

  it('drops form controls but keeps the text around them', () => {
    expect(
      convert(
        '<form><select><option>A</option></select><p>Total: <output>$5.00</output></p></form>',
      ),
    ).toBe('Total: $5.00\n');
  });

  it('drops blocks marked data-markdown="skip" at any depth, and hidden elements', () => {
    expect(
      convert(
        '<form data-markdown="skip"><label>Node</label></form><p>Kept</p><div><p hidden>Gone</p><p data-markdown="skip">Gone</p></div>',
      ),
    ).toBe('Kept\n');
  });

  it('converts a fragment without <main> whole', () => {
    expect(htmlToMarkdown('<h2>Only</h2>')).toBe('## Only\n');
  });
});

describe('resolveUrl', () => {
  const base = new URL('https://engram.example/docs/api/facts');
  it.each([
    ['query', '/docs/api/query'],
    ['#write', '/docs/api/facts#write'],
    ['/errors/not-found', '/errors/not-found'],
    ['https://engram.example/', '/'],
    ['https://github.com/x', 'https://github.com/x'],
    ['tel:+123', 'tel:+123'],
  ])('%s -> %s', (input, output) => {
    expect(resolveUrl(input, base)).toBe(output);
  });
  it('leaves links alone without a page URL', () => {
    expect(resolveUrl('query', undefined)).toBe('query');
  });
});
