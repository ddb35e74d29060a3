/**
 * Dark mode: the page follows `prefers-color-scheme` until the reader presses the toggle; the
 * choice is then stored and applied before paint by the inline script in ThemeScript.astro.
 */
const root = document.documentElement;
const media = window.matchMedia('(prefers-color-scheme: dark)');

function effectiveTheme(): 'dark' | 'light' {
  const chosen = root.dataset.theme;
  if (chosen === 'dark' || chosen === 'light') return chosen;
  return media.matches ? 'dark' : 'light';
}

function sync(): void {
  const dark = effectiveTheme() === 'dark';
  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-theme-toggle]')) {
    button.setAttribute('aria-pressed', String(dark));
  }
}

for (const button of document.querySelectorAll<HTMLButtonElement>('[data-theme-toggle]')) {
  button.addEventListener('click', () => {
    const next = effectiveTheme() === 'dark' ? 'light' : 'dark';
    root.dataset.theme = next;
    try {
      localStorage.setItem('theme', next);
    } catch {
      // Private windows may refuse storage: the choice then lasts for this page only.
    }
    sync();
  });
}
media.addEventListener('change', sync);
sync();
