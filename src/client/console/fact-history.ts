/**
 * A fact's versions as a timeline, oldest first: each newer version superseded or refined the one
 * before it (`?infer=full`, consolidation, an edit here), as `GET /facts/{id}/history` walks
 * them (versions outside the key's read grant are left out by the server).
 */
import { api, inContext } from './api.ts';
import { h, fill, when } from './dom.ts';
import type { Fact, FactHistory } from './types.ts';

function period(fact: Fact): HTMLElement {
  return h(
    'p',
    { class: 'muted' },
    'from ',
    when(fact.valid_from ?? fact.created_at),
    fact.valid_until ? ' until ' : ' · current',
    fact.valid_until ? when(fact.valid_until) : null,
  );
}

export async function showHistory(
  target: HTMLElement,
  contextId: string,
  fact: Fact,
): Promise<number> {
  const history = await api<FactHistory>(
    inContext(contextId, `/facts/${encodeURIComponent(fact.id)}/history`),
  );
  const items = history.versions.map((v, i) =>
    h(
      'li',
      { 'aria-current': v.id === fact.id ? 'true' : undefined },
      h('strong', {}, `Version ${i + 1}`),
      i > 0 ? h('span', { class: 'muted' }, ' (replaced the one above)') : null,
      h('p', {}, v.content),
      period(v),
      h('code', { class: 'muted' }, v.id),
    ),
  );
  fill(
    target,
    h('h2', { id: 'history-title', tabindex: -1 }, 'History'),
    h('p', {}, `${history.versions.length} version(s) of this fact, oldest first.`),
    h('ol', { class: 'timeline', 'aria-labelledby': 'history-title' }, ...items),
  );
  target.hidden = false;
  target.querySelector<HTMLElement>('#history-title')?.focus();
  return history.versions.length;
}
