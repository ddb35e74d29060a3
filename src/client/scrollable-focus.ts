/**
 * A region that scrolls sideways (a wide table on a phone, a long code line) must be reachable
 * by keyboard: give each one that overflows a tab stop and a name, as WCAG 2.1.1 asks.
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
mark();
window.addEventListener('resize', mark, { passive: true });
