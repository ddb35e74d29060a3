// Where an installed npm package is and which version it is, for the build scripts that derive
// committed tables from pinned devDependencies (build-word-vectors.ts, wordnet.ts).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';

export function installedPackage(name: string): { dir: string; version: string } {
  const packageJson = createRequire(import.meta.url).resolve(`${name}/package.json`);
  const { version } = JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string };
  return { dir: dirname(packageJson), version };
}
