// The sets the recall bench runs on, read into one shape (BenchSet): the committed long
// conversations or one generated from another seed, LoCoMo (an outside check), and the real-chat
// set or its tidy twin (issue 42), generated in memory. Each comes with the report's heading and
// the lines that say what it is, so the report itself knows no set.
import { readFileSync } from 'node:fs';
import {
  generateRecallSet,
  QUESTION_KINDS,
  type RecallSet,
} from '../../test/fixtures/recall-conversations/generate.ts';
import {
  CHAT_KINDS,
  DEFAULT_SEED as REAL_CHAT_SEED,
  generateRealChat,
  TRAITS,
  type ChatSet,
} from '../../test/fixtures/real-chat/generate.ts';
import { loadLocomo } from './locomo-set.ts';
import { loadRealtalk, REALTALK_KINDS, REALTALK_TRAITS } from './recall-realtalk.ts';
import { describeSource, K, type BenchSet, type SetSource } from './recall-report.ts';

/** `--set`: which family of sets; `--seed` and `--locomo` choose within it. */
export const SETS = ['conversations', 'real-chat', 'real-chat-tidy'] as const;
export type SetName = (typeof SETS)[number];

/** Which set the flags name: LoCoMo, one generated from a seed, the committed file, or real chat. */
export function setSourceOf(options: {
  set: SetName;
  locomo: string | null;
  realtalk: string | null;
  seed: number | null;
}): SetSource {
  // LoCoMo and REALTALK are sets of their own: no seed, no generated family.
  const outside = [
    options.locomo === null ? null : '--locomo',
    options.realtalk === null ? null : '--realtalk',
  ].filter((x): x is string => x !== null);
  const generated = [
    options.seed === null ? null : '--seed',
    options.set === 'conversations' ? null : `--set ${options.set}`,
  ].filter((x): x is string => x !== null);
  if (outside.length > 1 || (outside.length === 1 && generated.length > 0))
    throw new Error(
      `${[...outside, ...generated].join(' and ')} name two different sets: pass one`,
    );
  if (options.realtalk !== null) return { kind: 'realtalk', path: options.realtalk };
  if (options.set !== 'conversations')
    return {
      kind: 'real-chat',
      seed: options.seed ?? REAL_CHAT_SEED,
      tidy: options.set === 'real-chat-tidy',
    };
  if (options.locomo !== null) return { kind: 'locomo', path: options.locomo };
  if (options.seed !== null) return { kind: 'seed', seed: options.seed };
  return { kind: 'committed' };
}

const HOW_ASKED = [
  'Each conversation is written turn by turn as facts',
  '(`"<Speaker>: <text>"`, with `valid_from`, `session` and `position`) into its own Context through',
  '`POST /api/v1/{ctx}/facts/batch` of the Worker under `wrangler dev` (local provider, `local-sif-v2`',
  `embeddings, offline); every question is asked with k = ${K}. \`default\` sends no mode. MiniSearch 7 and`,
  'Orama 3 index the same turns in process with their defaults (full-text; Orama without vectors).',
];

function conversationsSet(set: RecallSet, source: SetSource): BenchSet {
  return {
    ...set,
    kinds: QUESTION_KINDS,
    traits: [],
    title: 'Recall on long conversations',
    intro: [
      `${describeSource(source, set.seed)}:`,
      `${set.stats.conversations} conversations between two friends, ${set.stats.turns.toLocaleString('en')} turns in dated sessions over six to seven and a half months,`,
      `${set.stats.questions.toLocaleString('en')} questions (${QUESTION_KINDS.map((k) => `${set.stats.by_kind[k]} ${k}`).join(', ')}), median content-word overlap`,
      `between a question and its gold evidence ${set.stats.median_overlap}.`,
      ...HOW_ASKED,
      '',
      'Why it is hard: questions are paraphrased by construction (they say "dog" where the turn says',
      '"beagle puppy", "resign" where it says "handed in my notice"); the speaker’s name, the one word most',
      'questions share with their evidence, is on half the turns; distractors reuse the friends, places',
      'and question words in other contexts; events are told relatively ("last Tuesday", "the week before',
      'the wedding"), so temporal questions need the turn’s date; multi-hop answers need turns from two',
      'sessions; open-domain questions are inferences ("would she enjoy…"). The content-word overlap of a',
      'question is |content words of question ∩ of evidence| / |content words of question| (lower-cased,',
      'stop words removed, suffix-stripped); see `test/fixtures/recall-conversations/README.md`.',
    ],
  };
}

function realChatSet(set: ChatSet, source: SetSource): BenchSet {
  return {
    ...set,
    kinds: CHAT_KINDS,
    traits: TRAITS,
    title:
      set.variant === 'tidy'
        ? 'Recall on people’s chat, tidy twin (real-chat set)'
        : 'Recall on people’s chat (real-chat set)',
    intro: [
      `${describeSource(source, set.seed)}:`,
      `${set.stats.conversations} conversations between two friends over three to four weeks, a session a day, ${set.stats.turns.toLocaleString('en')} turns;`,
      `${set.stats.questions} questions (${CHAT_KINDS.map((k) => `${set.stats.by_kind[k]} ${k}`).join(', ')}) with ${set.stats.gold_turns} gold turns.`,
      set.variant === 'tidy'
        ? 'This is the tidy twin: the same messages and questions as tidy prose, without slang, typos, emoji, bursts or photos.'
        : 'Nicknames, dates as digits in questions, gathering and inference questions, with the texture of chat (slang, typos, emoji, bursts, photo captions).',
      ...HOW_ASKED,
      'See `test/fixtures/real-chat/README.md`.',
    ],
  };
}

export function loadSet(source: SetSource): BenchSet {
  switch (source.kind) {
    case 'realtalk': {
      const set = loadRealtalk(source.path);
      const turns = set.conversations.reduce((n, c) => n + c.turns.length, 0);
      return {
        ...set,
        seed: 0,
        split: { dev: [], heldout: set.conversations.map((c) => c.id) },
        kinds: REALTALK_KINDS,
        traits: REALTALK_TRAITS,
        title: 'Recall on people’s chat (REALTALK)',
        intro: [
          `${describeSource(source, 0)}: ${set.conversations.length} conversations, ${turns.toLocaleString('en')} messages, ${set.questions.length} questions`,
          `(${REALTALK_KINDS.map((k) => `${set.questions.filter((q) => q.kind === k).length} ${k}`).join(', ')}); a photo is its caption, \`[image: …]\`.`,
          ...HOW_ASKED,
        ],
      };
    }
    case 'real-chat': {
      const twins = generateRealChat(source.seed);
      return realChatSet(source.tidy ? twins.tidy : twins.noisy, source);
    }
    case 'locomo':
      return conversationsSet(loadLocomo(source.path), source);
    case 'seed':
      return conversationsSet(generateRecallSet(source.seed), source);
    case 'committed':
      return conversationsSet(
        JSON.parse(
          readFileSync(
            new URL('../../test/fixtures/recall-conversations/recall-set.json', import.meta.url),
            'utf8',
          ),
        ) as RecallSet,
        source,
      );
  }
}
