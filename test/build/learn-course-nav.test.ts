import { describe, expect, it } from 'vitest';
import { read } from './dist.ts';

/** Learn lessons carry their course's previous/next, across module boundaries. */
describe('course navigation on Learn pages', () => {
  it('links a lesson to the steps before and after it in its course', () => {
    const html = read('learn/memory-basics/foundations/contexts-and-facts.html');
    const nav =
      /<nav class="course-nav" aria-label="Course">([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? '';
    expect(nav).toMatch(/step\s+\d+ of \d+/);
    expect(nav).toMatch(
      /href="\/learn\/memory-basics\/foundations\/what-is-agent-memory" rel="prev"/,
    );
    // The module's last lesson leads into the next module.
    expect(nav).toMatch(/href="\/learn\/memory-basics\/retrieval" rel="next"/);
  });

  it('gives course pages themselves no course navigation', () => {
    expect(read('learn/memory-basics.html')).not.toContain('class="course-nav"');
  });
});
