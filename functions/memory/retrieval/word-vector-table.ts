import { Buffer } from 'node:buffer';
import {
  CODES_BASE64,
  SCALES_BASE64,
  WORD_VECTOR_DIMENSIONS,
  WORDS,
} from './word-vectors.generated.ts';

/**
 * The shipped word-vector table (GloVe 100d, 40k most frequent words, 4-bit rows; see
 * scripts/word-vectors/build-word-vectors.ts), decoded once per isolate on first use: the base64
 * decode and the word index cost a few tens of milliseconds, which a Worker that never embeds
 * locally (workers-ai, openai) should not pay at start-up.
 */
export interface WordVectorTable {
  dimensions: number;
  /** Row of each word; rows are in corpus-frequency order, so a row is also the word's rank. */
  rows: Map<string, number>;
  scales: Float32Array;
  /** Packed 4-bit codes, two per byte (nibble = code + 8). */
  codes: Uint8Array;
}

let cached: WordVectorTable | null = null;

// node:buffer (nodejs_compat) decodes natively: about a millisecond for the 2 MB of codes, where
// atob plus a charCodeAt loop took over a hundred on a loaded machine.
function decodeBase64(text: string): Uint8Array {
  const bytes = Buffer.from(text, 'base64');
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export function wordVectorTable(): WordVectorTable {
  if (cached) return cached;
  const words = WORDS.split('\n');
  const rows = new Map<string, number>();
  words.forEach((word, row) => rows.set(word, row));
  // Copied to a fresh buffer: a Float32Array needs a 4-byte-aligned offset, a decoded Buffer may
  // sit anywhere in a shared pool.
  const scaleBytes = new Uint8Array(decodeBase64(SCALES_BASE64));
  cached = {
    dimensions: WORD_VECTOR_DIMENSIONS,
    rows,
    // The generator writes little-endian float32s; every Workers and Node target is little-endian.
    scales: new Float32Array(scaleBytes.buffer, 0, words.length),
    codes: decodeBase64(CODES_BASE64),
  };
  return cached;
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
