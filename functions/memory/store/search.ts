import { fuseScores, normalise, weightsFor, type Arm, type Scored } from '../retrieval/fusion.ts';
import { explainFusion, explainSingleArm, type Explanation } from '../retrieval/fusion-explain.ts';
import { answerTypeFactor, expectedAnswer, questionTypeTerm } from '../retrieval/answer-type.ts';
import { contentPrior } from '../retrieval/content-prior.ts';
import { gatedWeights, lexicalCoverage } from '../retrieval/lexical-gate.ts';
import { localVectorRanked } from '../retrieval/local-vector-mode.ts';
import { SIF_MODEL_ID } from '../retrieval/sif-embeddings.ts';
import { gatheredKind, spreadsOverSessions, spreadSessions } from '../retrieval/gathering.ts';
import { membersOf } from '../retrieval/kinds.ts';
import { personalisedPageRank } from '../retrieval/ppr.ts';
import { expansionTerms } from '../retrieval/prf.ts';
import { dampRepeats } from '../retrieval/repeats.ts';
import { softMatchRanked } from '../retrieval/soft-match.ts';
import { synonymTerms } from '../retrieval/synonyms.ts';
import {
  analyseQueryWords,
  questionEntities,
  type QueryAnalysis,
} from '../retrieval/text-analysis.ts';
import { queryPeriods, STATES_A_TIME } from '../retrieval/time-terms.ts';
import { namedDays, withNamedDays } from '../retrieval/named-days.ts';
import { queryWords } from '../retrieval/text.ts';
import { entityIdsByName } from './entities.ts';
import { countStaleVectors } from './model-paths.ts';
import { EXPANSION_ROWS } from './fts-bounds.ts';
import { documentFrequencies, ftsSearch, type TermPolicy } from './fts.ts';
import { withNeighbours } from './neighbours.ts';
import { budgetOf } from './memory-budget.ts';
import { questionWithAliases } from './aliases.ts';
import { dateHintsFor } from './date-hints.ts';
import { itemRowsBySeq, toRecord, type ItemRow } from './items.ts';
import type { SearchHit, SearchMode, SearchRanks, SearchRequest } from './types.ts';
import { hasConversation } from './validity.ts';
import { vectorSearch, type VectorCache } from './vectors.ts';
import type { ProbeFactor } from './vector-ivf.ts';
import { conversationRanked } from './search-conversation.ts';
import { searchGraph } from './search-graph.ts';
import { beginSearch } from './postings-cache.ts';
import { accepts, admitted, probe, type Accept, type Probe } from './search-probe.ts';

/** Upper bound on FTS rows scanned while filtering by lens, so one query stays bounded. */
const MAX_FTS_SCAN = 5000;
/** First-pass documents that feed pseudo-relevance feedback. */
const PRF_DOCS = 8;
/** Expansion words added by pseudo-relevance feedback. */
const PRF_TERMS = 10;
/**
 * Top fused hits whose entities seed the personalised PageRank (with the query's own). Chosen on
 * the dev split of the recall benchmark (docs/retrieval.md, fifteenth round), hybrid_graph
 * recall@10 (multi-hop): 3 -> 0.513 (0.366), 5 -> 0.519 (0.371), 10 -> 0.522 (0.379), 15 -> 0.525
 * (0.384), 20 -> 0.527 (0.402), 30 -> 0.527 (0.393). The second hop of a multi-hop question is
 * often told in a turn that ranks 6th-20th on the words of the first: its entities lead the walk
 * there. Held-out, measured once after: 0.503 -> 0.526 (multi-hop 0.394 -> 0.406); LoCoMo, never
 * tuned on: 0.725 -> 0.726 (0.454 -> 0.463).
 */
const GRAPH_SEED_HITS = 20;
/**
 * How many of the vector list's best items `vector` mode re-scores (retrieval/local-vector-mode.ts).
 * Dev recall@10 by pool: 50 -> 0.408, 100 -> 0.435, 200 -> 0.453, 300 -> 0.456; LoCoMo (checked,
 * not tuned on) 0.620 at 100, 0.636 at 200. With the sentence score alone it was 0.339 at 100 and
 * 0.340 at 300: word-by-word matching is what finds more in a deeper pool.
 */
const VECTOR_MODE_POOL = 200;

/** FTS hits are filtered a page at a time: one read of the page's items, then hit by hit. */
const PROBE_PAGE = 64;
/** Turns of the days a question names read at most (a day's sessions: a few hundred turns). */
const MAX_DAY_TURNS = 400;

