// Disk per fact for the scale bench: the Context's Durable Object database under wrangler dev's
// persist directory (`v3/do/<script>-ContextStore/<object>.sqlite`, with its -wal and -shm).
// The bench's Context is the only one, so the largest object there is its own.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Bytes of the largest ContextStore object's SQLite files (0 when none exists yet). */
export function contextDatabaseBytes(persistTo: string): number {
  const root = join(persistTo, 'v3', 'do');
  let dirs: string[] = [];
  try {
    dirs = readdirSync(root).filter((d) => d.endsWith('-ContextStore'));
  } catch {
    return 0;
  }
  const perObject = new Map<string, number>();
  for (const dir of dirs) {
    for (const file of readdirSync(join(root, dir))) {
      const object = file.replace(/-(wal|shm)$/, '');
      if (!object.endsWith('.sqlite') || object === 'metadata.sqlite') continue;
      const bytes = statSync(join(root, dir, file)).size;
      perObject.set(object, (perObject.get(object) ?? 0) + bytes);
    }
  }
  return Math.max(0, ...perObject.values());
}
