/**
 * The entity view's graph, kept apart from drawing: entity nodes and fact nodes, and an edge where
 * a fact names an entity. Expanding an entity reads the store's own edges (`GET
 * /entities/{name}`: the facts linked to it at ingest); other edges of those facts, and of the
 * `hybrid_graph` results the graph arm ranked (`ranks.graph`, marked as the walk), are drawn where
 * a fact's text names a listed entity.
 */
export interface GraphNode {
  id: string;
  kind: 'entity' | 'fact';
  label: string;
  walked: boolean;
  expanded: boolean;
}

export interface GraphEdge {
  from: string;
  to: string;
  walked: boolean;
}

export interface EntityName {
  name: string;
  display: string;
}

export interface Graph {
  nodes: Map<string, GraphNode>;
  edges: Map<string, GraphEdge>;
}

export function emptyGraph(): Graph {
  return { nodes: new Map(), edges: new Map() };
}

const ENTITY = 'entity:';
const entityId = (name: string) => `${ENTITY}${name}`;

/** The entity name behind an entity node (what `GET /entities/{name}` takes). */
export function entityNameOf(node: GraphNode): string {
  return node.id.slice(ENTITY.length);
}
const factId = (id: string) => `fact:${id}`;

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Entities whose display name appears in `text` as whole words, case-insensitively. */
export function mentioned(text: string, entities: readonly EntityName[]): EntityName[] {
  return entities.filter((e) =>
    new RegExp(`(^|[^\\p{L}\\p{N}])${escape(e.display)}($|[^\\p{L}\\p{N}])`, 'iu').test(text),
  );
}

export function addEntity(graph: Graph, entity: EntityName, walked = false): string {
  const id = entityId(entity.name);
  const node = graph.nodes.get(id);
  if (node) node.walked ||= walked;
  else graph.nodes.set(id, { id, kind: 'entity', label: entity.display, walked, expanded: false });
  return id;
}

/**
 * Adds a fact and an edge to every entity it mentions, and to each of `linked` (edges the store
 * reported, whatever the text says); returns the fact's node id.
 */
export function addFact(
  graph: Graph,
  fact: { id: string; content: string },
  entities: readonly EntityName[],
  walked = false,
  linked: readonly EntityName[] = [],
): string {
  const id = factId(fact.id);
  const node = graph.nodes.get(id);
  if (node) node.walked ||= walked;
  else graph.nodes.set(id, { id, kind: 'fact', label: fact.content, walked, expanded: true });
  const named = mentioned(fact.content, entities);
  const extra = linked.filter((l) => !named.some((n) => n.name === l.name));
  for (const entity of [...named, ...extra]) {
    const to = addEntity(graph, entity, walked);
    const key = `${id}|${to}`;
    const edge = graph.edges.get(key);
    if (edge) edge.walked ||= walked;
    else graph.edges.set(key, { from: id, to, walked });
  }
  return id;
}
