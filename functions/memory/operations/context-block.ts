import { resolveLens } from '../auth/guards.ts';
import type { AuthContext } from '../auth/principal.ts';
import { unwrap } from '../errors.ts';
import type { ItemKind, TurnRecord } from '../store/types.ts';
import { DEFAULT_MODE, searchContext } from './query.ts';
import { sessionLens } from './session-lens.ts';
import { requireContext } from './contexts.ts';
import type { OperationDeps } from './deps.ts';
import { tokenCount } from './tokens.ts';

export const DEFAULT_CONTEXT_TOKENS = 2000;
export const MAX_CONTEXT_TOKENS = 32000;
const CANDIDATE_FACTS = 30;
const CANDIDATE_TURNS = 50;

export interface ContextBlockInput {
  contextId: string;
  query?: string | undefined;
  session_id?: string | undefined;
  max_tokens?: number | undefined;
}

export interface ContextBlockItem {
  id: string;
  kind: ItemKind | 'turn';
  content: string;
  score?: number;
  role?: string;
}

export interface ContextBlock {
  context: string;
  items: ContextBlockItem[];
  tokens: number;
  max_tokens: number;
}

const FACTS_HEADING = '## Relevant memory\n';
const TURNS_HEADING = '## Recent conversation\n';

/**
 * A prompt-ready block: the most relevant facts (hybrid query; the newest without one) and the
 * session's most recent turns, greedily packed under `max_tokens` counted with the site's tokenizer. Facts get first
 * claim on 60% of the budget, turns on the rest, then facts fill what turns left.
 */
export async function buildContextBlock(
  deps: OperationDeps,
  auth: AuthContext,
  input: ContextBlockInput,
): Promise<ContextBlock> {
  const lens = resolveLens(auth, 'memory:read', undefined);
  await requireContext(deps, auth, input.contextId);
  const store = deps.store(input.contextId);
  const maxTokens = input.max_tokens ?? DEFAULT_CONTEXT_TOKENS;

  const facts: ContextBlockItem[] = [];
  if (input.query && input.query.trim().length > 0) {
    const hits = await searchContext(deps, input.contextId, {
      mode: DEFAULT_MODE,
      text: input.query,
      k: CANDIDATE_FACTS,
      lens,
    });
    for (const h of hits)
      facts.push({ id: h.id, kind: h.kind, content: h.content, score: h.score });
  } else {
    // Without a query, the newest facts are the most likely to matter.
    for (const f of await store.recentItems('fact', lens, CANDIDATE_FACTS)) {
      facts.push({ id: f.id, kind: f.kind, content: f.content });
    }
  }
  let turns: TurnRecord[] = [];
  if (input.session_id) {
    turns = unwrap(
      await store.listTurns({
        sessionId: input.session_id,
        lens: sessionLens(auth),
        limit: CANDIDATE_TURNS,
        offset: 0,
        newestFirst: true,
      }),
    ).turns;
  }

  const factLine = (f: ContextBlockItem): string => `- ${f.content.replace(/\s+/g, ' ')}\n`;
  const turnLine = (t: TurnRecord): string => `${t.role}: ${t.content.replace(/\s+/g, ' ')}\n`;
  let used = 0;
  const take = (text: string, budget: number): boolean => {
    const cost = tokenCount(text);
    if (used + cost > budget) return false;
    used += cost;
    return true;
  };
  const chosenFacts: ContextBlockItem[] = [];
  const chosenTurns: TurnRecord[] = [];
  const factBudget = turns.length > 0 ? Math.floor(maxTokens * 0.6) : maxTokens;
  const packFacts = (budget: number): void => {
    if (facts.length === 0) return;
    if (chosenFacts.length === 0 && !take(FACTS_HEADING, budget)) return;
    for (const f of facts.slice(chosenFacts.length)) {
      if (!take(factLine(f), budget)) break;
      chosenFacts.push(f);
    }
  };
  packFacts(factBudget);
  if (turns.length > 0 && take(`\n${TURNS_HEADING}`, maxTokens)) {
    for (const t of turns) {
      if (!take(turnLine(t), maxTokens)) break;
      chosenTurns.push(t);
    }
  }
  packFacts(maxTokens);

  const render = (): string => {
    let text = '';
    if (chosenFacts.length > 0) text += FACTS_HEADING + chosenFacts.map(factLine).join('');
    if (chosenTurns.length > 0) {
      text += `${text ? '\n' : ''}${TURNS_HEADING}${[...chosenTurns].reverse().map(turnLine).join('')}`;
    }
    return text;
  };
  // Pieces were counted one by one; BPE merges across their seams can differ by a token or so,
  // so the joined text is counted again and trimmed (least relevant fact, then oldest turn).
  let context = render();
  let tokens = tokenCount(context);
  while (tokens > maxTokens && (chosenFacts.length > 0 || chosenTurns.length > 0)) {
    if (chosenFacts.length > 0) chosenFacts.pop();
    else chosenTurns.pop();
    context = render();
    tokens = tokenCount(context);
  }
  const items: ContextBlockItem[] = [
    ...chosenFacts,
    ...[...chosenTurns]
      .reverse()
      .map((t) => ({ id: t.id, kind: 'turn' as const, content: t.content, role: t.role })),
  ];
  return { context, items, tokens, max_tokens: maxTokens };
}
