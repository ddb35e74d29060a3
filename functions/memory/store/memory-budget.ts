/**
 * One memory budget per Context database: every structure a Context's object keeps across
 * requests (the exact vector matrix of a small Context, IVF centroids, the in-memory postings
 * index, the search's memoised candidate reads, graph edges, document frequencies) is a *part*
 * that reports its size in bytes. After each search and write the budget adds the parts up and,
 * while the total is over the limit, drops whole parts, the least recently used first.
 *
 * Why whole parts: each is a cache of what SQLite holds, so dropping one never changes an answer
 * (the next search reads SQLite again, or rebuilds the part if it still fits), and a part that
 * cannot fit on its own is never built (`fits`). Sizes are estimates of V8's layout (typed arrays
 * exactly; arrays, maps and strings by a per-entry constant), good to tens of per cent, which is
 * what a budget of a few MiB needs; the scale bench measures the real heap through the inspector.
 */

export interface BudgetPart {
  /** Bytes the part holds now. */
  bytes(): number;
  /** Lets go of everything the part holds (it may rebuild later, from SQLite). */
  drop(): void;
}

/** Default budget of one Context's object: `CONTEXT_MEMORY_BUDGET_KIB` overrides it. */
export const DEFAULT_BUDGET_BYTES = 8 * 1024 * 1024;

interface Entry {
  part: BudgetPart;
  used: number;
}

export class MemoryBudget {
  limit: number;
  private readonly parts = new Map<string, Entry>();
  private clock = 0;

  constructor(limit: number = DEFAULT_BUDGET_BYTES) {
    this.limit = limit;
  }

  /** Registers (or replaces) the part named `name`, as just used. */
  register(name: string, part: BudgetPart): void {
    this.parts.set(name, { part, used: ++this.clock });
  }

  /** Marks `name` as used now (it goes last when parts are dropped). */
  touch(name: string): void {
    const entry = this.parts.get(name);
    if (entry) entry.used = ++this.clock;
  }

  /** Whether a structure of `bytes` may be built at all: at most half the budget for one part. */
  fits(bytes: number): boolean {
    return bytes <= this.limit / 2;
  }

  total(): number {
    let sum = 0;
    for (const { part } of this.parts.values()) sum += part.bytes();
    return sum;
  }

  /** Bytes by part, for tests and the usage report. */
  report(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [name, { part }] of this.parts) out[name] = part.bytes();
    return out;
  }

  /** Drops least recently used parts until the total is within the limit. */
  settle(): void {
    let total = this.total();
    if (total <= this.limit) return;
    const order = [...this.parts.entries()].sort((a, b) => a[1].used - b[1].used);
    for (const [, { part }] of order) {
      if (total <= this.limit) return;
      const before = part.bytes();
      if (before === 0) continue;
      part.drop();
      total -= before - part.bytes();
    }
  }
}

const budgets = new WeakMap<SqlStorage, MemoryBudget>();

/** The budget of `sql`'s Context (made on first use, with the default limit). */
export function budgetOf(sql: SqlStorage): MemoryBudget {
  let budget = budgets.get(sql);
  if (!budget) {
    budget = new MemoryBudget();
    budgets.set(sql, budget);
  }
  return budget;
}

/** Sets the limit of `sql`'s budget: the object does, from `CONTEXT_MEMORY_BUDGET_KIB`. */
export function setBudgetLimit(sql: SqlStorage, bytes: number): void {
  const budget = budgetOf(sql);
  budget.limit = bytes;
  budget.settle();
}

/** A JavaScript string's heap size in V8 (one-byte strings; two-byte ones are rarer in text). */
export function stringBytes(s: string): number {
  return 16 + s.length;
}
