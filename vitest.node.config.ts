import { defineConfig } from 'vitest/config';

// Tests that run in Node: unit tests of src/ and scripts, the built output in dist/, and the
// end-to-end and browser suites against a real `wrangler dev` (started once in global setup).
export default defineConfig({
  test: {
    include: [
      'src/**/*.test.ts',
      'test/build/**/*.test.ts',
      'test/e2e/**/*.test.ts',
      'sdk/js/**/*.test.ts',
    ],
    globalSetup: ['./test/e2e/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // One wrangler dev and one Chromium at a time on a 2-core machine.
    fileParallelism: false,
  },
});
