import { afterPaint } from './after-paint.ts';

/**
 * A region that scrolls sideways (a wide table on a phone, a long code line) must be reachable
 * by keyboard: give each one that overflows a tab stop and a name, as WCAG 2.1.1 asks.
 *
 * Measured once the browser is idle after the first paint, never while the module runs: reading
 * scrollWidth during script evaluation forces a synchronous style and layout of the whole page
 * inside the script's task, which Lighthouse measured as the longest task on `/` (about 300 ms
 * on its slowed-down CPU). After the first frame the layout is already clean and the reads are free.
 */
function mark(): void {
  for (const el of document.querySelectorAll<HTMLElement>('main pre, main table')) {
    const scrolls = el.scrollWidth > el.clientWidth + 1;
    if (scrolls && !el.hasAttribute('tabindex')) {
      el.tabIndex = 0;
      if (el.tagName === 'TABLE' && !el.hasAttribute('aria-label')) {
        el.setAttribute('aria-label', 'Table (scrolls sideways)');
      }
    }
  }
}

afterPaint(mark);
window.addEventListener('resize', () => afterPaint(mark), { passive: true });
