// Writes the Worker's read-only tables as static assets into the build output (run by the
// `table-assets` Astro integration at the end of `astro build`; argument: the output directory).
// They are served to the Worker and its Durable Objects through the ASSETS binding and loaded
// once per isolate (functions/memory/tables/load-tables.ts), instead of being compiled into the
// script: docs/self-hosting.md has the sizes.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tableAssetBytes } from '../test/support/table-bytes.ts';
import { TABLE_ASSETS } from '../functions/memory/tables/load-tables.ts';

const outDir = process.argv[2];
if (outDir === undefined) {
  console.error('usage: node scripts/table-assets.ts <build output directory>');
  process.exit(2);
}
const bytes = tableAssetBytes();
for (const [name, path] of Object.entries(TABLE_ASSETS)) {
  const file = join(outDir, path);
  mkdirSync(dirname(file), { recursive: true });
  const data = bytes[name as keyof typeof TABLE_ASSETS];
  writeFileSync(file, data);
  console.log(`${path}: ${data.length.toLocaleString('en')} bytes`);
}
