import { describe, expect, it } from 'vitest';
import { courseSequence, coursePosition } from './learn-course.ts';

const entry = (id: string, order = 0) => ({ id, data: { title: id, order } });
const all = [
  entry('basics/index'),
  entry('basics/retrieval/index', 2),
  entry('basics/retrieval/vector', 1),
  entry('basics/retrieval/bm25', 2),
  entry('basics/foundations/index', 1),
  entry('basics/foundations/facts', 1),
  entry('agents/index'),
  entry('agents/mcp/index', 1),
];

describe('course navigation', () => {
  it('reads a course module by module, each module before its lessons', () => {
    expect(courseSequence(all, 'basics/retrieval/bm25').map((e) => e.id)).toEqual([
      'basics/foundations/index',
      'basics/foundations/facts',
      'basics/retrieval/index',
      'basics/retrieval/vector',
      'basics/retrieval/bm25',
    ]);
  });

  it('links a lesson to its neighbours across module boundaries, never into another course', () => {
    const facts = coursePosition(all, 'basics/foundations/facts');
    expect(facts?.prev?.id).toBe('basics/foundations/index');
    expect(facts?.next?.id).toBe('basics/retrieval/index');
    expect([facts?.index, facts?.total]).toEqual([2, 5]);
    expect(coursePosition(all, 'basics/retrieval/bm25')?.next).toBeUndefined();
    expect(coursePosition(all, 'basics/index')).toBeUndefined();
  });
});
