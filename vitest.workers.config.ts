import { workersConfig } from './test/support/workers-config.ts';

// Tests that run inside workerd against the real bindings declared in wrangler.toml.
export default await workersConfig(['functions/**/*.test.ts', 'test/workers/**/*.test.ts']);
