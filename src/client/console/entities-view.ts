/**
 * `/console/entities`: the names the Context's readable facts mention (`GET /entities`) as an SVG
 * graph. Activating an entity (click, Enter or Space) expands it: `GET /entities/{name}` adds the
 * facts linked to it and, through them, the entities they name. A question draws the
 * `hybrid_graph` walk: the results its graph arm ranked, and their entities, highlighted.
 */
import { api, inContext } from './api.ts';
import { byId, field, fill, h, s } from './dom.ts';
import {
  addEntity,
  addFact,
  emptyGraph,
  entityNameOf,
  mentioned,
  type EntityName,
  type Graph,
  type GraphNode,
} from './entity-graph.ts';
import { layout } from './graph-layout.ts';
import { startView } from './shell.ts';
import { attempt, say } from './status.ts';
import type { EntityPage, Fact, QueryAnswer } from './types.ts';

const WIDTH = 900;
const HEIGHT = 560;
/** Entities drawn before any is expanded: enough to start from, few enough to read. */
const FIRST = 12;
/** Facts an expansion adds at most: a hub entity would otherwise bury the graph. */
const EXPAND = 8;
/** Pages of `GET /entities` read for the first drawing at most. */
const ENTITY_PAGES = 5;

function short(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function nodeShape(node: GraphNode, x: number, y: number): SVGElement {
  if (node.kind === 'entity') {
    return s(
      'g',
      { class: `node-entity${node.walked ? ' walked' : ''}` },
      s('circle', { cx: x, cy: y, r: 16 }),
      s('text', { x: x + 20, y: y + 4 }, short(node.label, 24)),
    );
  }
  return s(
    'g',
    { class: `node-fact${node.walked ? ' walked' : ''}` },
    s('rect', { x: x - 9, y: y - 9, width: 18, height: 18, rx: 3 }),
    s('text', { x: x + 13, y: y + 4 }, short(node.label, 32)),
  );
}

startView((_session, contextId) => {
  const graph: Graph = emptyGraph();
  let entities: EntityName[] = [];
  const svg = byId('entity-graph', SVGSVGElement);

  function draw(): void {
    const nodes = [...graph.nodes.values()];
    const edges = [...graph.edges.values()];
    const pos = layout(
      nodes.map((n) => n.id),
      edges,
      WIDTH,
      HEIGHT,
    );
    const lines = edges.map((e) => {
      const a = pos.get(e.from);
      const b = pos.get(e.to);
      return a && b
        ? s('line', { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: e.walked ? 'walked' : null })
        : null;
    });
    const shapes = nodes.map((node) => {
      const p = pos.get(node.id);
      if (!p) return null;
      const g = nodeShape(node, p.x, p.y);
      g.setAttribute('data-node', node.id);
      if (node.kind === 'entity') {
        g.setAttribute('tabindex', '0');
        g.setAttribute('role', 'button');
        g.setAttribute(
          'aria-label',
          `${node.label}${node.expanded ? ', expanded' : ', expand'}${node.walked ? ', on the walk' : ''}`,
        );
        g.addEventListener('click', () => void attempt(() => expand(node)));
        g.addEventListener('keydown', (event) => {
          if (event.key === 'Enter' || event.key === ' ') {
            event.preventDefault();
            void attempt(() => expand(node));
          }
        });
      } else {
        g.append(s('title', {}, node.label));
      }
      return g;
    });
    fill(
      svg,
      s('title', { id: 'graph-title' }, 'Entities and the facts that name them'),
      ...lines,
      ...shapes,
    );
    const listing = byId('graph-list', HTMLElement);
    fill(
      listing,
      ...nodes
        .filter((n) => n.kind === 'fact')
        .map((n) =>
          h('li', { 'data-walked': n.walked ? 'true' : null }, n.walked ? '★ ' : '', n.label),
        ),
    );
  }

  async function expand(node: GraphNode): Promise<void> {
    const name = entityNameOf(node);
    const detail = await api<{ entity: { items: number; items_more: boolean }; items: Fact[] }>(
      inContext(contextId, `/entities/${encodeURIComponent(name)}`),
      { query: { limit: EXPAND } },
    );
    node.expanded = true;
    const self = { name, display: node.label };
    for (const fact of detail.items) addFact(graph, fact, entities, false, [self]);
    draw();
    const shown = detail.items.length;
    // The count stops at 1,000 (or at one request's work) and says so.
    const total = `${detail.entity.items}${detail.entity.items_more ? '+' : ''}`;
    const cut = shown < detail.entity.items || detail.entity.items_more;
    say(`${node.label}: ${total} fact(s) name it${cut ? `; showing ${shown}` : ''}.`);
    svg.querySelector<SVGElement>(`[data-node="${CSS.escape(node.id)}"]`)?.focus();
  }

  async function loadEntities(prefix: string): Promise<void> {
    // A page does bounded work, so in a large Context it may hold fewer than asked (none, even)
    // and a cursor: read on for a few pages until there are 100.
    const found: EntityPage['entities'] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < ENTITY_PAGES && found.length < 100; pages++) {
      const page: EntityPage = await api<EntityPage>(inContext(contextId, '/entities'), {
        query: {
          limit: 100 - found.length,
          prefix: prefix === '' ? undefined : prefix.toLowerCase(),
          cursor: cursor ?? undefined,
        },
      });
      found.push(...page.entities);
      cursor = page.next_cursor;
      if (cursor === null) break;
    }
    entities = found.map((e) => ({ name: e.name, display: e.display }));
    graph.nodes.clear();
    graph.edges.clear();
    const first = [...found].sort((a, b) => b.items - a.items).slice(0, FIRST);
    for (const e of first) addEntity(graph, e);
    draw();
    const more = cursor === null ? '' : ' (more exist)';
    say(
      `${found.length} entities${more}; showing the ${first.length} most mentioned. Activate one to expand it.`,
    );
  }

  const filter = byId('entity-filter', HTMLFormElement);
  filter.addEventListener('submit', (event) => {
    event.preventDefault();
    void attempt(() => loadEntities(field(filter, 'prefix')));
  });
  const walk = byId('entity-walk', HTMLFormElement);
  walk.addEventListener('submit', (event) => {
    event.preventDefault();
    const question = field(walk, 'q');
    void attempt(async () => {
      const answer = await api<QueryAnswer>(inContext(contextId, '/query'), {
        method: 'POST',
        body: { query: question, mode: 'hybrid_graph', k: 10 },
      });
      for (const seed of mentioned(question, entities)) addEntity(graph, seed, true);
      const reached = answer.results.filter(
        (r) => r.ranks?.graph !== null && r.ranks?.graph !== undefined,
      );
      for (const r of reached) addFact(graph, r, entities, true);
      draw();
      say(
        answer.mode === 'hybrid_graph'
          ? `The graph arm ranked ${reached.length} of ${answer.results.length} result(s); they are highlighted.`
          : `Ran as ${answer.mode}: ${answer.note ?? 'no graph walk'}.`,
      );
    });
  });
  void attempt(() => loadEntities(''));
});
