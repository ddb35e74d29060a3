/**
 * The narrow-screen menu: one button opens the header links and, on docs pages, the sidebar.
 * `body.menu-open` drives the CSS (which also locks the page's own scrolling); Esc, the button
 * again or a link click closes it. The sidebar starts where the links end (`--menu-top`,
 * measured on open) so nothing covers the header or its button, and it scrolls by itself.
 */
import { scrollToCurrent } from './sidebar-current.ts';

const toggle = document.querySelector<HTMLButtonElement>('[data-menu-toggle]');
const links = document.querySelector<HTMLElement>('#site-menu');
const sidebar = document.querySelector<HTMLElement>('#docs-sidebar');
const label = toggle?.querySelector('.visually-hidden');

if (toggle && sidebar) toggle.setAttribute('aria-controls', 'site-menu docs-sidebar');

function isOpen(): boolean {
  return document.body.classList.contains('menu-open');
}

function setOpen(open: boolean): void {
  document.body.classList.toggle('menu-open', open);
  toggle?.setAttribute('aria-expanded', String(open));
  if (label) label.textContent = open ? 'Close menu' : 'Menu';
  if (open && links) {
    document.body.style.setProperty('--menu-top', `${links.getBoundingClientRect().bottom}px`);
  }
  if (open && sidebar) scrollToCurrent(sidebar);
}

toggle?.addEventListener('click', () => setOpen(!isOpen()));
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && isOpen()) {
    setOpen(false);
    toggle?.focus();
  }
});
document.addEventListener('click', (event) => {
  const target = event.target;
  if (target instanceof Element && target.closest('.header-links a, .docs-sidebar a')) {
    setOpen(false);
  }
});
// Widening the window past the breakpoint hides the menu's CSS; keep the state honest with it.
window.matchMedia('(min-width: 50.0625rem)').addEventListener('change', (event) => {
  if (event.matches && isOpen()) setOpen(false);
});
