/**
 * Code tabs (CodeTabs.astro): without script every panel shows under its label; with it, one
 * panel at a time behind an ARIA tab list, and the chosen language is remembered across pages.
 */
const STORAGE_KEY = 'code-tab';

function activate(group: HTMLElement, label: string): void {
  const tabs = group.querySelectorAll<HTMLButtonElement>('[role="tab"]');
  const panels = group.querySelectorAll<HTMLElement>('[role="tabpanel"]');
  tabs.forEach((tab, i) => {
    const on = tab.dataset.label === label;
    tab.setAttribute('aria-selected', String(on));
    tab.tabIndex = on ? 0 : -1;
    panels[i]?.classList.toggle('tab-hidden', !on);
  });
}

for (const group of document.querySelectorAll<HTMLElement>('[data-code-tabs]')) {
  group.classList.add('tabs-ready');
  const tabs = [...group.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
  const first = tabs[0]?.dataset.label ?? '';
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(STORAGE_KEY);
  } catch {
    stored = null;
  }
  activate(group, tabs.some((t) => t.dataset.label === stored) && stored ? stored : first);
  tabs.forEach((tab, i) => {
    tab.addEventListener('click', () => {
      const label = tab.dataset.label ?? first;
      for (const other of document.querySelectorAll<HTMLElement>('[data-code-tabs]')) {
        activate(other, label);
      }
      try {
        localStorage.setItem(STORAGE_KEY, label);
      } catch {
        // Not stored: the choice holds for this page only.
      }
    });
    tab.addEventListener('keydown', (event) => {
      const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
      if (step === 0) return;
      const target = tabs[(i + step + tabs.length) % tabs.length];
      target?.focus();
      target?.click();
    });
  });
}
