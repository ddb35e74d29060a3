// Recall at a million facts (issue 38): does a conversation stay findable in a Context grown to a
// million facts? The recall sets' Contexts are a few thousand turns, far below where a bm25 list is
// bounded to its newest rows (store/fts-bounds.ts) or vectors go to the IVF index, so they cannot
// say. Here LoCoMo's conversations (an outside set) are written, each under a scope of its own,
// into a Context beside the scale bench's facts, and their questions asked with that scope as the
// lens, in the default mode, over node:sqlite in this process:
//   npm run bench -- scale-planted --locomo <dir> --file=<a copy of a scale-profile file>
//     [--size=1000000] [--conversations=10]
// - planted last (`--file` holds a grown Context): the conversations are the newest rows;
// - planted first (`--file` is a new path): the conversations are written into an empty Context,
//   then the scale bench's facts are grown after them to `--size`, so they are the oldest rows.
// Against the same conversations in an empty Context under the same scopes (the baseline), recall
// at 10 per question and per gold turn, and the p50 of a question.
import { existsSync } from 'node:fs';
import { embedSif, SIF_MODEL_ID } from '../../functions/memory/retrieval/sif-embeddings.ts';
import { insertItems } from '../../functions/memory/store/items.ts';
import { applyMigrations } from '../../functions/memory/store/schema/runner.ts';
import { plannedSearch } from '../../functions/memory/store/search.ts';
import type { NewItem } from '../../functions/memory/store/types.ts';
import { VectorCache } from '../../functions/memory/store/vectors.ts';
import { nodeStorage } from '../../test/support/node-sql-storage.ts';
import { loadSet } from './recall-sets.ts';
import type { BenchSet } from './recall-report.ts';
import { factAt } from './scale-facts.ts';

const K = 10;
const BATCH = 100;

