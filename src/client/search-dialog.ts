/**
 * The header search: `/` or Ctrl-K (Cmd-K) opens it, results arrive as the reader types (from
 * /api/docs/search, the index agents query too, told which page the reader is on), the first
 * result is highlighted, arrow keys move, Enter opens the chosen page, Esc closes the dialog.
 */
import { localPath, markTerms, sectionOf, type SearchHit } from './search-results.ts';

const dialog = document.querySelector<HTMLDialogElement>('#search-dialog');
const input = document.querySelector<HTMLInputElement>('#search-input');
const list = document.querySelector<HTMLUListElement>('#search-results');
const status = document.querySelector<HTMLParagraphElement>('#search-status');

const DEBOUNCE_MS = 120;
let active = -1;
let timer: ReturnType<typeof setTimeout> | undefined;
let controller: AbortController | undefined;

function options(): HTMLLIElement[] {
  return list ? [...list.querySelectorAll<HTMLLIElement>('[role="option"]')] : [];
}

function select(index: number): void {
  const all = options();
  if (all.length === 0) return;
  active = (index + all.length) % all.length;
  all.forEach((o, i) => o.setAttribute('aria-selected', String(i === active)));
  const chosen = all[active];
  if (chosen) {
    input?.setAttribute('aria-activedescendant', chosen.id);
    chosen.scrollIntoView({ block: 'nearest' });
  }
}

function render(hits: SearchHit[], query: string): void {
  if (!list || !status || !input) return;
  list.replaceChildren();
  active = -1;
  input.removeAttribute('aria-activedescendant');
  hits.forEach((hit, i) => {
    const path = localPath(hit.url);
    const item = document.createElement('li');
    item.id = `search-result-${i}`;
    item.setAttribute('role', 'option');
    item.setAttribute('aria-selected', 'false');
    const link = document.createElement('a');
    link.href = path;
    link.tabIndex = -1;
    const section = document.createElement('span');
    section.className = 'search-section';
    section.textContent = sectionOf(path);
    const title = document.createElement('span');
    title.className = 'search-title';
    title.textContent = hit.title;
    const snippet = document.createElement('span');
    snippet.className = 'search-snippet';
    for (const part of markTerms(hit.snippet, query)) {
      if (part.match) {
        const mark = document.createElement('mark');
        mark.textContent = part.text;
        snippet.append(mark);
      } else snippet.append(part.text);
    }
    link.append(section, title, snippet);
    item.append(link);
    item.addEventListener('mousemove', () => select(i));
    list.append(item);
  });
  input.setAttribute('aria-expanded', String(hits.length > 0));
  if (hits.length > 0) select(0);
  status.textContent = hits.length === 0 ? `No results for “${query}”.` : `${hits.length} results`;
}

async function runSearch(query: string): Promise<void> {
  controller?.abort();
  if (query.trim() === '') {
    render([], '');
    if (status) status.textContent = '';
    return;
  }
  controller = new AbortController();
  try {
    const params = new URLSearchParams({ q: query, limit: '8', from: window.location.pathname });
    const res = await fetch(`/api/docs/search?${params.toString()}`, {
      signal: controller.signal,
    });
    if (!res.ok) throw new Error(`search answered ${res.status}`);
    const body = (await res.json()) as { results: SearchHit[] };
    render(body.results, query);
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') return;
    if (status) status.textContent = 'Search is unavailable right now.';
  }
}

function open(): void {
  if (!dialog || dialog.open) return;
  dialog.showModal();
  input?.select();
}

// Other parts of the page (the 404 search box) open the dialog with a query already typed.
document.addEventListener('engram:search', (event) => {
  if (!(event instanceof CustomEvent) || typeof event.detail !== 'string' || !input) return;
  open();
  input.value = event.detail;
  void runSearch(event.detail);
});

for (const button of document.querySelectorAll('[data-search-open]')) {
  button.addEventListener('click', open);
}

document.addEventListener('keydown', (event) => {
  const target = event.target;
  const typing =
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
  if ((event.key === 'k' || event.key === 'K') && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    open();
  } else if (event.key === '/' && !typing) {
    event.preventDefault();
    open();
  }
});

input?.addEventListener('input', () => {
  clearTimeout(timer);
  timer = setTimeout(() => void runSearch(input.value), DEBOUNCE_MS);
});

input?.addEventListener('keydown', (event) => {
  if (event.key === 'ArrowDown') {
    event.preventDefault();
    select(active + 1);
  } else if (event.key === 'ArrowUp') {
    event.preventDefault();
    select(active - 1);
  } else if (event.key === 'Escape') {
    // A search input's own Esc only clears the text; the reader wants the dialog gone.
    event.preventDefault();
    dialog?.close();
  } else if (event.key === 'Enter') {
    event.preventDefault();
    const link = options()[active === -1 ? 0 : active]?.querySelector('a');
    if (link) window.location.assign(link.href);
  }
});

// A click on the backdrop (the dialog element itself, outside its content) closes it.
dialog?.addEventListener('click', (event) => {
  if (event.target === dialog) dialog.close();
});
