import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { socialImagePath } from '../../src/lib/page-section.ts';
import { DIST, SITE, htmlPages, read } from './dist.ts';

const fileOf = (path: string) => (path === '/' ? 'index.html' : `${path.slice(1)}.html`);
const meta = (html: string, attr: 'property' | 'name', key: string) =>
  new RegExp(`<meta ${attr}="${key}" content="([^"]*)"`).exec(html)?.[1];

describe('canonical, Open Graph and Twitter tags', () => {
  const pages = htmlPages();

  it('every page names its canonical URL, title, description and image', () => {
    expect(pages.length).toBeGreaterThan(30);
    for (const path of pages) {
      const html = read(fileOf(path));
      const url = `${SITE}${path === '/' ? '/' : path}`;
      expect(/<link rel="canonical" href="([^"]+)"/.exec(html)?.[1], path).toBe(url);
      expect(meta(html, 'property', 'og:url'), path).toBe(url);
      expect(meta(html, 'property', 'og:title'), path).toBe(
        /<title>([^<]*)<\/title>/.exec(html)?.[1],
      );
      expect(meta(html, 'property', 'og:description'), path).toBe(
        meta(html, 'name', 'description'),
      );
      expect(meta(html, 'name', 'twitter:card'), path).toBe('summary_large_image');
      const image = `${SITE}${socialImagePath(path)}`;
      expect(meta(html, 'property', 'og:image'), path).toBe(image);
      expect(meta(html, 'name', 'twitter:image'), path).toBe(image);
    }
  });

  it('the 404 page has no canonical address', () => {
    expect(read('404.html')).not.toContain('rel="canonical"');
  });

  it('each page’s image exists: a 1200x630 RGB PNG, different for different pages', () => {
    const seen = new Set<string>();
    for (const path of pages) {
      const png = readFileSync(`${DIST}${socialImagePath(path)}`);
      expect(png.subarray(1, 4).toString('ascii'), path).toBe('PNG');
      expect([png.readUInt32BE(16), png.readUInt32BE(20), png[25]], path).toEqual([1200, 630, 2]);
      seen.add(png.toString('base64'));
    }
    expect(seen.size).toBe(pages.length);
  });
});

describe('a social image is the page’s card', () => {
  it('decodes to 630 rows of 1200 pixels with light title ink on the dark theme', () => {
    const png = readFileSync(`${DIST}${socialImagePath('/docs/quickstart')}`);
    const idat = png.indexOf('IDAT');
    const length = png.readUInt32BE(idat - 4);
    const raw = inflateSync(png.subarray(idat + 4, idat + 4 + length));
    expect(raw.length).toBe(630 * (1200 * 3 + 1));
    // Undo the Sub filter of one title row and look for the ink colour (230, 232, 235).
    const row = 240 * (1200 * 3 + 1);
    expect(raw[row]).toBe(1);
    const pixels: number[] = [];
    for (let x = 0; x < 1200 * 3; x++) {
      pixels.push(((raw[row + 1 + x] ?? 0) + (x >= 3 ? (pixels[x - 3] ?? 0) : 0)) & 0xff);
    }
    const inked = pixels.findIndex((v, i) => i % 3 === 0 && v === 230 && pixels[i + 1] === 232);
    expect(inked).toBeGreaterThan(0);
    expect(pixels[0]).toBeLessThan(40);
  });
});
