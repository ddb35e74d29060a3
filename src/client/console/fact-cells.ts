/** Table cells shared by the facts table and the query playground: scopes and where a fact came from. */
import { h } from './dom.ts';
import type { Fact } from './types.ts';

export function scopeList(scopes: readonly string[]): HTMLElement {
  if (scopes.length === 0) return h('span', { class: 'muted' }, 'unscoped');
  return h('ul', { class: 'scopes', 'aria-label': 'scopes' }, ...scopes.map((s) => h('li', {}, s)));
}

/** Session (a session id or a conversation label), document (a chunk's source) or written directly. */
export function sourceOf(fact: Fact): HTMLElement | string {
  if (fact.source_id) return h('span', {}, 'document ', h('code', {}, fact.source_id));
  if (fact.session_id) {
    return h(
      'a',
      { href: `/console/sessions#${encodeURIComponent(fact.session_id)}` },
      `session ${fact.session_id}`,
    );
  }
  if (fact.session) return `conversation ${fact.session}`;
  return h('span', { class: 'muted' }, 'written directly');
}
