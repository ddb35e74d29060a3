// When a grown Context's object has finished its background steps (IVF training, back-fill,
// packing the tail: the alarm after each write batch), read from its database files under wrangler
// dev's persist directory, for the scale bench's warm figures and `scale-cold.ts warm --settle`.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/** The largest database file of the state's Context objects: the grown Context's. */
export function contextDatabase(state: string): string {
  const dir = join(state, 'v3', 'do');
  const files = readdirSync(dir)
    .filter((d) => d.endsWith('-ContextStore'))
    .flatMap((d) => readdirSync(join(dir, d)).map((f) => join(dir, d, f)))
    .filter((f) => f.endsWith('.sqlite'));
  const largest = files.sort((a, b) => statSync(b).size - statSync(a).size)[0];
  if (largest === undefined) throw new Error(`${state} holds no Context database`);
  return largest;
}

/** What IVF work the object has left, read from its database file (WAL: beside the server). */
export function ivfWorkLeft(file: string): string | null {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const gens = db
      .prepare(
        'SELECT gen, lists, next_seq <= end_seq AS filling, codebook IS NULL AS int8 FROM _vector_gens',
      )
      .all() as { gen: number; lists: number; filling: number; int8: number }[];
    const tail = (db.prepare('SELECT COUNT(*) AS n FROM _vector_postings').get() as { n: number })
      .n;
    const [only] = gens;
    if (gens.length === 1 && only && !only.filling && !only.int8 && tail < only.lists * 32)
      return null;
    return `${gens.map((g) => `gen ${g.gen}${g.int8 ? ' int8' : ''}${g.filling ? ' filling' : ''}`).join(', ')}; tail ${tail}`;
  } finally {
    db.close();
  }
}

/**
 * Waits, with the server up, until the object's background steps have moved the vectors to one
 * generation of PQ codes and packed its tail (a state grown before schema step 17 is retrained to
 * PQ codes on its first query).
 */
export async function settleIvf(state: string): Promise<void> {
  const file = contextDatabase(state);
  const start = performance.now();
  for (let left = ivfWorkLeft(file); left !== null; left = ivfWorkLeft(file)) {
    console.log(`settling (${((performance.now() - start) / 1000).toFixed(0)} s): ${left}`);
    await new Promise((resolve) => setTimeout(resolve, 15_000));
  }
  console.log(`settled in ${((performance.now() - start) / 1000).toFixed(0)} s`);
}

/** Size and modification time of the Context's database and its WAL. */
function signature(file: string): string {
  return [file, `${file}-wal`]
    .map((f) => {
      try {
        const s = statSync(f);
        return `${s.size}:${s.mtimeMs}`;
      } catch {
        return '-';
      }
    })
    .join(' ');
}

/**
 * Waits until the Context's database files have not changed for `quietMs` while nothing asks the
 * server anything: the alarm steps its writes scheduled (10 ms apart) are done, whatever the
 * Context's size or index. Returns the seconds waited (at most `maxMs`).
 */
export async function settleQuiet(
  state: string,
  quietMs = 3_000,
  maxMs = 30 * 60_000,
): Promise<number> {
  const file = contextDatabase(state);
  const start = performance.now();
  let last = signature(file);
  let since = performance.now();
  while (performance.now() - since < quietMs && performance.now() - start < maxMs) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = signature(file);
    if (now !== last) {
      last = now;
      since = performance.now();
    }
  }
  return (since - start) / 1000;
}
