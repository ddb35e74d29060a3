// The IVF's recall against the exact scan on a kept Context, by how many lists a question probes:
//   npm run bench -- scale-ann --file=/tmp/ctx.db [--factors=2,1.5] [--questions=50] [--limit=10]
// The file is one the `scale-profile` bench grew (local model vectors); read only. The exact top 10
// of each of the scale bench's questions, among the facts its lens reads, comes from one pass over
// every stored vector; the IVF's top 10 (vector-scans.ts `ivfSearch`) probes `factor` sqrt(lists)
// lists first, as `nprobeFor` does (ties at the 10th score count as found). The scale bench has
// no such figure for the local model, whose `vector` mode re-scores its list by sentence; this is
// its index's own recall, the figure `NARROW_PROBES` was chosen by (prints only).
//   npm run bench -- scale-ann --file=/tmp/ctx.db --fused [--factors=1.5,1] [--mode=hybrid]
// compares instead a fused mode's whole top 10 (store/search.ts `search`) with its vector arm
// probing `factor` sqrt(lists) against the same search reading every list: the figure
// `FUSED_NARROW_PROBES` was chosen by.
import { embedSif, SIF_MODEL_ID } from '../../functions/memory/retrieval/sif-embeddings.ts';
import { lensMatches } from '../../functions/memory/scopes/lens.ts';
import { loadGenerations } from '../../functions/memory/store/vector-ivf.ts';
import { TopK } from '../../functions/memory/store/vector-matrix.ts';
import { dotAt } from '../../functions/memory/store/vector-rows.ts';
import { ivfSearch } from '../../functions/memory/store/vector-scans.ts';
import { search } from '../../functions/memory/store/search.ts';
import type { SearchMode } from '../../functions/memory/store/types.ts';
import { VectorCache } from '../../functions/memory/store/vectors.ts';
import { nodeStorage } from '../../test/support/node-sql-storage.ts';
import { questionAt } from './scale-facts.ts';

