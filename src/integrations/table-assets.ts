import type { AstroIntegration } from 'astro';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Writes the memory service's read-only tables (word vectors, tokenizer ranks) into the build
 * output as static assets, which the Worker reads through its ASSETS binding rather than carrying
 * them in its script (docs/self-hosting.md). Like memory-openapi.ts it runs a script in a child
 * process, so that this module loads no Worker code; any failure fails the build.
 */
export function tableAssets(): AstroIntegration {
  let root = '';
  return {
    name: 'table-assets',
    hooks: {
      'astro:config:setup': ({ config }) => {
        root = fileURLToPath(config.root);
      },
      'astro:build:done': ({ dir, logger }) => {
        const started = performance.now();
        const result = spawnSync(
          process.execPath,
          [
            '--experimental-transform-types',
            '--no-warnings',
            join(root, 'scripts/table-assets.ts'),
            fileURLToPath(dir),
          ],
          { cwd: root, encoding: 'utf8' },
        );
        if (result.status !== 0) {
          throw new Error(
            `Writing the table assets failed (scripts/table-assets.ts):\n${result.stderr}`,
          );
        }
        logger.info(`table assets written in ${Math.round(performance.now() - started)} ms`);
      },
    },
  };
}
