import { LazyTable } from './lazy-table.ts';

/**
 * The shipped word-vector table (GloVe 100d, 40k most frequent words, 4-bit rows; see
 * scripts/word-vectors/build-word-vectors.ts). It is not compiled into the Worker script (2.2 MB
 * gzip of the 3 MB a Workers Free script may have): the build packs it into one static asset
 * (`packWordVectors`, scripts/table-assets.ts), and tables/load-tables.ts provides its bytes once
 * per isolate, in the place that embeds (the Context's object, the queue consumer), before the
 * synchronous retrieval code reads it here; it is decoded on that first read (docs/self-hosting.md).
 */
export interface WordVectorTable {
  dimensions: number;
  /** Row of each word; rows are in corpus-frequency order, so a row is also the word's rank. */
  rows: Map<string, number>;
  scales: Float32Array;
  /** Packed 4-bit codes, two per byte (nibble = code + 8). */
  codes: Uint8Array;
}

/** The generated module's parts, as scripts/word-vectors writes them. */
export interface WordVectorParts {
  dimensions: number;
  /** Words in row order, one per line. */
  words: string;
  scalesBase64: string;
  codesBase64: string;
}

const HEADER_BYTES = 12;

/**
 * The asset's bytes: a 12-byte header (dimensions, word count, byte length of the words, all
 * u32 little-endian), the words as UTF-8 joined by newlines, zero padding to a multiple of 4, the
 * float32 scales (little-endian, as the generator wrote them), then the 4-bit codes.
 */
export function packWordVectors(parts: WordVectorParts): Uint8Array {
  const words = new TextEncoder().encode(parts.words);
  const count = parts.words.split('\n').length;
  const scales = Uint8Array.from(atob(parts.scalesBase64), (ch) => ch.charCodeAt(0));
  const codes = Uint8Array.from(atob(parts.codesBase64), (ch) => ch.charCodeAt(0));
  const scalesAt = align4(HEADER_BYTES + words.length);
  const out = new Uint8Array(scalesAt + count * 4 + codes.length);
  const header = new DataView(out.buffer);
  header.setUint32(0, parts.dimensions, true);
  header.setUint32(4, count, true);
  header.setUint32(8, words.length, true);
  out.set(words, HEADER_BYTES);
  out.set(scales.subarray(0, count * 4), scalesAt);
  out.set(codes, scalesAt + count * 4);
  return out;
}

function align4(n: number): number {
  return (n + 3) & ~3;
}

/** Decodes the asset (`packWordVectors`). */
function decodeWordVectors(bytes: Uint8Array): WordVectorTable {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const dimensions = view.getUint32(0, true);
  const count = view.getUint32(4, true);
  const wordBytes = view.getUint32(8, true);
  const words = new TextDecoder().decode(bytes.subarray(HEADER_BYTES, HEADER_BYTES + wordBytes));
  const rows = new Map<string, number>();
  words.split('\n').forEach((word, row) => rows.set(word, row));
  const scalesAt = align4(HEADER_BYTES + wordBytes);
  // Copied: a Float32Array needs a 4-byte-aligned offset into its own buffer.
  const scales = new Float32Array(bytes.slice(scalesAt, scalesAt + count * 4).buffer);
  const codes = bytes.slice(scalesAt + count * 4);
  return { dimensions, rows, scales, codes };
}

const table = new LazyTable(
  'the word-vector table is not loaded: await loadTables() (tables/load-tables.ts) at the entry of the operation that embeds',
  decodeWordVectors,
);

/** Decodes the asset (`packWordVectors`) and makes it the isolate's table at once. */
export function installWordVectors(bytes: Uint8Array): WordVectorTable {
  return table.install(decodeWordVectors(bytes));
}

/** The asset's bytes, decoded on the first read of the table (tables/load-tables.ts). */
export function provideWordVectors(bytes: Uint8Array): void {
  table.provide(bytes);
}

export function wordVectorsInstalled(): boolean {
  return table.provided();
}

/** Whether this isolate has decoded the table (tests: a bm25 question does not). */
export function wordVectorsDecoded(): boolean {
  return table.decoded();
}

export function wordVectorTable(): WordVectorTable {
  return table.get();
}

/** Adds `weight` times the row's vector into `into`. */
export function addRow(table: WordVectorTable, row: number, weight: number, into: Float32Array) {
  const { dimensions, codes } = table;
  const w = weight * (table.scales[row] ?? 0);
  const base = row * dimensions;
  for (let d = 0; d < dimensions; d++) {
    const byte = codes[(base + d) >> 1] ?? 8;
    const nibble = (base + d) % 2 === 0 ? byte & 15 : byte >> 4;
    into[d] = (into[d] ?? 0) + w * (nibble - 8);
  }
}
