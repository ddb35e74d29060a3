/**
 * `/console/facts`: the Context's facts, a page at a time (`GET /facts`, cursor paging), or the
 * results of a search in any of the four modes (`POST /query`); per row its scopes, `valid_from`,
 * source, and the actions history, edit (a new version that supersedes this one) and forget.
 */
import { api, call, inContext } from './api.ts';
import { scopeList, sourceOf } from './fact-cells.ts';
import { showHistory } from './fact-history.ts';
import { byId, field, fill, h, when } from './dom.ts';
import { startView } from './shell.ts';
import { attempt, say } from './status.ts';
import type { Fact, FactPage, QueryAnswer } from './types.ts';

interface Listing {
  query: string;
  mode: string;
  kind: string;
  superseded: boolean;
}

const PAGE = 25;

function row(contextId: string, fact: Fact & { score?: number }, redraw: () => void): HTMLElement {
  const history = h('button', { type: 'button' }, 'History');
  const edit = h('button', { type: 'button' }, 'Edit');
  const forget = h('button', { type: 'button' }, 'Forget');
  const label = fact.content.slice(0, 40);
  history.setAttribute('aria-label', `History of “${label}”`);
  edit.setAttribute('aria-label', `Edit “${label}”`);
  forget.setAttribute('aria-label', `Forget “${label}”`);
  history.addEventListener('click', () => {
    void attempt(async () => {
      const count = await showHistory(byId('fact-detail', HTMLElement), contextId, fact);
      say(`History: ${count} version(s).`);
    });
  });
  edit.addEventListener('click', () => openEditor(contextId, fact, redraw));
  forget.addEventListener('click', () => {
    if (!confirm(`Forget this fact everywhere? “${fact.content}”`)) return;
    void attempt(async () => {
      await call(inContext(contextId, `/facts/${encodeURIComponent(fact.id)}`), {
        method: 'DELETE',
      });
      say('Forgotten: gone from every index.');
      redraw();
    });
  });
  return h(
    'tr',
    { 'data-fact-id': fact.id },
    h('td', {}, fact.content, fact.valid_until ? h('span', { class: 'tag' }, 'superseded') : null),
    h('td', {}, scopeList(fact.scopes)),
    h('td', {}, when(fact.valid_from ?? fact.created_at)),
    h('td', {}, sourceOf(fact)),
    h('td', {}, fact.score === undefined ? fact.kind : `${fact.kind} · ${fact.score.toFixed(3)}`),
    h('td', {}, h('div', { class: 'row-actions' }, history, edit, forget)),
  );
}

function openEditor(contextId: string, fact: Fact, redraw: () => void): void {
  const panel = byId('fact-detail', HTMLElement);
  const text = h('textarea', { id: 'edit-content', name: 'content', rows: 3, required: true });
  text.value = fact.content;
  const form = h(
    'form',
    { class: 'console-form' },
    h('label', { class: 'grow', for: 'edit-content' }, 'New text'),
    text,
    h('button', { class: 'primary', type: 'submit' }, 'Save new version'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void attempt(async () => {
      // A new version that supersedes this one (PATCH keeps the old text as history).
      await api(inContext(contextId, `/facts/${encodeURIComponent(fact.id)}`), {
        method: 'PATCH',
        body: { content: field(form, 'content') },
      });
      say('Saved: the new version supersedes the old one, which stays in its history.');
      panel.hidden = true;
      redraw();
    });
  });
  fill(
    panel,
    h('h2', {}, 'Edit'),
    h('p', { class: 'muted' }, 'Edits keep history: the old text is closed, not overwritten.'),
    form,
  );
  panel.hidden = false;
  text.focus();
}

function readListing(form: HTMLFormElement): Listing {
  const superseded = form.elements.namedItem('superseded');
  return {
    query: field(form, 'q'),
    mode: field(form, 'mode'),
    kind: field(form, 'kind'),
    superseded: superseded instanceof HTMLInputElement && superseded.checked,
  };
}

startView((_session, contextId) => {
  const form = byId('fact-search', HTMLFormElement);
  const body = byId('fact-rows', HTMLTableSectionElement);
  const next = byId('next-page', HTMLButtonElement);
  let cursor: string | null = null;
  let listing = readListing(form);

  async function load(append: boolean): Promise<void> {
    const redraw = () => void attempt(() => load(false));
    let facts: (Fact & { score?: number })[];
    if (listing.query !== '') {
      const answer = await api<QueryAnswer>(inContext(contextId, '/query'), {
        method: 'POST',
        body: {
          query: listing.query,
          mode: listing.mode,
          k: 50,
          include_superseded: listing.superseded,
          ...(listing.kind === '' ? {} : { kinds: [listing.kind] }),
        },
      });
      facts = answer.results;
      cursor = null;
      say(
        `${facts.length} result(s) for “${listing.query}” in ${answer.mode}.${answer.note ? ` ${answer.note}` : ''}`,
      );
    } else {
      const page = await api<FactPage>(inContext(contextId, '/facts'), {
        query: {
          limit: PAGE,
          cursor: append ? (cursor ?? undefined) : undefined,
          kind: listing.kind === '' ? undefined : listing.kind,
          include_superseded: listing.superseded ? 'true' : undefined,
        },
      });
      facts = page.facts;
      cursor = page.next_cursor;
      say(
        `${append ? 'More' : 'Showing'} ${facts.length} fact(s)${cursor ? '; more on the next page' : ''}.`,
      );
    }
    const rows = facts.map((f) => row(contextId, f, redraw));
    if (append) body.append(...rows);
    else fill(body, ...rows);
    if (facts.length === 0 && !append) {
      fill(body, h('tr', {}, h('td', { colspan: 6 }, 'Nothing this key may read matches.')));
    }
    next.hidden = cursor === null;
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    listing = readListing(form);
    void attempt(() => load(false));
  });
  next.addEventListener('click', () => void attempt(() => load(true)));
  void attempt(() => load(false));
});
