import type { AstroIntegration } from 'astro';
import { fileURLToPath } from 'node:url';
import { CONTENT_ROOT } from '../lib/content-root.ts';
import { buildAgentFiles } from './build-agent-files.ts';

/**
 * Writes everything an agent needs beside the prebuilt pages: twins, token manifest, indexes,
 * discovery documents. Runs once at `astro:build:done`; any failure fails the build.
 */
export function agentReady(): AstroIntegration {
  let site = 'https://engram.example';
  return {
    name: 'agent-ready',
    hooks: {
      'astro:config:done': ({ config }) => {
        if (config.site) site = config.site;
      },
      'astro:build:done': async ({ dir, logger }) => {
        const started = performance.now();
        const summary = await buildAgentFiles({
          outDir: fileURLToPath(dir),
          site,
          contentRoot: CONTENT_ROOT,
        });
        const ms = Math.round(performance.now() - started);
        logger.info(
          `${summary.pages} pages twinned, ${summary.files} agent files written in ${ms} ms`,
        );
      },
    },
  };
}
