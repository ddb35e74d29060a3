import { applyD1Migrations, env } from 'cloudflare:test';

// Runs before every test file: the control plane schema, exactly as `npm start` applies it.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
