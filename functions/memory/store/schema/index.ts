import { conversationTime } from './conversation-time.ts';
import type { SchemaMigration } from './types.ts';
import { v1 } from './v1.ts';
import { v2 } from './v2.ts';
import { v3 } from './v3.ts';
import { v4 } from './v4.ts';
import { sessionScopes } from './session-scopes.ts';
import { documentDedupPerReader } from './document-dedup-per-reader.ts';
import { accessCache } from './access-cache.ts';
import { turnTime } from './turn-time.ts';
import { answerTypeTermsStep } from './answer-type-terms.ts';
import { placeTermsStep } from './place-terms.ts';
import { vectorIndexStep } from './vector-index.ts';
import { aliasesStep } from './aliases.ts';
import { vectorBlocksStep } from './vector-blocks.ts';
import { kindCountsStep } from './kind-counts.ts';
import { idempotencyExpiryStep } from './idempotency-expiry.ts';
import { ivfCodebooksStep } from './ivf-codebooks.ts';

/** Every per-Context schema step, in order. Append new versions; never reorder or edit. */
export const SCHEMA_MIGRATIONS: readonly SchemaMigration[] = [
  v1,
  v2,
  v3,
  v4,
  sessionScopes,
  documentDedupPerReader,
  conversationTime,
  accessCache,
  turnTime,
  answerTypeTermsStep,
  placeTermsStep,
  vectorIndexStep,
  aliasesStep,
  vectorBlocksStep,
  kindCountsStep,
  idempotencyExpiryStep,
  ivfCodebooksStep,
];

export const LATEST_SCHEMA_VERSION = SCHEMA_MIGRATIONS.length;
