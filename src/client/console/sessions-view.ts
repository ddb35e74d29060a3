/**
 * `/console/sessions`: the Context's sessions (50 a page) and, for the chosen one, its turns as a
 * chat, oldest first. A session outside the key's read grant is not listed (and 404 by id).
 */
import { api, inContext } from './api.ts';
import { byId, fill, h, when } from './dom.ts';
import { startView } from './shell.ts';
import { attempt, say } from './status.ts';
import type { Turn } from './types.ts';

interface SessionRow {
  id: string;
  scopes: string[];
  created_at: string;
  turn_count: number;
}

async function openSession(contextId: string, id: string): Promise<void> {
  const path = inContext(contextId, `/sessions/${encodeURIComponent(id)}/turns`);
  const page = await api<{ turns: Turn[]; total: number }>(path, { query: { limit: 500 } });
  const chat = byId('chat', HTMLElement);
  fill(
    chat,
    h('h2', { id: 'chat-title', tabindex: -1 }, `Session ${id}`),
    h(
      'p',
      { class: 'muted' },
      `${page.total} turn(s)${page.total > page.turns.length ? `, the first ${page.turns.length} shown` : ''}.`,
    ),
    h(
      'ol',
      { class: 'chat', 'aria-labelledby': 'chat-title' },
      ...page.turns.map((t) =>
        h(
          'li',
          { 'data-role': t.role },
          h('strong', {}, `${t.role}: `),
          t.content,
          ' ',
          h('span', { class: 'muted' }, when(t.created_at)),
        ),
      ),
    ),
  );
  chat.hidden = false;
  chat.querySelector<HTMLElement>('#chat-title')?.focus();
  say(`Session ${id}: ${page.total} turn(s).`);
}

startView((_session, contextId) => {
  let offset = 0;
  const more = byId('more-sessions', HTMLButtonElement);
  async function load(): Promise<void> {
    const page = await api<{ sessions: SessionRow[]; total: number }>(
      inContext(contextId, '/sessions'),
      {
        query: { limit: 50, offset },
      },
    );
    const list = byId('session-list', HTMLElement);
    if (offset === 0) list.replaceChildren();
    for (const s of page.sessions) {
      const button = h('button', { type: 'button' }, s.id);
      button.addEventListener('click', () => void attempt(() => openSession(contextId, s.id)));
      list.append(
        h(
          'li',
          {},
          button,
          ` ${s.turn_count} turn(s) · ${s.scopes.join(', ') || 'unscoped'} · `,
          when(s.created_at),
        ),
      );
    }
    if (page.total === 0) fill(list, h('li', {}, 'No session this key may read.'));
    offset += page.sessions.length;
    more.hidden = offset >= page.total;
    say(`${page.total} session(s).`);
  }
  more.addEventListener('click', () => void attempt(load));
  void attempt(async () => {
    await load();
    const wanted = decodeURIComponent(location.hash.slice(1));
    if (wanted !== '') await openSession(contextId, wanted);
  });
});
