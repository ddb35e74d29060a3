/**
 * Personalised PageRank over the item-entity graph, after HippoRAG (Gutiérrez et al., 2024):
 * restart mass sits on the query's entities (weighted by specificity, 1/|items|) and on the
 * entities of the best hybrid hits; walking entity -> item -> entity -> item reaches an item that
 * shares no word with the question but shares an entity with an item that does (the second hop
 * of a multi-hop question). Bounded: only the `frontier` heaviest nodes are expanded per step, and
 * an entity linked to more items than the graph's fan-out cap has no edges (it connects
 * everything and means nothing).
 */

export interface EntityGraph {
  entitiesOf(seq: number): readonly number[];
  /** Items linked to an entity, or null when it is over the fan-out cap. */
  itemsOf(entityId: number): readonly number[] | null;
  /** Optional: reads the entities of these items at once, before `entitiesOf` asks one by one. */
  prefetch?(seqs: readonly number[]): void;
}

export interface PprOptions {
  /** Restart probability. */
  alpha: number;
  iterations: number;
  /** Nodes expanded per iteration (the heaviest ones). */
  frontier: number;
}

const DEFAULTS: PprOptions = { alpha: 0.5, iterations: 4, frontier: 60 };

/**
 * A node of the walk: an item's `seq` (0 or more), or an entity id `e` as `-1 - e` (below 0).
 * Numbers, not `e12`/`i34` strings: no string is built or parsed per edge, and a Map keeps
 * insertion order for numbers as for strings, so every sum adds in the same order as before.
 */
type Node = number;

const entityNode = (id: number): Node => -1 - id;
const isEntity = (node: Node): boolean => node < 0;

/** Item scores (PageRank mass on item nodes) from restart weights on entities. */
export function personalisedPageRank(
  graph: EntityGraph,
  seeds: Map<number, number>,
  options: Partial<PprOptions> = {},
): Map<number, number> {
  const { alpha, iterations, frontier } = { ...DEFAULTS, ...options };
  const restart = new Map<Node, number>();
  let seedTotal = 0;
  for (const w of seeds.values()) seedTotal += w;
  if (seedTotal <= 0) return new Map();
  for (const [id, w] of seeds) restart.set(entityNode(id), w / seedTotal);

  const edges = new Map<Node, readonly Node[]>();
  const neighbours = (node: Node): readonly Node[] => {
    const known = edges.get(node);
    if (known) return known;
    const list: readonly Node[] = isEntity(node)
      ? (graph.itemsOf(-1 - node) ?? [])
      : graph.entitiesOf(node).map(entityNode);
    edges.set(node, list);
    return list;
  };

  // The graph is bipartite, so item mass alternates with entity mass from step to step: item
  // scores add up over the steps instead of being read off the last one.
  const items = new Map<number, number>();
  let mass = new Map<Node, number>(restart);
  for (let step = 0; step < iterations; step++) {
    const next = new Map<Node, number>();
    for (const [node, w] of restart) next.set(node, alpha * w);
    const heaviest = [...mass].sort((a, b) => b[1] - a[1]).slice(0, frontier);
    graph.prefetch?.(
      heaviest.flatMap(([node]) => (isEntity(node) || edges.has(node) ? [] : [node])),
    );
    for (const [node, w] of heaviest) {
      const out = neighbours(node);
      if (out.length === 0) continue;
      const share = ((1 - alpha) * w) / out.length;
      for (const to of out) next.set(to, (next.get(to) ?? 0) + share);
    }
    mass = next;
    for (const [node, w] of mass) {
      if (!isEntity(node)) items.set(node, (items.get(node) ?? 0) + w);
    }
  }
  return items;
}
