/** Marks the on-page TOC entry of the section being read. */
const links = new Map<string, HTMLAnchorElement>();
for (const a of document.querySelectorAll<HTMLAnchorElement>('.docs-toc a[href^="#"]')) {
  links.set(decodeURIComponent(a.hash.slice(1)), a);
}
const targets = [...links.keys()]
  .map((id) => document.getElementById(id))
  .filter((el): el is HTMLElement => el !== null);

if (targets.length > 0 && 'IntersectionObserver' in window) {
  const visible = new Set<string>();
  const observer = new IntersectionObserver(
    (entries) => {
      for (const e of entries) {
        if (e.isIntersecting) visible.add(e.target.id);
        else visible.delete(e.target.id);
      }
      const first = targets.find((t) => visible.has(t.id));
      if (!first) return;
      for (const [id, a] of links) {
        if (id === first.id) a.setAttribute('aria-current', 'location');
        else a.removeAttribute('aria-current');
      }
    },
    { rootMargin: '0px 0px -60% 0px' },
  );
  for (const t of targets) observer.observe(t);
}
