// The subset of a Durable Object's `ctx.storage` (`sql.exec`, `transactionSync`) that the store
// modules use, over Node's own SQLite (`node:sqlite`, FTS5 included), so the memory benchmark
// (scripts/bench/store-in-process.ts) can run the very functions the `ContextStore` object runs in
// the same process as its in-process peer. Statements are prepared once per SQL text and reused,
// as workerd's statement cache does; the Durable Object limit of 100 bound parameters holds here too.
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';

type Row = Record<string, SqlStorageValue>;

// node:sqlite hands BLOBs back as Uint8Array; workerd hands them back as ArrayBuffer.
function toStorageValue(value: unknown): SqlStorageValue {
  if (value instanceof Uint8Array)
    return value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength) as ArrayBuffer;
  if (typeof value === 'bigint') return Number(value);
  return value as SqlStorageValue;
}

function toInput(value: unknown): SQLInputValue {
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  return value as SQLInputValue;
}

class NodeCursor<T extends Row> implements Iterable<T> {
  private readonly rows: Iterator<T>;
  readonly columnNames: string[];
  readonly rowsRead = 0;
  readonly rowsWritten = 0;

  constructor(statement: StatementSync, bindings: unknown[]) {
    this.columnNames = statement.columns().map((c) => c.name);
    const inputs = bindings.map(toInput);
    if (this.columnNames.length === 0) {
      statement.run(...inputs);
      this.rows = [][Symbol.iterator]();
      return;
    }
    const source = statement.iterate(...inputs);
    this.rows = (function* () {
      for (const raw of source) {
        const row: Row = {};
        for (const [k, v] of Object.entries(raw as Record<string, unknown>))
          row[k] = toStorageValue(v);
        yield row as T;
      }
    })();
  }

  next(): IteratorResult<T, undefined> {
    const step = this.rows.next();
    return step.done ? { done: true, value: undefined } : step;
  }

  toArray(): T[] {
    return [...this];
  }

  one(): T {
    const rows = this.toArray();
    const first = rows[0];
    if (rows.length !== 1 || first === undefined)
      throw new Error(`Expected exactly one result from SQL query, but got ${rows.length}.`);
    return first;
  }

  *[Symbol.iterator](): IterableIterator<T> {
    for (let step = this.next(); !step.done; step = this.next()) yield step.value;
  }
}

/**
 * A database shaped like `DurableObjectState['storage']` where it matters: throw-away and in
 * memory, or in `path` (the scale profiler keeps a grown Context there to ask it again; the scale
 * bench reads its Context's own file, `readOnly`, while no workerd has it open).
 */
export function nodeStorage(
  path = ':memory:',
  options: { readOnly?: boolean } = {},
): {
  sql: SqlStorage;
  transactionSync<T>(fn: () => T): T;
  close(): void;
} {
  const db = new DatabaseSync(path, { readOnly: options.readOnly ?? false });
  const statements = new Map<string, StatementSync>();
  const prepared = (query: string): StatementSync => {
    let statement = statements.get(query);
    if (!statement) {
      statement = db.prepare(query);
      statements.set(query, statement);
    }
    return statement;
  };
  const sql = {
    exec<T extends Row>(query: string, ...bindings: unknown[]) {
      if (bindings.length > 100)
        throw new Error(`${bindings.length} bound parameters; Durable Object SQL allows 100`);
      // Migrations send several statements in one text; those run once and return no rows.
      if (query.includes(';') && !/^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b/i.test(query)) {
        db.exec(query);
        return new NodeCursor<T>(db.prepare('SELECT 1 WHERE 0'), []);
      }
      return new NodeCursor<T>(prepared(query), bindings);
    },
    get databaseSize(): number {
      return 0;
    },
  } as unknown as SqlStorage;
  let depth = 0;
  return {
    sql,
    close() {
      db.close();
    },
    transactionSync<T>(fn: () => T): T {
      const name = `sp${depth++}`;
      db.exec(`SAVEPOINT ${name}`);
      try {
        const out = fn();
        db.exec(`RELEASE ${name}`);
        return out;
      } catch (err) {
        db.exec(`ROLLBACK TO ${name}`);
        db.exec(`RELEASE ${name}`);
        throw err;
      } finally {
        depth--;
      }
    },
  };
}
