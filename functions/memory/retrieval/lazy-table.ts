/**
 * One read-only table of the isolate (word vectors, tokenizer ranks, lexicon, thesaurus), decoded
 * from its asset's bytes on first use rather than when the bytes arrive: the Context's object
 * receives every table's bytes when it wakes (tables/load-tables.ts), but a cold query decodes
 * only what its mode reads (a bm25 question never decodes the word vectors; no query builds the
 * tokenizer). Node processes install a decoded table directly. Decoding is deterministic, so when
 * it happens changes no answer.
 */
export class LazyTable<T> {
  private value: T | null = null;
  private bytes: Uint8Array | null = null;
  private readonly missing: string;
  private readonly decode: (bytes: Uint8Array) => T;

  /** `missing`: the error's message when the table is read before anything was provided. */
  constructor(missing: string, decode: (bytes: Uint8Array) => T) {
    this.missing = missing;
    this.decode = decode;
  }

  /** The asset's bytes, decoded on the first `get()` (ignored once a table is in place). */
  provide(bytes: Uint8Array): void {
    if (this.value === null) this.bytes = bytes;
  }

  /** A decoded table (Node processes, tests). */
  install(value: T): T {
    this.value = value;
    this.bytes = null;
    return value;
  }

  /** Bytes or a table are in place: `get()` will not throw. */
  provided(): boolean {
    return this.value !== null || this.bytes !== null;
  }

  /** The table has been decoded (or installed) in this isolate. */
  decoded(): boolean {
    return this.value !== null;
  }

  get(): T {
    if (this.value !== null) return this.value;
    if (this.bytes === null) throw new Error(this.missing);
    const value = this.decode(this.bytes);
    this.bytes = null;
    this.value = value;
    return value;
  }
}
