/**
 * The narrow-screen menu: one button opens the header links and, on docs pages, the sidebar.
 * `body.menu-open` drives the CSS; Esc or a link click closes it.
 */
const toggle = document.querySelector<HTMLButtonElement>('[data-menu-toggle]');

function setOpen(open: boolean): void {
  document.body.classList.toggle('menu-open', open);
  toggle?.setAttribute('aria-expanded', String(open));
}

toggle?.addEventListener('click', () => {
  setOpen(!document.body.classList.contains('menu-open'));
});
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && document.body.classList.contains('menu-open')) setOpen(false);
});
document.addEventListener('click', (event) => {
  const target = event.target;
  if (target instanceof Element && target.closest('.header-links a, .docs-sidebar a')) {
    setOpen(false);
  }
});
