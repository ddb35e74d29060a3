// Recall at a million items (issue 38): does a conversation stay findable in a Context grown to a
// million? The recall sets' Contexts are a few thousand turns, far below where a bm25 list is
// bounded to its newest rows (store/fts-bounds.ts) or vectors go to the IVF index, so they cannot
// say. Here a recall set's conversations are written, each under a scope of its own, into a
// Context beside a million other items, and their questions asked with that scope as the lens, in
// the default mode, over node:sqlite in this process:
//   npm run bench -- scale-planted --file=F [--locomo <dir>] [--filler=scale] [--size=1000000]
//     [--as=NAME] [--no-baseline]
// The planted set: the real-chat set (its default seed, noisy), or LoCoMo (`--locomo`). The filler: chat of the
// same generator from other seeds (`real-chat`, the default: the same kind of words, names and
// dates, so the common words' lists are long and bounded, as a million turns of one person's chats
// would make them), each conversation under a scope of its own; or the scale bench's facts.
// - `F` a new path: the set is written first, then the filler grown after it to `--size`: the
//   planted turns are the oldest rows, the hardest place for lists bounded by their newest rows;
// - `F` a grown scale-profile file (a copy: it is written to): the set is written last;
// - `F` a file this part wrote before: the questions are asked again (after a change of code);
//   with `--as=NAME` the set is written again, last, under scopes of that name, and asked there.
// Against the same conversations in an empty Context under the same scopes (the baseline),
// recall at 10 per question and per gold turn, and the p50 of a question.
import { existsSync } from 'node:fs';
import { embedSif, SIF_MODEL_ID } from '../../functions/memory/retrieval/sif-embeddings.ts';
import { insertItems } from '../../functions/memory/store/items.ts';
import { applyMigrations } from '../../functions/memory/store/schema/runner.ts';
import { plannedSearch } from '../../functions/memory/store/search.ts';
import type { NewItem } from '../../functions/memory/store/types.ts';
import { VectorCache } from '../../functions/memory/store/vectors.ts';
import { generateRealChat } from '../../test/fixtures/real-chat/generate.ts';
import type { Turn } from '../../test/fixtures/recall-conversations/generate.ts';
import { nodeStorage } from '../../test/support/node-sql-storage.ts';
import { loadSet } from './recall-sets.ts';
import type { BenchSet } from './recall-report.ts';
import { itemAt } from './scale-profile.ts';

const K = 10;
const BATCH = 100;
/**
 * The planted set's scopes start with this (`--as=NAME` makes it `NAME/`: the same set planted
 * again, last, in a file that holds it first); its items carry their turn id in `metadata.turn`.
 */
let PLANTED = 'planted/';
/** The filler chat's seeds count up from here (the real-chat set's dev and held-out seed is not one). */
const FILLER_SEED = 1_000;

