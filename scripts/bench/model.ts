// Model part of `npm run bench` (also runnable alone: `node scripts/bench/model.ts`; needs `npm run build`).
// Over the shipped conversation set (test/fixtures/conversations), against a real `wrangler dev`
// with the default `local` provider: evidence recall@10 per query mode, for memory written with
// `?infer=full` (extracted facts) against the peer "raw turns" (every user turn stored
// literally, as a plain vector/keyword store would), the local provider's answer accuracy over
// /chat, and tokens per chat request.
import { pathToFileURL } from 'node:url';
import { startDevServer, type DevServer } from '../../test/support/wrangler-dev.ts';
import type {
  FixtureConversation,
  FixtureQuestion,
} from '../../test/fixtures/conversations/conversation-set.ts';
import conversations from '../../test/fixtures/conversations/conversations.json' with { type: 'json' };

const MODES = ['bm25', 'vector', 'hybrid', 'hybrid_graph'] as const;
type Mode = (typeof MODES)[number];
type Ingest = 'infer-full' | 'raw-turns';
const K = 10;

interface Api {
  post<T>(path: string, body: unknown): Promise<T>;
}

function client(server: DevServer): Api {
  return {
    async post<T>(path: string, body: unknown): Promise<T> {
      const res = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${server.bootstrapKey}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${path}: ${res.status} ${text}`);
      return JSON.parse(text) as T;
    },
  };
}

/** Writes a conversation's user turns; returns which stored item came from which turn. */
async function ingest(
  api: Api,
  ctx: string,
  conv: FixtureConversation,
  how: Ingest,
): Promise<Map<string, string>> {
  await api.post('/api/v1/contexts', { id: ctx });
  const itemToTurn = new Map<string, string>();
  for (const turn of conv.turns) {
    if (turn.role !== 'user') continue;
    const path = how === 'infer-full' ? `/api/v1/${ctx}/facts?infer=full` : `/api/v1/${ctx}/facts`;
    const body = await api.post<{ facts: { id: string }[] }>(path, {
      content: turn.content,
      metadata: { speaker: turn.speaker, turn_id: turn.id },
    });
    // A no-op returns the fact already stored; it keeps pointing at the turn that first said it.
    for (const f of body.facts) if (!itemToTurn.has(f.id)) itemToTurn.set(f.id, turn.id);
  }
  return itemToTurn;
}

async function recall(
  api: Api,
  ctx: string,
  q: FixtureQuestion,
  mode: Mode,
  itemToTurn: Map<string, string>,
): Promise<number> {
  const body = await api.post<{ results: { id: string }[] }>(`/api/v1/${ctx}/query`, {
    query: q.question,
    mode,
    k: K,
  });
  const turns = new Set(body.results.map((r) => itemToTurn.get(r.id)));
  return q.evidence_turn_ids.filter((t) => turns.has(t)).length / q.evidence_turn_ids.length;
}

interface ChatBody {
  answer: string;
  known: boolean;
  usage: { total_tokens: number };
}

function correct(q: FixtureQuestion, a: ChatBody): boolean {
  if (q.gold_answer === null) return !a.known;
  return a.known && a.answer.toLowerCase().includes(q.gold_answer.toLowerCase());
}

const pct = (n: number) => `${(100 * n).toFixed(1)}%`;
const mean = (xs: number[]) =>
  xs.length === 0 ? Number.NaN : xs.reduce((a, b) => a + b, 0) / xs.length;

export async function runModelBench(): Promise<string> {
  const server = await startDevServer();
  try {
    const api = client(server);
    const set = conversations as FixtureConversation[];
    const recalls: Record<Ingest, Record<Mode, number[]>> = {
      'infer-full': { bm25: [], vector: [], hybrid: [], hybrid_graph: [] },
      'raw-turns': { bm25: [], vector: [], hybrid: [], hybrid_graph: [] },
    };
    const accuracy: Record<Ingest, Record<string, boolean[]>> = {
      'infer-full': {},
      'raw-turns': {},
    };
    const chatTokens: Record<Ingest, number[]> = { 'infer-full': [], 'raw-turns': [] };
    let facts = 0;
    for (const conv of set) {
      for (const how of ['infer-full', 'raw-turns'] as const) {
        const ctx = `bench-${how}-${conv.id}`;
        const itemToTurn = await ingest(api, ctx, conv, how);
        if (how === 'infer-full') facts += itemToTurn.size;
        for (const q of conv.questions) {
          if (q.evidence_turn_ids.length > 0) {
            for (const mode of MODES)
              recalls[how][mode].push(await recall(api, ctx, q, mode, itemToTurn));
          }
          const answer = await api.post<ChatBody>(`/api/v1/${ctx}/chat`, { message: q.question });
          (accuracy[how][q.kind] ??= []).push(correct(q, answer));
          chatTokens[how].push(answer.usage.total_tokens);
        }
      }
    }
    const questions = set.flatMap((c) => c.questions);
    const answerable = questions.filter((q) => q.evidence_turn_ids.length > 0).length;
    const userTurns = set.flatMap((c) => c.turns).filter((t) => t.role === 'user').length;
    const kinds = [...new Set(questions.map((q) => q.kind))];
    const overall = (how: Ingest) => mean(Object.values(accuracy[how]).flat().map(Number));
    const lines = [
      '## Model-backed memory (local provider)',
      '',
      `Command: \`npm run bench -- model\`. Data: the shipped conversation set (${set.length} conversations, 3 sessions each, ${userTurns} user turns, ${questions.length} questions of which ${answerable} have evidence turns), generated by \`test/fixtures/conversations/generate.ts\`. Server: \`wrangler dev\` with \`AI_PROVIDER=local\`. Peer: **raw turns**, every user turn stored literally (\`infer=none\`), as a plain retrieval store would keep them; ours: **infer=full**, ${facts} extracted and reconciled facts.`,
      '',
      `### Evidence recall@${K} per query mode`,
      '',
      '| mode | infer=full | raw turns (peer) | ratio |',
      '|---|---|---|---|',
      ...MODES.map((m) => {
        const ours = mean(recalls['infer-full'][m]);
        const peer = mean(recalls['raw-turns'][m]);
        return `| \`${m}\` | ${pct(ours)} | ${pct(peer)} | ${(ours / peer).toFixed(2)}× |`;
      }),
      '',
      '### Answer accuracy of `/chat` (local provider: extractive, quotes stored memory)',
      '',
      'An answer counts as correct when it contains the gold answer; for the unanswerable questions, when it says it does not know.',
      '',
      '| question kind | n | infer=full | raw turns (peer) |',
      '|---|---|---|---|',
      ...kinds.map((k) => {
        const ours = accuracy['infer-full'][k] ?? [];
        const peer = accuracy['raw-turns'][k] ?? [];
        return `| ${k} | ${ours.length} | ${pct(mean(ours.map(Number)))} | ${pct(mean(peer.map(Number)))} |`;
      }),
      `| **all** | ${questions.length} | **${pct(overall('infer-full'))}** | ${pct(overall('raw-turns'))} |`,
      '',
      '### Tokens per chat request',
      '',
      'Prompt plus answer as the local provider counts them with the o200k_base tokenizer (what a generative provider would be sent with the same retrieved memory).',
      '',
      `| | infer=full | raw turns (peer) | ratio |`,
      '|---|---|---|---|',
      `| mean tokens per /chat | ${mean(chatTokens['infer-full']).toFixed(0)} | ${mean(chatTokens['raw-turns']).toFixed(0)} | ${(mean(chatTokens['infer-full']) / mean(chatTokens['raw-turns'])).toFixed(2)}× |`,
    ];
    return lines.join('\n');
  } finally {
    await server.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(await runModelBench());
}
