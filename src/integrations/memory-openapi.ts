import type { AstroIntegration } from 'astro';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MEMORY_OPENAPI_FILE } from '../api-reference/sources.ts';

/**
 * Exports the memory API's OpenAPI document for the API reference pages before any page renders.
 * It runs scripts/export-memory-openapi.ts in a child process (the script, not this module, loads
 * the Worker code, so the build's layers stay apart) and fails the build if that fails.
 */
export function memoryOpenApi(): AstroIntegration {
  return {
    name: 'memory-openapi',
    hooks: {
      'astro:config:setup': ({ config, logger }) => {
        const root = fileURLToPath(config.root);
        const started = performance.now();
        const result = spawnSync(
          process.execPath,
          [
            '--experimental-transform-types',
            '--no-warnings',
            join(root, 'scripts/export-memory-openapi.ts'),
            join(root, MEMORY_OPENAPI_FILE),
          ],
          { cwd: root, encoding: 'utf8' },
        );
        if (result.status !== 0) {
          throw new Error(
            `Exporting the memory API's OpenAPI document failed (scripts/export-memory-openapi.ts):\n${result.stderr}`,
          );
        }
        logger.info(`memory API OpenAPI exported in ${Math.round(performance.now() - started)} ms`);
      },
    },
  };
}
