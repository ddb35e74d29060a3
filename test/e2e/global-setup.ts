import type { TestProject } from 'vitest/node';
import { startDevServer } from '../support/wrangler-dev.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    bootstrapKey: string;
  }
}

// One `wrangler dev` for the whole Node run: the end-to-end and browser suites share it.
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startDevServer();
  project.provide('baseUrl', server.url);
  project.provide('bootstrapKey', server.bootstrapKey);
  return () => server.stop();
}
