import type { AstroIntegration } from 'astro';
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { htmlToMarkdown } from '../lib/html-to-markdown.ts';

/** Writes everything an agent needs beside the prebuilt pages. */
export function agentReady(): AstroIntegration {
  return {
    name: 'agent-ready',
    hooks: {
      'astro:build:done': async ({ dir }) => {
        const out = fileURLToPath(dir);
        const html = await readFile(`${out}/index.html`, 'utf8');
        const main = /<main>([\s\S]*)<\/main>/.exec(html)?.[1] ?? '';
        await writeFile(`${out}/index.md`, htmlToMarkdown(main));
      },
    },
  };
}