/**
 * bm25's list; `policy` says which query terms it matches on (fts.ts `TermPolicy`). The main list
 * of every mode reads FTS5's own list `weighed-first`: the same rows in the same order, without
 * scoring every row a ubiquitous word matches unless fewer rows than asked for carry weight (a
 * bm25 query over 2,000 notes that all match: about half the time; a fused query's list of 100:
 * 1.9 -> 0.85 ms of FTS5 in process, every dev ranking identical). The fused modes need that
 * zero-score tail when there is one: it feeds soft matching's candidate pool, and dropping it
 * (`weighed`) cost dev recall@10 0.639 -> 0.634. The expansion arms keep only weighed terms
 * (`weighed`): 0.639 either way.
 */
function bm25Ranked(
  sql: SqlStorage,
  text: string,
  extra: string[],
  accept: Accept,
  read: Probe,
  limit: number,
  policy: TermPolicy,
  recent?: number,
): Scored[] {
  const out: Scored[] = [];
  let scanned = 0;
  const hits = ftsSearch(sql, text, extra, { policy, rows: read.rows, recent }, limit);
  // A narrow lens admits few hits a page: each next page is twice the last (at most
  // `PROBE_PAGE`), so finding ten admitted hits among thousands takes a few reads, not one per 8.
  let size = Math.min(PROBE_PAGE, Math.max(limit, 8));
  for (;;) {
    const page: Scored[] = [];
    while (page.length < size) {
      const step = hits.next();
      if (step.done) break;
      page.push(step.value);
    }
    if (page.length === 0) return out;
    read.prefetch(page.map((hit) => hit.seq));
    for (const hit of page) {
      if (out.length >= limit || ++scanned > MAX_FTS_SCAN) {
        hits.return(undefined);
        return out;
      }
      if (admitted(read, accept, hit.seq)) out.push(hit);
    }
    size = Math.min(PROBE_PAGE, size * 2);
  }
}

function vectorRanked(
  sql: SqlStorage,
  cache: VectorCache,
  req: SearchRequest,
  accept: Accept,
  read: Probe,
  limit: number,
  probes?: ProbeFactor,
): Scored[] {
  if (!req.vector) return [];
  return vectorSearch(sql, cache, req.vector, limit, accept, read, probes);
}

/** The second, expanded query of pseudo-relevance feedback (its expansion words only). */
function prfRanked(
  sql: SqlStorage,
  req: SearchRequest,
  first: Scored[],
  accept: Accept,
  read: Probe,
  limit: number,
): Scored[] {
  const top = first.slice(0, PRF_DOCS);
  if (top.length < 2) return [];
  const weights = normalise(first);
  const docs = top.flatMap((r) => {
    const item = read(r.seq);
    return item ? [{ content: item.content, weight: 0.5 + 0.5 * (weights.get(r.seq) ?? 0) }] : [];
  });
  const terms = expansionTerms(
    req.text,
    docs,
    (stems) => documentFrequencies(sql, stems),
    read.rows(),
    PRF_TERMS,
  );
  if (terms.length === 0) return [];
  return bm25Ranked(sql, terms.join(' '), [], accept, read, limit, 'weighed', EXPANSION_ROWS);
}

/**
 * Personalised PageRank from the query's entities and those of the best fused hits; the query's
 * own entities weigh most. Entity names are matched by the extractor on the question and by its
 * single words (a lower-cased name in a question is still that name).
 */
function graphRanked(
  sql: SqlStorage,
  query: QueryAnalysis,
  fused: Scored[],
  accept: Accept,
  read: Probe,
  limit: number,
): Scored[] {
  const graph = searchGraph(sql);
  const seeds = new Map<number, number>();
  const seed = (id: number, weight: number): void => {
    const items = graph.itemsOf(id);
    if (items === null || items.length === 0) return;
    // Node specificity (HippoRAG): a name on few items says more than one on many.
    seeds.set(id, (seeds.get(id) ?? 0) + weight / Math.sqrt(items.length));
  };
  const names = [...query.entities, ...query.words];
  for (const id of entityIdsByName(sql, names)) seed(id, 1);
  const top = fused.slice(0, GRAPH_SEED_HITS);
  graph.prefetch(top.map((hit) => hit.seq));
  const best = top[0]?.score ?? 0;
  for (const hit of top) {
    for (const id of graph.entitiesOf(hit.seq)) seed(id, 0.5 * (best > 0 ? hit.score / best : 0));
  }
  const scores = personalisedPageRank(graph, seeds);
  const ranked = [...scores].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  // One read for the items the list will most likely hold, not one per item.
  read.prefetch(ranked.slice(0, limit).map(([seq]) => seq));
  const out: Scored[] = [];
  for (const [seq, score] of ranked) {
    if (out.length >= limit) break;
    if (admitted(read, accept, seq)) out.push({ seq, score });
  }
  return out;
}

