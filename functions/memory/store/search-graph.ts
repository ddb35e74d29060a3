import type { EntityGraph } from '../retrieval/ppr.ts';
import { KeptUntilWrite } from './counts.ts';
import { entitiesOf, entitiesOfItems, itemsOfEntity, unlinkCount } from './entities.ts';
import { budgetOf } from './memory-budget.ts';

/**
 * The item-entity graph as `hybrid_graph` reads it: an item's entities and an entity's items, each
 * read once and kept until the database's next write, as a search keeps what it reads of its
 * candidates (search-probe.ts). A walk expands a few hundred nodes, one statement each; the
 * question's names and the best hits' entities recur from one question to the next.
 */

/** Edge ids kept per database before they are all dropped (about 8 bytes each). */
const MAX_KEPT_IDS = 250_000;

interface Edges {
  entities: Map<number, readonly number[]>;
  items: Map<number, readonly number[] | null>;
  ids: number;
}

const kept = new KeptUntilWrite<Edges>(() => ({ entities: new Map(), items: new Map(), ids: 0 }));

/**
 * Entities linked to more than the walk's fan-out, kept across writes: a write only adds links,
 * so such an entity stays one until an item is deleted (`unlinkCount` moves) or the database is
 * wiped (`forgetHubs`). Kept until the next write like the rest, a hub's first 201 items were read
 * again by each question after a write: with ten facts written before each of 30 questions at a
 * million facts, 715 such reads (8 ms a question) against 262 kept across writes (`npm run bench
 * -- scale-profile --interleave --statements`, docs/scale.md).
 */
const hubs = new WeakMap<SqlStorage, { unlinks: number; ids: Set<number> }>();

function hubsOf(sql: SqlStorage): Set<number> {
  const unlinks = unlinkCount(sql);
  const known = hubs.get(sql);
  if (known && known.unlinks === unlinks) return known.ids;
  const ids = new Set<number>();
  hubs.set(sql, { unlinks, ids });
  return ids;
}

/** The database was wiped (destroy, import): its entity ids may name other entities now. */
export function forgetHubs(sql: SqlStorage): void {
  hubs.delete(sql);
}

export interface SearchGraph extends EntityGraph {
  /** Reads the entities of those of `seqs` not read yet, in one statement. */
  prefetch(seqs: readonly number[]): void;
}

function clear(edges: Edges): void {
  edges.entities.clear();
  edges.items.clear();
  edges.ids = 0;
}

export function searchGraph(sql: SqlStorage): SearchGraph {
  const edges = kept.get(sql);
  if (edges.ids > MAX_KEPT_IDS) clear(edges);
  // The kept edges are the `graph` part of the Context's memory budget: 8 bytes an id in a
  // frozen array, and a map entry and an array header (about 48 bytes) per node read.
  const known = hubsOf(sql);
  budgetOf(sql).register('graph', {
    // A Set entry is about 16 bytes.
    bytes: () => {
      const now = kept.peek(sql);
      const hubBytes = (hubs.get(sql)?.ids.size ?? 0) * 16;
      return hubBytes + (now ? now.ids * 8 + (now.entities.size + now.items.size) * 48 : 0);
    },
    drop: () => {
      const now = kept.peek(sql);
      if (now) clear(now);
      hubs.delete(sql);
    },
  });
  // Shared by every search until the next write: frozen, so no walk can change another's edges.
  const keepEntities = (seq: number, ids: number[]): readonly number[] => {
    const frozen = Object.freeze(ids);
    edges.entities.set(seq, frozen);
    edges.ids += ids.length + 1;
    return frozen;
  };
  return {
    entitiesOf(seq) {
      return edges.entities.get(seq) ?? keepEntities(seq, entitiesOf(sql, seq));
    },
    itemsOf(id) {
      const read = edges.items.get(id);
      if (read !== undefined) return read;
      if (known.has(id)) return null;
      const items = itemsOfEntity(sql, id);
      if (items === null) known.add(id);
      const frozen = items === null ? null : Object.freeze(items);
      edges.items.set(id, frozen);
      edges.ids += (items?.length ?? 0) + 1;
      return frozen;
    },
    prefetch(seqs) {
      const wanted = [...new Set(seqs)].filter((seq) => !edges.entities.has(seq));
      if (wanted.length < 2) return;
      const found = entitiesOfItems(sql, wanted);
      for (const seq of wanted) keepEntities(seq, found.get(seq) ?? []);
    },
  };
}
