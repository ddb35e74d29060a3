/**
 * `/console/query`: the playground. One question runs in the four modes side by side, asked with
 * `explain: true` so that each result carries the server's own account of its score (rank,
 * weight and contribution of every arm), beside the block `POST /context` builds for it, and the
 * default mode's top result is explained (why-first.ts).
 */
import { api, inContext } from './api.ts';
import { scopeList } from './fact-cells.ts';
import { byId, field, fill, h } from './dom.ts';
import { startView } from './shell.ts';
import { attempt, say } from './status.ts';
import {
  ARMS,
  MODES,
  type ContextBlock,
  type QueryAnswer,
  type QueryHit,
  type Ranks,
  type ScoreExplanation,
} from './types.ts';
import { explainTop } from './why-first.ts';

function rankText(ranks: Ranks | undefined): string | null {
  if (!ranks) return null;
  const part = (name: string, r: number | null | undefined) => `${name} ${r ?? '–'}`;
  const parts = [part('bm25', ranks.bm25), part('vector', ranks.vector)];
  if ('graph' in ranks) parts.push(part('graph', ranks.graph));
  return `ranks: ${parts.join(' · ')}`;
}

/** What each arm added to a fused score (one-arm modes have nothing to add to their score). */
function armText(explain: ScoreExplanation | undefined): string | null {
  if (!explain) return null;
  const parts = ARMS.flatMap((arm) => {
    const part = explain.arms[arm];
    return part === undefined ? [] : [`${arm} +${part.contribution.toFixed(3)}`];
  });
  return parts.length > 1 ? `fused ${explain.fused.toFixed(3)} = ${parts.join(' ')}` : null;
}

function hit(result: QueryHit): HTMLElement {
  return h(
    'li',
    { 'data-id': result.id },
    h('p', {}, result.content),
    h(
      'p',
      { class: 'muted' },
      `score ${result.score.toFixed(3)}`,
      rankText(result.ranks) ? ` · ${rankText(result.ranks)}` : null,
    ),
    armText(result.explain) ? h('p', { class: 'muted arms' }, armText(result.explain)) : null,
    scopeList(result.scopes),
  );
}

function column(answer: QueryAnswer, asked: string): HTMLElement {
  const title = answer.mode === asked ? asked : `${asked} (ran as ${answer.mode})`;
  return h(
    'section',
    { class: 'panel', 'data-mode': asked, 'aria-label': `${asked} results` },
    h('h2', {}, title),
    answer.note ? h('p', { class: 'muted' }, answer.note) : null,
    answer.results.length === 0
      ? h('p', {}, 'No results this key may read.')
      : h('ol', {}, ...answer.results.map(hit)),
  );
}

startView((_session, contextId) => {
  say('Ask a question: it runs in bm25, vector, hybrid and hybrid_graph at once.');
  const form = byId('query-form', HTMLFormElement);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const question = field(form, 'q');
    const k = Number(field(form, 'k')) || 5;
    if (question === '') return;
    say('Asking in four modes…');
    void attempt(async () => {
      const [answers, block] = await Promise.all([
        Promise.all(
          MODES.map((mode) =>
            api<QueryAnswer>(inContext(contextId, '/query'), {
              method: 'POST',
              body: { query: question, mode, k, explain: true },
            }),
          ),
        ),
        api<ContextBlock>(inContext(contextId, '/context'), {
          method: 'POST',
          body: { query: question },
        }),
      ]);
      fill(byId('modes', HTMLElement), ...answers.map((a, i) => column(a, MODES[i] ?? a.mode)));
      const why = explainTop(
        question,
        answers.map((a, i) => ({ mode: MODES[i] ?? a.mode, results: a.results })),
        block.items.map((item) => item.id),
      );
      const whyPanel = byId('why', HTMLElement);
      fill(
        whyPanel,
        h('h2', {}, 'Why did this rank first?'),
        why === null
          ? h('p', {}, 'Nothing matched, so nothing ranked first.')
          : h(
              'div',
              {},
              h('blockquote', { id: 'why-top' }, why.top.content),
              h('ul', { id: 'why-reasons' }, ...why.reasons.map((r) => h('li', {}, r))),
            ),
      );
      whyPanel.hidden = false;
      fill(
        byId('block', HTMLElement),
        h('h2', {}, 'The block POST /context returns'),
        h(
          'p',
          { class: 'muted' },
          `${block.tokens} of ${block.max_tokens} tokens, ${block.items.length} item(s)${block.cached ? ', from the cache' : ''}.`,
        ),
        h('pre', { class: 'block', tabindex: 0 }, block.context),
      );
      byId('block', HTMLElement).hidden = false;
      say(`Done: ${answers.map((a) => `${a.mode} ${a.results.length}`).join(', ')}.`);
    });
  });
});
