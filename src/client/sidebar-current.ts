/**
 * Scrolls the docs sidebar (and only it, never the page) so the current page's link is in view,
 * a third of the way down: in a long reference group the current entry is otherwise below the
 * fold. Runs after the first paint, and again when the phone menu opens the sidebar.
 */
import { afterPaint } from './after-paint.ts';

export function scrollToCurrent(sidebar: HTMLElement): void {
  const link = sidebar.querySelector<HTMLElement>('a[aria-current="page"]');
  if (!link || sidebar.clientHeight === 0) return;
  const box = sidebar.getBoundingClientRect();
  const at = link.getBoundingClientRect();
  if (at.top >= box.top && at.bottom <= box.bottom) return;
  sidebar.scrollTop += at.top - box.top - sidebar.clientHeight / 3;
}

const sidebar = document.querySelector<HTMLElement>('#docs-sidebar');
if (sidebar) afterPaint(() => scrollToCurrent(sidebar));
