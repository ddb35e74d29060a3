/** One backing store as `/health?deep=1` reports it. */
export interface StoreCheck {
  status: 'ok' | 'failing';
  /** Wall time of the probe in milliseconds. */
  ms: number;
  /** Why it failed (the error's message); absent when ok. */
  detail?: string;
}

export interface DeepChecks {
  d1: StoreCheck;
  durable_objects: StoreCheck;
  r2: StoreCheck;
}

/** The Durable Object name the probe uses: a lease object, so it never touches a Context's data. */
const PROBE = 'health-probe';

async function probe(run: () => Promise<unknown>): Promise<StoreCheck> {
  const started = Date.now();
  try {
    await run();
    return { status: 'ok', ms: Date.now() - started };
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    return { status: 'failing', ms: Date.now() - started, detail };
  }
}

/**
 * One cheap read against each backing store, all at once: D1 (`SELECT 1`), a Durable Object
 * round trip (the lease object's `ping`), R2 (a `head` of a key that need not exist).
 */
export async function runDeepChecks(env: Env): Promise<DeepChecks> {
  const [d1, durable_objects, r2] = await Promise.all([
    probe(() => env.DB.prepare('SELECT 1 AS one').first()),
    probe(() => env.CONTEXT_LEASE.getByName(PROBE).ping()),
    probe(() => env.BLOBS.head(PROBE)),
  ]);
  return { d1, durable_objects, r2 };
}
