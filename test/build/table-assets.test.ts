import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { countO200k, installO200k } from '../../functions/memory/models/o200k-tokenizer.ts';
import { installWordVectors } from '../../functions/memory/retrieval/word-vector-table.ts';
import {
  CODES_BASE64,
  SCALES_BASE64,
  WORD_VECTOR_DIMENSIONS,
  WORDS,
} from '../../functions/memory/retrieval/word-vectors.generated.ts';
import { TABLE_ASSETS } from '../../functions/memory/tables/load-tables.ts';
import type { RecallSet } from '../fixtures/recall-conversations/generate.ts';
import { tableAssetBytes } from '../support/table-bytes.ts';

// The tables moved out of the script into static assets must be the same tables: the word
// vectors decode to the rows, scales and codes the generated module holds, and the tokenizer
// built from the ranks asset counts exactly as gpt-tokenizer's own o200k_base module.
const assets = tableAssetBytes();

describe('the word-vector asset', () => {
  it('decodes to the generated table, row for row', () => {
    const table = installWordVectors(assets.wordVectors);
    const words = WORDS.split('\n');
    expect(table.dimensions).toBe(WORD_VECTOR_DIMENSIONS);
    expect(table.rows.size).toBe(words.length);
    expect(words.every((word, row) => table.rows.get(word) === row)).toBe(true);
    const scales = Buffer.from(SCALES_BASE64, 'base64');
    expect(
      Buffer.compare(Buffer.from(table.scales.buffer), scales.subarray(0, words.length * 4)),
    ).toBe(0);
    expect(Buffer.compare(Buffer.from(table.codes), Buffer.from(CODES_BASE64, 'base64'))).toBe(0);
  });
});

describe('the o200k_base ranks asset', () => {
  it('counts tokens exactly as gpt-tokenizer/encoding/o200k_base', () => {
    installO200k(JSON.parse(new TextDecoder().decode(assets.o200k)) as (string | number[])[]);
    const set = JSON.parse(
      readFileSync('test/fixtures/recall-conversations/recall-set.json', 'utf8'),
    ) as RecallSet;
    const texts = [
      ...set.conversations.flatMap((c) => c.turns.slice(0, 20).map((t) => t.text)),
      'Zürich → 東京, naïve café: 🙂🙂 \u0000 tabs\tand\nlines',
      '',
    ];
    let tokens = 0;
    for (const text of texts) {
      expect(countO200k(text), text).toBe(countTokens(text));
      tokens += countO200k(text);
    }
    expect(tokens).toBeGreaterThan(1000);
    // Special tokens in text are refused the same way.
    expect(() => countTokens('a <|endoftext|>')).toThrow(/special token/);
    expect(() => countO200k('a <|endoftext|>')).toThrow(/special token/);
  });
});

describe('the table assets in dist/', () => {
  it('are exactly the bytes packed from their sources (npm run build)', () => {
    for (const [name, path] of Object.entries(TABLE_ASSETS)) {
      const built = readFileSync(join('dist', path));
      expect(Buffer.compare(built, assets[name as keyof typeof TABLE_ASSETS]), path).toBe(0);
    }
  });
});
