import { describe, expect, it } from 'vitest';
import { addFact, emptyGraph, mentioned } from './entity-graph.ts';
import { layout } from './graph-layout.ts';

const entities = [
  { name: 'alice', display: 'Alice' },
  { name: 'berlin', display: 'Berlin' },
  { name: 'al', display: 'Al' },
];

describe('entity graph', () => {
  it('links a fact to the entities its text names as whole words', () => {
    expect(mentioned('Alice moved to Berlin.', entities).map((e) => e.name)).toEqual([
      'alice',
      'berlin',
    ]);
    const g = emptyGraph();
    addFact(g, { id: 'f1', content: 'Alice moved to Berlin.' }, entities, true);
    addFact(g, { id: 'f2', content: 'alice likes tea' }, entities);
    expect([...g.nodes.keys()].sort()).toEqual([
      'entity:alice',
      'entity:berlin',
      'fact:f1',
      'fact:f2',
    ]);
    expect(g.edges.size).toBe(3);
    expect(g.nodes.get('entity:berlin')?.walked).toBe(true);
    expect(g.edges.get('fact:f2|entity:alice')?.walked).toBe(false);
  });

  it('lays nodes out inside the drawing, the same way every time, linked ones closer', () => {
    const ids = ['a', 'b', 'c', 'd'];
    const edges = [{ from: 'a', to: 'b' }];
    const one = layout(ids, edges, 600, 400);
    expect(layout(ids, edges, 600, 400)).toEqual(one);
    for (const p of one.values()) {
      expect(p.x).toBeGreaterThanOrEqual(30);
      expect(p.x).toBeLessThanOrEqual(450);
      expect(p.y).toBeGreaterThanOrEqual(30);
      expect(p.y).toBeLessThanOrEqual(370);
    }
    const dist = (x: string, y: string) => {
      const p = one.get(x);
      const q = one.get(y);
      return p && q ? Math.hypot(p.x - q.x, p.y - q.y) : NaN;
    };
    expect(dist('a', 'b')).toBeLessThan(dist('c', 'd'));
  });
});