function flag(flags: string[], name: string): string | undefined {
  return flags.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

export async function runScaleAnn(flags: string[]): Promise<null> {
  const file = flag(flags, 'file');
  if (!file) throw new Error('scale-ann: --file=<a scale-profile file> is needed');
  const factors = (flag(flags, 'factors') ?? '2,1.5').split(',').map(Number);
  const n = Number(flag(flags, 'questions') ?? 50);
  // A fused mode's vector arm asks for 100 (search.ts `depth`): its recall@100 is that arm's.
  const limit = Number(flag(flags, 'limit') ?? 10);
  const sql = nodeStorage(file).sql;
  if (flags.includes('--fused')) {
    fusedAgreement(sql, factors, n, (flag(flags, 'mode') ?? 'hybrid') as SearchMode);
    return null;
  }
  const ann = annOf(sql, n, limit);
  console.log(
    `scale-ann: exact top ${limit} of ${n} questions in ${(ann.exactMs / 1000).toFixed(1)} s`,
  );
  console.log(`scale-ann: ${ann.lists.join(', ')} lists`);
  for (const factor of factors) {
    const { recall, p50 } = ann.at(factor);
    console.log(
      `scale-ann: ${factor} sqrt(lists) probed: recall@${limit} ${recall.toFixed(3)}, ${p50.toFixed(1)} ms p50 a question (limit ${limit})`,
    );
  }
  return null;
}

/**
 * The IVF's recall@`limit` against the exact scan for the scale bench's first `n` questions with
 * their lenses, on a Context's SQLite (local-model vectors): the exact tops from one pass over
 * every current vector, then `at(factor)` runs `ivfSearch` probing `factor` sqrt(lists) first
 * (absent: what a `vector` search probes). Null `lists` when the Context has no IVF index (its
 * vectors are scanned exactly).
 */
export function annOf(
  sql: SqlStorage,
  n: number,
  limit: number,
): {
  exactMs: number;
  lists: number[];
  at(factor?: number): { recall: number; p50: number };
} {
  const questions = Array.from({ length: n }, (_, i) => {
    const q = questionAt(i);
    const lens = (q.lens ?? ['*']).map((e) => (typeof e === 'string' ? [e] : e));
    return {
      vector: embedSif(q.query),
      accept: (scopes: readonly string[]) => lensMatches(lens, scopes),
    };
  });
  const exact = questions.map(() => new TopK(limit));
  const t0 = performance.now();
  for (const row of sql.exec<{ seq: number; vector: ArrayBuffer; scopes: string }>(
    `SELECT v.item_seq AS seq, v.vector, i.scopes FROM item_vectors v JOIN items i ON i.seq = v.item_seq
      WHERE v.model_id = ? AND i.valid_until IS NULL`,
    SIF_MODEL_ID,
  )) {
    const scopes = JSON.parse(row.scopes) as string[];
    const values = new Float32Array(row.vector, 0, row.vector.byteLength >>> 2);
    questions.forEach((q, i) => {
      if (q.accept(scopes)) exact[i]?.offer(row.seq, dotAt(q.vector, values, 0, values.length));
    });
  }
  const exactMs = performance.now() - t0;
  const gens = loadGenerations(sql, SIF_MODEL_ID);
  return {
    exactMs,
    lists: gens.map((g) => g.lists),
    at(factor) {
      let found = 0;
      const ms: number[] = [];
      questions.forEach((q, i) => {
        const t = performance.now();
        const hits = ivfSearch(
          sql,
          SIF_MODEL_ID,
          gens,
          q.vector,
          limit,
          (scopes) => q.accept(scopes),
          undefined,
          factor,
        );
        ms.push(performance.now() - t);
        const best = exact[i]?.hits ?? [];
        const seqs = new Set(best.map((h) => h.seq));
        const tenth = best[best.length - 1]?.score ?? Number.NEGATIVE_INFINITY;
        found += hits.filter((h) => seqs.has(h.seq) || h.score >= tenth).length;
      });
      return { recall: found / (n * limit), p50: Number(median(ms)) };
    },
  };
}

/** p50 of a list of times, in ms. */
function median(ms: number[]): string {
  const sorted = [...ms].sort((a, b) => a - b);
  return (sorted[sorted.length >> 1] ?? 0).toFixed(1);
}

/**
 * A fused mode's top 10 with its vector arm probing each of `factors` sqrt(lists), and with its
 * default (`FUSED_NARROW_PROBES`), against the same searches reading every list: the share of
 * the reference's items each finds, and its p50 in this process (a second pass, warm).
 */
function fusedAgreement(sql: SqlStorage, factors: number[], n: number, mode: SearchMode): void {
  const run = (probes: number | 'fused') => {
    const cache = new VectorCache();
    const ms: number[] = [];
    const lists: string[][] = [];
    for (let pass = 0; pass < 2; pass++) {
      ms.length = 0;
      lists.length = 0;
      for (let i = 0; i < n; i++) {
        const q = questionAt(i);
        const lens = (q.lens ?? ['*']).map((e) => (typeof e === 'string' ? [e] : e));
        const vector = { modelId: SIF_MODEL_ID, values: embedSif(q.query) };
        const t = performance.now();
        const hits = search(sql, cache, { mode, text: q.query, vector, k: 10, lens }, probes);
        ms.push(performance.now() - t);
        lists.push(hits.map((h) => h.id));
      }
    }
    return { ms, lists };
  };
  // A factor past sqrt(lists) reads every list (`nprobeFor` caps it at the index's size).
  const every = run(1e6);
  console.log(`scale-ann: ${mode}, every list probed: ${median(every.ms)} ms p50`);
  for (const probes of ['fused' as const, ...factors]) {
    const { ms, lists } = run(probes);
    let shared = 0;
    let total = 0;
    lists.forEach((ids, i) => {
      const reference = new Set(every.lists[i]);
      total += reference.size;
      shared += ids.filter((id) => reference.has(id)).length;
    });
    const name = probes === 'fused' ? 'the fused default' : `${probes} sqrt(lists)`;
    console.log(
      `scale-ann: ${mode}, ${name} probed: top 10 shares ${(shared / Math.max(1, total)).toFixed(3)} of every list's, ${median(ms)} ms p50`,
    );
  }
}
