/**
 * Dev and test instrumentation of the bindings the hot path must not touch needlessly: D1 (`DB`)
 * and the Context objects (`CONTEXT_STORE`). `npm run bench -- edge` sets the var
 * `BENCH_INJECT_LATENCY` (e.g. `d1=60,object=10`, milliseconds) on `wrangler dev` to add the
 * latency a distant region would see and to count calls; the call-counting test installs an
 * observer. With neither, `instrumentEnv` returns the env it was given: production pays one
 * property read per request.
 */
export interface BindingObserver {
  /** One D1 round trip: the SQL of the statement, or of each statement of a batch. */
  d1(sql: string[]): void;
  object(method: string): void;
}

export interface InjectedLatency {
  d1Ms: number;
  objectMs: number;
}

let observer: BindingObserver | null = null;

/** Tests: every D1 statement and Context-object call made from now on is reported to `next`. */
export function observeBindings(next: BindingObserver | null): void {
  observer = next;
}

/** Calls counted in this isolate since it started (`x-bench-calls` reports them under bench). */
export const benchCounts = { d1: 0, object: 0 };

export function injectedLatency(env: Env): InjectedLatency | null {
  const raw: unknown = Reflect.get(env, 'BENCH_INJECT_LATENCY');
  if (typeof raw !== 'string' || raw.trim() === '') return null;
  const parts = new Map(
    raw.split(',').map((p) => {
      const [name = '', value = ''] = p.split('=');
      return [name.trim(), Number.parseFloat(value)] as const;
    }),
  );
  const ms = (name: string) => {
    const v = parts.get(name);
    return v !== undefined && Number.isFinite(v) && v >= 0 ? v : 0;
  };
  return { d1Ms: ms('d1'), objectMs: ms('object') };
}

const sleep = (ms: number) =>
  ms > 0 ? new Promise<void>((resolve) => setTimeout(resolve, ms)) : Promise.resolve();

type Hook = (sql: string[]) => Promise<void>;

const STATEMENT_CALLS = new Set(['first', 'all', 'run', 'raw']);

/** The statement a wrapped one stands for, so that `batch` gets the runtime's own objects. */
const originals = new WeakMap<object, { stmt: D1PreparedStatement; sql: string }>();

function wrapStatement(stmt: D1PreparedStatement, hook: Hook, sql: string): D1PreparedStatement {
  const wrapped = new Proxy(stmt, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      if (prop === 'bind') {
        return (...args: unknown[]) =>
          wrapStatement(Reflect.apply(value, target, args) as D1PreparedStatement, hook, sql);
      }
      if (typeof prop === 'string' && STATEMENT_CALLS.has(prop)) {
        return async (...args: unknown[]) => {
          await hook([sql]);
          return Reflect.apply(value, target, args) as unknown;
        };
      }
      return (...args: unknown[]) => Reflect.apply(value, target, args) as unknown;
    },
  });
  originals.set(wrapped, { stmt, sql });
  return wrapped;
}

function wrapD1(db: D1Database, hook: Hook): D1Database {
  return new Proxy(db, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      if (prop === 'prepare') {
        return (sql: string) => wrapStatement(target.prepare(sql), hook, sql);
      }
      if (prop === 'batch') {
        return async (statements: D1PreparedStatement[]) => {
          await hook(statements.map((s) => originals.get(s)?.sql ?? '?'));
          return target.batch(statements.map((s) => originals.get(s)?.stmt ?? s));
        };
      }
      if (prop === 'exec') {
        return async (sql: string) => {
          await hook([sql]);
          return target.exec(sql);
        };
      }
      return (...args: unknown[]) => Reflect.apply(value, target, args) as unknown;
    },
  });
}

// Properties of a stub that are not calls to the object (`then` keeps a stub non-thenable).
const NOT_CALLS = new Set(['then', 'id', 'name', 'toJSON', 'constructor']);

function wrapStub<T extends object>(stub: T, hook: (method: string) => Promise<void>): T {
  return new Proxy(stub, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof prop !== 'string' || NOT_CALLS.has(prop) || typeof value !== 'function')
        return value;
      return async (...args: unknown[]) => {
        await hook(prop);
        return (await Reflect.apply(value, target, args)) as unknown;
      };
    },
  });
}

function wrapNamespace(
  ns: Env['CONTEXT_STORE'],
  hook: (method: string) => Promise<void>,
): Env['CONTEXT_STORE'] {
  return new Proxy(ns, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      if (prop === 'get' || prop === 'getByName') {
        return (...args: unknown[]) => wrapStub(Reflect.apply(value, target, args) as object, hook);
      }
      return (...args: unknown[]) => Reflect.apply(value, target, args) as unknown;
    },
  });
}

/**
 * The env with `DB` and `CONTEXT_STORE` wrapped when a latency is injected or an observer is
 * installed; otherwise `env` itself.
 */
export function instrumentEnv(env: Env): Env {
  const latency = injectedLatency(env);
  const watcher = observer;
  if (!latency && !watcher) return env;
  const d1: Hook = async (sql) => {
    benchCounts.d1 += 1;
    watcher?.d1(sql);
    await sleep(latency?.d1Ms ?? 0);
  };
  const object = async (method: string) => {
    benchCounts.object += 1;
    watcher?.object(method);
    await sleep(latency?.objectMs ?? 0);
  };
  return {
    ...env,
    DB: wrapD1(env.DB, d1),
    CONTEXT_STORE: wrapNamespace(env.CONTEXT_STORE, object),
  };
}
