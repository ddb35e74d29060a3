import type { D1Migration } from 'cloudflare:test';

// Bindings that only the workerd test runner adds (see vitest.workers.config.ts).
declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
    }
  }
}
