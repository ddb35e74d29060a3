import { env } from 'cloudflare:test';
import { loadTables } from '../../functions/memory/tables/load-tables.ts';

// Runs before every test file: the read-only tables (word vectors, tokenizer ranks) from the
// built assets, as the Context's object and the queue consumer load them, so that unit tests
// calling retrieval or token counts directly find them (needs `npm run build`).
await loadTables(env.ASSETS);