/**
 * The list with each score scaled by its item's content prior (retrieval/content-prior.ts) and by
 * whether it carries the type of answer the question asks for (retrieval/answer-type.ts),
 * re-sorted, then repeated texts damped (retrieval/repeats.ts): one read of the items not yet
 * seen, then arithmetic.
 */
function withPrior(ranked: Scored[], read: Probe, question: string): Scored[] {
  read.prefetch(ranked.map((r) => r.seq));
  const want = expectedAnswer(question);
  const scaled = ranked
    .map((r) => {
      const item = read(r.seq);
      if (!item) return { seq: r.seq, score: 0 };
      const prior = contentPrior(item.content, item.session);
      return { seq: r.seq, score: r.score * prior * answerTypeFactor(want, item.content) };
    })
    .sort((a, b) => b.score - a.score || a.seq - b.seq);
  return dampRepeats(scaled, (seq) => read(seq)?.content ?? null);
}

/** Soft matching (retrieval/soft-match.ts) over every candidate the other arms listed. */
function softRanked(text: string, arms: { list: Scored[] }[], read: Probe): Scored[] {
  const pool = [...new Set(arms.flatMap((a) => a.list.map((r) => r.seq)))];
  read.prefetch(pool);
  const docs = pool.flatMap((seq) => {
    const item = read(seq);
    return item ? [{ seq, content: item.content }] : [];
  });
  return softMatchRanked(text, docs);
}

/** Per-item explanations, only when the request asks for them (`explain`). */
type Explain = ((seq: number) => Explanation) | undefined;

function hydrate(
  sql: SqlStorage,
  ranked: Scored[],
  ranks?: (seq: number) => SearchRanks,
  explain?: Explain,
): SearchHit[] {
  // One read for every hit (k is at most 50), then the rows in ranked order.
  const rows = new Map<number, ItemRow>();
  for (const row of itemRowsBySeq(
    sql,
    ranked.map((r) => r.seq),
  ))
    rows.set(row.seq, row);
  const hits: SearchHit[] = [];
  for (const r of ranked) {
    const row = rows.get(r.seq);
    if (!row) continue;
    const rec = toRecord(row);
    const hit: SearchHit = {
      id: rec.id,
      kind: rec.kind,
      content: rec.content,
      score: r.score,
      scopes: rec.scopes,
      metadata: rec.metadata,
      created_at: rec.created_at,
      valid_from: rec.valid_from ?? rec.created_at,
      session: rec.session ?? null,
      position: rec.position ?? null,
    };
    if (rec.valid_until) hit.valid_until = rec.valid_until;
    if (ranks) hit.ranks = ranks(r.seq);
    if (explain) hit.explain = explain(r.seq);
    hits.push(hit);
  }
  return hits;
}

function rankMap(list: Scored[]): Map<number, number> {
  return new Map(list.map((r, i) => [r.seq, i + 1]));
}

/**
 * Runs one query in the requested mode; results are lens-filtered and at most `k`. `fusedProbes`:
 * the IVF lists a fused mode's vector arm reads (vector-ivf.ts `FUSED_NARROW_PROBES`); a bench
 * sets a number to compare with every list read.
 */
