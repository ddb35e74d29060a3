import nlp from 'compromise/two';
import dictionary from 'synonyms/dictionary.js';
import { installO200k } from '../../functions/memory/models/o200k-tokenizer.ts';
import { installCompromise } from '../../functions/memory/retrieval/lexicon.ts';
import { installThesaurus } from '../../functions/memory/retrieval/synonyms.ts';
import { installWordVectors } from '../../functions/memory/retrieval/word-vector-table.ts';
import { tableAssetBytes } from './table-bytes.ts';

/**
 * Installs the read-only tables (and compromise and the thesaurus) in a Node process (benchmarks, node tests, the word-vector
 * scripts) from the same bytes the build writes as assets; in workerd, tables/load-tables.ts
 * reads them through the ASSETS binding instead.
 */
export function installTablesInProcess(): void {
  const bytes = tableAssetBytes();
  installWordVectors(bytes.wordVectors);
  installO200k(JSON.parse(new TextDecoder().decode(bytes.o200k)) as (string | number[])[]);
  installCompromise(nlp);
  installThesaurus(dictionary);
}
