import nlp from 'compromise/two';
import bpe from 'gpt-tokenizer/bpeRanks/o200k_base';
import dictionary from 'synonyms/dictionary.js';
import { TABLE_ASSETS } from '../../functions/memory/tables/load-tables.ts';
import { lexiconAssetOf } from '../../functions/memory/retrieval/lexicon.ts';
import { thesaurusAssetOf } from '../../functions/memory/retrieval/synonyms.ts';
import { packWordVectors } from '../../functions/memory/retrieval/word-vector-table.ts';
import {
  CODES_BASE64,
  SCALES_BASE64,
  WORD_VECTOR_DIMENSIONS,
  WORDS,
} from '../../functions/memory/retrieval/word-vectors.generated.ts';

/**
 * The bytes of each table asset, from their sources: the committed word-vector module and
 * gpt-tokenizer's own o200k_base ranks, the `synonyms` package's dictionary (sorted lines) and the parts of compromise's model the tagger reads. The build writes them (scripts/table-assets.ts); Node
 * processes (benchmarks, node tests) install them straight from here (install-tables.ts).
 */
export function tableAssetBytes(): Record<keyof typeof TABLE_ASSETS, Uint8Array> {
  return {
    wordVectors: packWordVectors({
      dimensions: WORD_VECTOR_DIMENSIONS,
      words: WORDS,
      scalesBase64: SCALES_BASE64,
      codesBase64: CODES_BASE64,
    }),
    o200k: new TextEncoder().encode(JSON.stringify(bpe)),
    thesaurus: new TextEncoder().encode(thesaurusAssetOf(dictionary)),
    lexicon: new TextEncoder().encode(lexiconAssetOf(nlp)),
  };
}