export function search(
  sql: SqlStorage,
  cache: VectorCache,
  asked: SearchRequest,
  fusedProbes: ProbeFactor = 'fused',
): SearchHit[] {
  // However many bm25 lists this search reads, the postings index counts it once.
  beginSearch(sql);
  const conversation = hasConversation(sql);
  const read = probe(sql, conversation);
  // A name the Context's chats call someone by is read as their speaker label ("What sports does
  // Sam play?" -> Samantha; store/aliases.ts), for every arm that reads the question's words.
  const text = conversation ? questionWithAliases(sql, asked.text, asked.lens, read) : asked.text;
  const req = text === asked.text ? asked : { ...asked, text };
  const k = req.k;
  const accept = accepts(req);
  if (req.mode === 'vector') {
    // With the local model, items are re-scored by their best sentence and word by word
    // (local-vector-mode.ts); a neural model's candidates could only be re-embedded by calling it
    // again.
    if (req.vector?.modelId !== SIF_MODEL_ID) {
      const list = vectorRanked(sql, cache, req, accept, read, k);
      return hydrate(
        sql,
        list,
        undefined,
        req.explain ? explainSingleArm('vector', list) : undefined,
      );
    }
    const pool = vectorRanked(sql, cache, req, accept, read, Math.max(k * 3, VECTOR_MODE_POOL));
    read.prefetch(pool.map((r) => r.seq));
    const ranked = localVectorRanked(
      pool,
      req.text,
      req.vector.values,
      (seq) => read(seq)?.content ?? null,
    );
    const top = ranked.slice(0, k);
    return hydrate(sql, top, undefined, req.explain ? explainSingleArm('vector', top) : undefined);
  }
  const asOf = req.asOf === undefined ? undefined : new Date(req.asOf);
  // The periods the question names, as date tokens for bm25, and the question without their
  // words (`plain`) for the arms that compare words by meaning: soft matching, the thesaurus
  // and the lexical gate. Left in, "last November" soft-matched turns that name January.
  const named = conversation
    ? queryPeriods(req.text, asOf, dateHintsFor(sql, req.text))
    : { terms: [], rest: req.text, lexical: req.text };
  const periods = named.terms;
  const plain = named.rest;
  // How deep each arm's list goes before fusion. Deeper lists normalise each arm over more of its
  // distribution and give the graph walk more to rank (dev, recall@10: 30 -> 0.478, 100 -> 0.489,
  // replayed over recorded arm lists); the cost is reads of a few dozen more rows per arm.
  const depth = Math.max(k * 3, 100);
  // Every mode's main bm25 list (bm25Ranked): weighed-first once the FTS index has its vocabulary.
  const main: TermPolicy = conversation ? 'weighed-first' : 'all';
  const lexical = named.lexical;
  // A question that gathers ("What sports does Sam play?") asks for members of a kind, which its
  // answers name ("tennis", "judo") and its own words do not: the nouns WordNet files under the
  // kind (kinds.ts) expand it, as the thesaurus does, in the fused modes' synonym arm, and in
  // bm25 mode's one list. In the fused modes' main bm25 list they cost recall: a kind of many
  // senses brings others ("crafts": aircraft, ferry), and "countries" lost the city turns that
  // the gazetteer files under "country" (docs/retrieval.md, twenty-fifth round).
  const kind = conversation ? gatheredKind(req.text) : null;
  const gathers = kind !== null;
  const members = kind === null ? [] : membersOf(kind);
  // Lemmas of the question's irregular forms, and date tokens of the periods it names (they
  // match the FTS `terms` column).
  const words = analyseQueryWords(lexical);
  const dates = [...words, ...periods];
  if (req.mode === 'bm25') {
    // The type of answer the question wants, as one more term (answer-type.ts answerTypeTerms).
    const want = conversation ? questionTypeTerm(expectedAnswer(req.text)) : null;
    const terms = [...dates, ...members, ...(want === null ? [] : [want])];
    const list = bm25Ranked(sql, lexical, terms, accept, read, k, main);
    return hydrate(sql, list, undefined, req.explain ? explainSingleArm('bm25', list) : undefined);
  }
  const modelId = req.vector?.modelId ?? null;
  const bm25 = bm25Ranked(sql, lexical, dates, accept, read, depth, main);
  const best = bm25[0];
  // A question that is all period ("What did I do in May 2024?") is covered by the hit that
  // matches the period: the other arms would only rank turns that name some other month.
  const onlyPeriod = periods.some((t) => t !== STATES_A_TIME) && queryWords(plain).length === 0;
  const coverage = best
    ? onlyPeriod
      ? 1
      : lexicalCoverage(plain, read(best.seq)?.content ?? '')
    : 0;
  const base = weightsFor(modelId);
  // Every model's vector arm is gated too: when the words already match, vectors mostly confirm
  // them. For a neural model (measured with a sentence-encoder stand-in, fusion.ts) gating costs
  // dev nothing (recall@10 0.635 against 0.638) and gains LoCoMo (0.706 -> 0.736).
  const weights = gatedWeights(base, coverage, true);
  // The graph walk's seeds come from a first fusion whose vector arm keeps its full weight: the
  // entities of semantically close turns are what lead the walk to the other hop (measured on
  // dev: seeding from the vector-gated fusion costs 0.02 recall@10).
  const seedWeights = gatedWeights(base, coverage, false);
  const prf = conversation && weights.prf > 0 ? prfRanked(sql, req, bm25, accept, read, depth) : [];
  const vector = vectorRanked(sql, cache, req, accept, read, depth, fusedProbes);
  const synonyms = [...synonymTerms(plain), ...members];
  const synonym =
    synonyms.length > 0 && weights.synonym > 0
      ? bm25Ranked(
          sql,
          synonyms.join(' '),
          [],
          accept,
          read,
          depth,
          conversation ? 'weighed' : 'all',
          EXPANSION_ROWS,
        )
      : [];
  const arms: { arm: Arm; list: Scored[] }[] = [
    { arm: 'bm25', list: bm25 },
    { arm: 'prf', list: prf },
    { arm: 'synonym', list: synonym },
    { arm: 'vector', list: vector },
  ];
  if (weights.soft > 0) arms.push({ arm: 'soft', list: softRanked(plain, arms, read) });
  const bm25Ranks = rankMap(bm25);
  const vectorRanks = rankMap(vector);
  // The turns of a day the question names (named-days.ts): at most a few sessions' worth.
  const days = namedDays(periods);
  const onDay =
    days.length === 0
      ? new Set<number>()
      : new Set(bm25Ranked(sql, '', days, accept, read, MAX_DAY_TURNS, 'all').map((r) => r.seq));
  // What both fused modes do after fusion: conversation structure, the named day, the content
  // prior, and for a gathering question a list spread over sessions (gathering.ts: its facts
  // were told on different days).
  const spreads = gathers && spreadsOverSessions(req.text, days.length > 0);
  const finish = (fused: Scored[]): Scored[] => {
    const conversed = conversationRanked(sql, fused, accept, read, weights);
    const ranked = withPrior(withNamedDays(conversed, onDay), read, req.text);
    return spreads ? spreadSessions(ranked, k, (seq) => read(seq)?.session ?? null) : ranked;
  };
  if (req.mode === 'hybrid') {
    const ranked = finish(fuseScores(arms, weights));
    return hydrate(
      sql,
      ranked.slice(0, k),
      (seq) => ({ bm25: bm25Ranks.get(seq) ?? null, vector: vectorRanks.get(seq) ?? null }),
      req.explain ? explainFusion(arms, weights) : undefined,
    );
  }
  const first = fuseScores(arms, seedWeights);
  // Only the graph needs the question tagged: its noun phrases seed the walk.
  const query = { words, entities: questionEntities(req.text) };
  const graph = graphRanked(sql, query, first, accept, read, depth);
  const withGraph = [...arms, { arm: 'graph' as const, list: graph }];
  const ranked = finish(fuseScores(withGraph, weights));
  const graphRanks = rankMap(graph);
  return hydrate(
    sql,
    ranked.slice(0, k),
    (seq) => ({
      bm25: bm25Ranks.get(seq) ?? null,
      vector: vectorRanks.get(seq) ?? null,
      graph: graphRanks.get(seq) ?? null,
    }),
    req.explain ? explainFusion(withGraph, weights) : undefined,
  );
}