function flag(flags: string[], name: string): string | undefined {
  return flags.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

type Storage = ReturnType<typeof nodeStorage>;

interface Opened {
  storage: Storage;
  cache: VectorCache;
  /** Item id -> planted turn id. */
  turnOf: Map<string, string>;
}

function open(file: string | undefined): Opened {
  const storage = nodeStorage(file);
  applyMigrations(storage as unknown as DurableObjectStorage);
  return { storage, cache: new VectorCache(), turnOf: new Map() };
}

function count(p: Opened): number {
  return p.storage.sql.exec<{ n: number }>('SELECT count(*) AS n FROM items').one().n;
}

/** Runs the object's background steps (IVF training, back-fill, packing) until none is left. */
function settle(p: Opened): void {
  while (p.storage.transactionSync(() => p.cache.maintain(p.storage.sql)));
}

function chatItem(t: Turn, scope: string, session: string, metadata: NewItem['metadata']): NewItem {
  const content = `${t.speaker}: ${t.text}`;
  return {
    kind: 'fact',
    content,
    scopes: [scope],
    metadata,
    sessionId: null,
    sourceId: null,
    validFrom: t.said_at,
    session,
    position: t.position,
    vector: { modelId: SIF_MODEL_ID, values: embedSif(content) },
  };
}

/** Writes `items` in batches as `POST /facts/batch` would, running background steps as asked. */
function write(p: Opened, items: NewItem[]): string[] {
  const ids: string[] = [];
  for (let i = 0; i < items.length; i += BATCH) {
    const now = new Date().toISOString();
    const batch = items.slice(i, i + BATCH);
    const records = p.storage.transactionSync(() =>
      insertItems(p.storage.sql, p.cache, batch, now),
    );
    for (const r of records) ids.push(r.id);
  }
  return ids;
}

function plant(p: Opened, set: BenchSet): void {
  for (const c of set.conversations) {
    const ids = write(
      p,
      // Session labels are the Context's own: a set planted again (`--as`) gets labels of its own.
      c.turns.map((t) =>
        chatItem(t, `${PLANTED}${c.id}`, `${PLANTED}${t.session_id}`, { turn: t.id }),
      ),
    );
    ids.forEach((id, i) => {
      const turn = c.turns[i];
      if (turn) p.turnOf.set(id, turn.id);
    });
  }
}

/** The planted turns of a file this part wrote before, from their metadata. */
function plantedIn(p: Opened): void {
  for (const row of p.storage.sql.exec<{ id: string; metadata: string }>(
    `SELECT id, metadata FROM items WHERE scopes LIKE '["${PLANTED}%'`,
  )) {
    const turn = (JSON.parse(row.metadata) as { turn?: string }).turn;
    if (turn) p.turnOf.set(row.id, turn);
  }
}

/** Grows filler after what `p` holds, to `size` items. */
function grow(p: Opened, size: number, filler: 'real-chat' | 'scale'): void {
  let asked = false;
  p.cache.setScheduler(() => {
    asked = true;
  });
  const step = () => {
    if (!asked) return;
    asked = false;
    if (p.storage.transactionSync(() => p.cache.maintain(p.storage.sql))) asked = true;
  };
  let have = count(p);
  let next = 0;
  let reported = 0;
  while (have < size) {
    let items: NewItem[];
    if (filler === 'scale') {
      items = Array.from({ length: Math.min(BATCH, size - have) }, (_, i) => itemAt(next + i));
      next += items.length;
    } else {
      const seed = FILLER_SEED + next++;
      items = generateRealChat(seed)
        .noisy.conversations.flatMap((c) =>
          c.turns.map((t) =>
            chatItem(t, `filler/${seed}/${c.id}`, `f${seed}-${t.session_id}`, null),
          ),
        )
        .slice(0, size - have);
    }
    for (let i = 0; i < items.length; i += BATCH) {
      write(p, items.slice(i, i + BATCH));
      step();
    }
    have += items.length;
    if (have - reported >= 100_000) {
      reported = have;
      console.log(`scale-planted: ${have.toLocaleString('en')} items`);
    }
  }
}

interface Scores {
  perQuestion: number;
  perGold: number;
  p50: number;
  questions: number;
}

function ask(p: Opened, set: BenchSet, split: readonly string[]): Scores {
  const within = new Set(split);
  let sum = 0;
  let found = 0;
  let gold = 0;
  let asked = 0;
  const ms: number[] = [];
  for (const q of set.questions) {
    if (q.evidence.length === 0 || !within.has(q.conversation_id)) continue;
    const t = performance.now();
    const hits = plannedSearch(p.storage.sql, p.cache, {
      mode: 'hybrid_graph',
      text: q.question,
      vector: { modelId: SIF_MODEL_ID, values: embedSif(q.question) },
      k: K,
      lens: [[`${PLANTED}${q.conversation_id}`]],
      // As the recall bench asks: the API resolves a question's relative dates against now.
      asOf: new Date().toISOString(),
    }).hits;
    ms.push(performance.now() - t);
    const top = new Set(hits.map((h) => p.turnOf.get(h.id)));
    const hit = q.evidence.filter((e) => top.has(e)).length;
    sum += hit / q.evidence.length;
    found += hit;
    gold += q.evidence.length;
    asked++;
  }
  ms.sort((a, b) => a - b);
  return {
    perQuestion: sum / Math.max(1, asked),
    perGold: found / Math.max(1, gold),
    p50: ms[ms.length >> 1] ?? 0,
    questions: asked,
  };
}

/** One row per split that has conversations (LoCoMo's are all held out). */
function rows(label: string, p: Opened, set: BenchSet): string[] {
  return (['dev', 'heldout'] as const)
    .filter((split) => set.split[split].length > 0)
    .map((split) => {
      const s = ask(p, set, set.split[split]);
      const line = `| ${label} | ${split} | ${s.perQuestion.toFixed(3)} | ${s.perGold.toFixed(3)} | ${s.p50.toFixed(1)} | ${s.questions} |`;
      console.log(line);
      return line;
    });
}

export async function runScalePlanted(flags: string[]): Promise<null> {
  const at = flags.indexOf('--locomo');
  const locomo = at >= 0 ? flags[at + 1] : undefined;
  PLANTED = `${flag(flags, 'as') ?? 'planted'}/`;
  const file = flag(flags, 'file');
  if (!file) throw new Error('scale-planted: --file=<a new path, or a grown file> is needed');
  const size = Number(flag(flags, 'size') ?? 1_000_000);
  const filler = flag(flags, 'filler') === 'scale' ? 'scale' : 'real-chat';
  const set: BenchSet = locomo
    ? loadSet({ kind: 'locomo', path: locomo })
    : loadSet({ kind: 'real-chat', seed: generateRealChat().noisy.seed, tidy: false });
  const table: string[] = [];
  if (!flags.includes('--no-baseline')) {
    const baseline = open(undefined);
    plant(baseline, set);
    settle(baseline);
    table.push(...rows('the set alone (baseline)', baseline, set));
  }
  const fresh = !existsSync(file);
  const big = open(file);
  let how: string;
  if (fresh) {
    plant(big, set);
    grow(big, size, filler);
    how = `written first (the oldest rows), ${filler} filler`;
  } else {
    plantedIn(big);
    if (big.turnOf.size === 0) {
      plant(big, set);
      how = 'written last (the newest rows)';
    } else how = 'asked again';
  }
  settle(big);
  table.push(...rows(`beside ${count(big).toLocaleString('en')} items, ${how}`, big, set));
  console.log(
    [
      `### Recall at scale (\`npm run bench -- scale-planted ${flags.join(' ')}\`)`,
      '',
      `${set.conversations.length} conversations (${locomo ? 'LoCoMo' : 'the real-chat set, noisy'}), each under its own scope, asked with that scope as the lens (\`hybrid_graph\`, recall@${K}); in process over node:sqlite.`,
      '',
      '| Context | split | R@10 per question | R@10 per gold | p50 ms | questions |',
      '|---|---|---:|---:|---:|---:|',
      ...table,
    ].join('\n'),
  );
  return null;
}
