/**
 * A fact's versions as a timeline, oldest first: each newer version superseded or refined the one
 * before it (`?infer=full`, consolidation, an edit here). Read with the MCP `fact_history` tool,
 * which walks the same version links; REST has no history route yet.
 */
import { h, fill, when } from './dom.ts';
import { callTool } from './mcp.ts';
import type { Fact } from './types.ts';

interface History {
  id: string;
  versions: Fact[];
}

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
  const history = await callTool<History>('fact_history', { context_id: contextId, id: fact.id });
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
