import { workersConfig } from './test/support/workers-config.ts';

// The security table and the search suites again, with each Context's object held to a 1 KiB
// memory budget (store/memory-budget.ts): nothing fits, so every search takes the paths a
// Context too large for memory takes (vectors streamed from SQLite, bm25 ranked by FTS5 from
// disk, nothing kept between searches), and every scope, lens, supersession and deletion rule
// must hold through them unchanged (issue 38).
export default await workersConfig(
  [
    'test/workers/security/security-table.test.ts',
    'test/workers/security/security-table-mcp.test.ts',
    'test/workers/security/tenancy.test.ts',
    'test/workers/memory/query.test.ts',
    'test/workers/memory/query-explain.test.ts',
    'test/workers/memory/entities.test.ts',
    'test/workers/memory/fact-versions.test.ts',
    'test/workers/memory/facts.test.ts',
    'test/workers/memory/neighbours.test.ts',
    'test/workers/memory/memory-budget-config.test.ts',
  ],
  { CONTEXT_MEMORY_BUDGET_KIB: '1' },
);
