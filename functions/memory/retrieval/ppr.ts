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
  entitiesOf(seq: number): number[];
  /** Items linked to an entity, or null when it is over the fan-out cap. */
  itemsOf(entityId: number): number[] | null;
}

export interface PprOptions {
  /** Restart probability. */
  alpha: number;
  iterations: number;
  /** Nodes expanded per iteration (the heaviest ones). */
  frontier: number;
}

const DEFAULTS: PprOptions = { alpha: 0.5, iterations: 4, frontier: 60 };

type Node = `e${number}` | `i${number}`;

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
  for (const [id, w] of seeds) restart.set(`e${id}`, w / seedTotal);

  const edges = new Map<Node, Node[]>();
  const neighbours = (node: Node): Node[] => {
    const known = edges.get(node);
    if (known) return known;
    const id = Number(node.slice(1));
    const list: Node[] =
      node[0] === 'e'
        ? (graph.itemsOf(id) ?? []).map((seq): Node => `i${seq}`)
        : graph.entitiesOf(id).map((e): Node => `e${e}`);
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
    for (const [node, w] of heaviest) {
      const out = neighbours(node);
      if (out.length === 0) continue;
      const share = ((1 - alpha) * w) / out.length;
      for (const to of out) next.set(to, (next.get(to) ?? 0) + share);
    }
    mass = next;
    for (const [node, w] of mass) {
      if (node[0] === 'i') {
        const seq = Number(node.slice(1));
        items.set(seq, (items.get(seq) ?? 0) + w);
      }
    }
  }
  return items;
}
