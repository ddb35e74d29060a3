import type { AstroIntegration } from 'astro';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sectionOf, socialImagePath } from '../lib/page-section.ts';
import { socialCard } from '../lib/social-card.ts';

/** Every .html file under `dir`, as paths relative to it. */
function htmlFiles(dir: string, root = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name);
    if (e.isDirectory()) return e.name.startsWith('_') ? [] : htmlFiles(full, root);
    return e.name.endsWith('.html') ? [relative(root, full)] : [];
  });
}

function decode(text: string): string {
  return text
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

/** Writes one social image per built page, named by socialImagePath; returns how many. */
export function writeSocialImages(outDir: string, site: string): number {
  const host = new URL(site).host;
  let count = 0;
  for (const file of htmlFiles(outDir)) {
    const html = readFileSync(join(outDir, file), 'utf8');
    const title = /<meta name="engram:title" content="([^"]*)"/.exec(html)?.[1];
    if (title === undefined) continue;
    const path = `/${file.replace(/\.html$/, '').replace(/(^|\/)index$/, '')}`;
    const image = join(outDir, socialImagePath(path));
    mkdirSync(dirname(image), { recursive: true });
    writeFileSync(
      image,
      socialCard({
        title: decode(title),
        section: sectionOf(path),
        address: `${host}${path === '/' ? '' : path}`,
      }),
    );
    count++;
  }
  return count;
}

/**
 * The Open Graph / Twitter image of every page (src/lib/social-card.ts), drawn after the build
 * from each page's `engram:title`, so the image and the page cannot disagree.
 */
export function socialImages(): AstroIntegration {
  let site = 'https://engram.example';
  return {
    name: 'social-images',
    hooks: {
      'astro:config:done': ({ config }) => {
        if (config.site) site = config.site;
      },
      'astro:build:done': ({ dir, logger }) => {
        const started = performance.now();
        const count = writeSocialImages(fileURLToPath(dir), site);
        logger.info(
          `${count} social images written in ${Math.round(performance.now() - started)} ms`,
        );
      },
    },
  };
}