export interface PlannedSearch {
  /** The mode used: `bm25` while items lack a vector of the query's embedding model. */
  mode: SearchMode;
  /** How many items lack such a vector (the caller asks for re-embedding when above 0). */
  staleVectors: number;
  hits: SearchHit[];
}

/**
 * Plans and runs a query in one store call. While some items still carry vectors of a previous
 * embedding model (the `reembed` job is catching up), vector scores would compare two models, so
 * the query runs as `bm25` instead and reports how many items are stale. Neighbour turns, when
 * asked for, are read here too: still one call.
 */
export function plannedSearch(
  sql: SqlStorage,
  cache: VectorCache,
  req: SearchRequest,
): PlannedSearch {
  const planned = planAndSearch(sql, cache, req);
  // What the search kept for the next one (candidates, edges, postings, vectors) is held to the
  // Context's memory budget: over it, the least recently used parts go.
  budgetOf(sql).settle();
  const span = req.neighbours ?? 0;
  if (span <= 0) return planned;
  return { ...planned, hits: withNeighbours(sql, planned.hits, span, accepts(req)) };
}

function planAndSearch(sql: SqlStorage, cache: VectorCache, req: SearchRequest): PlannedSearch {
  if (req.mode === 'bm25' || req.vector === null) {
    const mode = req.vector === null ? 'bm25' : req.mode;
    return { mode, staleVectors: 0, hits: search(sql, cache, { ...req, mode }) };
  }
  const stale = countStaleVectors(sql, req.vector.modelId);
  if (stale > 0) {
    return {
      mode: 'bm25',
      staleVectors: stale,
      hits: search(sql, cache, { ...req, mode: 'bm25' }),
    };
  }
  return { mode: req.mode, staleVectors: 0, hits: search(sql, cache, req) };
}
