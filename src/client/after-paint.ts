/**
 * Runs `task` once the next frame has been painted and the browser is idle: work that only
 * decorates the page (copy buttons, tab stops on scrolling regions) stays out of the first
 * render, where Lighthouse counts it against the page's blocking time and first paint.
 */
export function afterPaint(task: () => void): void {
  requestAnimationFrame(() => {
    if ('requestIdleCallback' in window) requestIdleCallback(task, { timeout: 1000 });
    else setTimeout(task, 0);
  });
}