function flag(flags: string[], name: string): string | undefined {
  return flags.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

type Storage = ReturnType<typeof nodeStorage>;

interface Planted {
  storage: Storage;
  cache: VectorCache;
  /** Item id -> turn id. */
  turnOf: Map<string, string>;
}

function open(file: string | undefined): Planted {
  const storage = nodeStorage(file);
  applyMigrations(storage as unknown as DurableObjectStorage);
  return { storage, cache: new VectorCache(), turnOf: new Map() };
}

/** Runs the object's background steps (IVF training, back-fill, packing) until none is left. */
function settle(p: Planted): void {
  while (p.storage.transactionSync(() => p.cache.maintain(p.storage.sql)));
}

function plant(p: Planted, set: BenchSet): void {
  for (const conversation of set.conversations) {
    const turns = conversation.turns;
    for (let i = 0; i < turns.length; i += BATCH) {
      const chunk = turns.slice(i, i + BATCH);
      const items: NewItem[] = chunk.map((t) => {
        const content = `${t.speaker}: ${t.text}`;
        return {
          kind: 'fact',
          content,
          scopes: [`locomo/${conversation.id}`],
          metadata: null,
          sessionId: null,
          sourceId: null,
          validFrom: t.said_at,
          session: t.session_id,
          position: t.position,
          vector: { modelId: SIF_MODEL_ID, values: embedSif(content) },
        };
      });
      const now = new Date().toISOString();
      const records = p.storage.transactionSync(() =>
        insertItems(p.storage.sql, p.cache, items, now),
      );
      records.forEach((r, j) => {
        const turn = chunk[j];
        if (turn) p.turnOf.set(r.id, turn.id);
      });
    }
  }
}

/** Grows the scale bench's facts after what `p` holds, to `size` items. */
function grow(p: Planted, size: number): void {
  const sql = p.storage.sql;
  let have = sql.exec<{ n: number }>('SELECT count(*) AS n FROM items').one().n;
  let asked = false;
  p.cache.setScheduler(() => {
    asked = true;
  });
  for (let n = 0; have < size; n++) {
    const batch: NewItem[] = [];
    for (let i = 0; i < BATCH && have + i < size; i++) {
      const f = factAt(n * BATCH + i);
      batch.push({
        kind: 'fact',
        content: f.content,
        scopes: f.scopes,
        metadata: f.metadata,
        sessionId: null,
        sourceId: null,
        validFrom: f.valid_from,
        vector: { modelId: SIF_MODEL_ID, values: embedSif(f.content) },
      });
    }
    const now = new Date().toISOString();
    p.storage.transactionSync(() => insertItems(sql, p.cache, batch, now));
    have += batch.length;
    if (asked) {
      asked = false;
      if (p.storage.transactionSync(() => p.cache.maintain(sql))) asked = true;
    }
    if (have % 100_000 < BATCH) console.log(`scale-planted: grown to ${have.toLocaleString('en')}`);
  }
}

interface Scores {
  perQuestion: number;
  perGold: number;
  p50: number;
  questions: number;
}

function ask(p: Planted, set: BenchSet): Scores {
  let sum = 0;
  let found = 0;
  let gold = 0;
  let asked = 0;
  const ms: number[] = [];
  for (const q of set.questions) {
    if (q.evidence.length === 0) continue;
    const t = performance.now();
    const hits = plannedSearch(p.storage.sql, p.cache, {
      mode: 'hybrid_graph',
      text: q.question,
      vector: { modelId: SIF_MODEL_ID, values: embedSif(q.question) },
      k: K,
      lens: [[`locomo/${q.conversation_id}`]],
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

function row(label: string, s: Scores): string {
  return `| ${label} | ${s.perQuestion.toFixed(3)} | ${s.perGold.toFixed(3)} | ${s.p50.toFixed(1)} | ${s.questions} |`;
}

export async function runScalePlanted(flags: string[]): Promise<null> {
  const at = flags.indexOf('--locomo');
  const locomo = at >= 0 ? flags[at + 1] : undefined;
  if (!locomo) throw new Error('scale-planted: --locomo <LoCoMo file or folder> is needed');
  const file = flag(flags, 'file');
  if (!file) throw new Error('scale-planted: --file=<a grown file, or a new path> is needed');
  const size = Number(flag(flags, 'size') ?? 1_000_000);
  const whole = loadSet({ kind: 'locomo', path: locomo });
  const take = Number(flag(flags, 'conversations') ?? whole.conversations.length);
  const ids = new Set(whole.conversations.slice(0, take).map((c) => c.id));
  const set: BenchSet = {
    ...whole,
    conversations: whole.conversations.filter((c) => ids.has(c.id)),
    questions: whole.questions.filter((q) => ids.has(q.conversation_id)),
  };
  const baseline = open(undefined);
  plant(baseline, set);
  settle(baseline);
  const rows = [row('the conversations alone (baseline)', ask(baseline, set))];
  console.log(rows[0]);
  const first = !existsSync(file);
  const big = open(file);
  if (first) {
    plant(big, set);
    grow(big, size);
  } else plant(big, set);
  settle(big);
  const facts = big.storage.sql.exec<{ n: number }>('SELECT count(*) AS n FROM items').one().n;
  rows.push(
    row(
      `beside ${facts.toLocaleString('en')} items, written ${first ? 'first (the oldest rows)' : 'last (the newest rows)'}`,
      ask(big, set),
    ),
  );
  console.log(rows[1]);
  console.log(
    [
      `### LoCoMo at scale (\`npm run bench -- scale-planted --locomo <dir> --file=...\`)`,
      '',
      `${set.conversations.length} conversations, each under its own scope, asked with that scope as the lens (\`hybrid_graph\`, recall@${K}); in process over node:sqlite.`,
      '',
      '| Context | R@10 per question | R@10 per gold | p50 ms | questions |',
      '|---|---:|---:|---:|---:|',
      ...rows,
    ].join('\n'),
  );
  return null;
}
