// Disk per fact for the scale bench: the Context's Durable Object database under wrangler dev's
// persist directory (`v3/do/<script>-ContextStore/<object>.sqlite`, with its -wal and -shm).
// The bench's Context is the only one, so the largest object there is its own.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Each ContextStore object's SQLite file, with the bytes of it and its -wal and -shm. */
function contextDatabases(persistTo: string): Map<string, number> {
  const root = join(persistTo, 'v3', 'do');
  let dirs: string[] = [];
  try {
    dirs = readdirSync(root).filter((d) => d.endsWith('-ContextStore'));
  } catch {
    return new Map();
  }
  const perObject = new Map<string, number>();
  for (const dir of dirs) {
    for (const file of readdirSync(join(root, dir))) {
      const object = file.replace(/-(wal|shm)$/, '');
      if (!object.endsWith('.sqlite') || object === 'metadata.sqlite') continue;
      const bytes = statSync(join(root, dir, file)).size;
      const path = join(root, dir, object);
      perObject.set(path, (perObject.get(path) ?? 0) + bytes);
    }
  }
  return perObject;
}

/** Bytes of the largest ContextStore object's SQLite files (0 when none exists yet). */
export function contextDatabaseBytes(persistTo: string): number {
  return Math.max(0, ...contextDatabases(persistTo).values());
}

/** The largest ContextStore object's SQLite file: the bench's Context (null when none yet). */
export function contextDatabaseFile(persistTo: string): string | null {
  let best: [string, number] | null = null;
  for (const entry of contextDatabases(persistTo)) if (!best || entry[1] > best[1]) best = entry;
  return best?.[0] ?? null;
}
