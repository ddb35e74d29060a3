import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * Collects every file the integration writes and writes them only after every check passed, so
 * a failing build leaves no half-set of agent files behind.
 */
export class OutputFiles {
  readonly #files = new Map<string, string | Uint8Array>();

  constructor(private readonly outDir: string) {}

  /** `path` is the URL path, e.g. `/llms.txt`. */
  add(path: string, body: string | Uint8Array): void {
    if (this.#files.has(path)) throw new Error(`Two build steps both write ${path}`);
    this.#files.set(path, body);
  }

  addJson(path: string, value: unknown): void {
    this.add(path, `${JSON.stringify(value, null, 2)}\n`);
  }

  has(path: string): boolean {
    return this.#files.has(path);
  }

  get(path: string): string | Uint8Array | undefined {
    return this.#files.get(path);
  }

  paths(): string[] {
    return [...this.#files.keys()];
  }

  async flush(): Promise<void> {
    for (const [path, body] of this.#files) {
      const file = join(this.outDir, path);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, body);
    }
  }
}
