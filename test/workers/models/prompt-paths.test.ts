import { describe, expect, it } from 'vitest';
import { ModelError } from '../../../functions/memory/models/provider.ts';
import { composeAnswer } from '../../../functions/memory/inference/compose-answer.ts';
import { planConsolidation } from '../../../functions/memory/inference/consolidate.ts';
import { extractFacts } from '../../../functions/memory/inference/extract-facts.ts';
import type { MemoryRecord } from '../../../functions/memory/inference/records.ts';
import { reflect } from '../../../functions/memory/inference/reflect.ts';
import { allPromptText, scriptedProvider } from './scripted-provider.ts';

function fact(id: string, content: string, created_at = '2026-01-01T00:00:00.000Z'): MemoryRecord {
  return { id, kind: 'fact', content, scopes: [], created_at };
}

const memories = [
  fact('fact_1', 'Maya lives in Lisbon.'),
  {
    ...fact('chunk_9', 'The onboarding guide says badges are collected at the front desk.'),
    kind: 'chunk' as const,
  },
];

describe('chat answers through a generative provider', () => {
  it('sends the retrieved memory and the session history in the prompt', async () => {
    const provider = scriptedProvider([
      '{"answer":"Maya lives in Lisbon [1].","citations":[1],"known":true}',
    ]);
    await composeAnswer(provider, {
      message: 'Where does Maya live?',
      memories,
      history: [
        {
          id: 't1',
          session_id: 's',
          role: 'user',
          speaker: 'Maya',
          content: 'Hi there',
          created_at: '',
        },
      ],
    });
    const prompt = allPromptText(provider);
    expect(prompt).toContain('[1] (fact fact_1) Maya lives in Lisbon.');
    expect(prompt).toContain('[2] (chunk chunk_9) The onboarding guide');
    expect(prompt).toContain('Maya: Hi there');
    expect(provider.requests[0]?.json).toBe(true);
  });

  it('maps citation numbers to fact and chunk ids and names provider and model', async () => {
    const provider = scriptedProvider([
      'Sure! ```json\n{"answer":"Lisbon [1]; badges at the desk [2].","citations":[1,2,2,7]}\n```',
    ]);
    const answer = await composeAnswer(provider, { message: 'Where?', memories });
    expect(answer.citations.map((c) => c.id)).toEqual(['fact_1', 'chunk_9']);
    expect(answer.citations.map((c) => c.kind)).toEqual(['fact', 'chunk']);
    expect(answer.attribution).toEqual({
      provider: 'scripted',
      model: 'scripted-text-1',
      extractive: false,
    });
    expect(answer.usage).toEqual({ input_tokens: 100, output_tokens: 10, source: 'provider' });
  });

  it('rejects an answer that is not JSON or does not fit the schema', async () => {
    await expect(
      composeAnswer(scriptedProvider(['I think Lisbon']), { message: 'Where?', memories }),
    ).rejects.toBeInstanceOf(ModelError);
    await expect(
      composeAnswer(scriptedProvider(['{"answer": 42}']), { message: 'Where?', memories }),
    ).rejects.toThrow(/does not fit the expected shape: answer/);
  });
});

describe('fact extraction through a generative provider', () => {
  it('carries speaker and recent turns and returns the validated statements', async () => {
    const provider = scriptedProvider([
      '{"facts":["Maya adopted a cat.","Maya adopted a cat."," "]}',
    ]);
    const result = await extractFacts(provider, {
      content: 'I adopted a cat',
      speaker: 'Maya',
      recentTurns: [
        { id: 't0', session_id: 's', role: 'assistant', content: 'Any news?', created_at: '' },
      ],
    });
    expect(allPromptText(provider)).toContain('SPEAKER: Maya');
    expect(allPromptText(provider)).toContain('assistant: Any news?');
    expect(allPromptText(provider)).toContain('NEW CONTENT:\nI adopted a cat');
    expect(result.statements).toEqual(['Maya adopted a cat.']);
  });

  it('refuses facts that are not strings', async () => {
    await expect(
      extractFacts(scriptedProvider(['{"facts":[1,2]}']), { content: 'x' }),
    ).rejects.toBeInstanceOf(ModelError);
  });
});

describe('reflection and consolidation through a generative provider', () => {
  it('keeps only insights whose sources were given to the model', async () => {
    const provider = scriptedProvider([
      JSON.stringify({
        insights: [
          {
            entity: 'Maya',
            insight: 'Maya is settled in Lisbon.',
            sources: ['fact_1', 'fact_404'],
          },
          { entity: 'Ghost', insight: 'Invented.', sources: ['fact_404'] },
        ],
      }),
    ]);
    const result = await reflect(provider, [fact('fact_1', 'Maya lives in Lisbon.')]);
    expect(allPromptText(provider)).toContain('fact_1: Maya lives in Lisbon.');
    expect(result.insights).toEqual([
      { entity: 'Maya', insight: 'Maya is settled in Lisbon.', sources: ['fact_1'] },
    ]);
  });

  it('turns consolidation decisions naming unknown ids into keep', async () => {
    const provider = scriptedProvider([
      JSON.stringify({
        decisions: [
          { action: 'merge', id: 'f2', into: 'f1' },
          { action: 'supersede', id: 'f1', by: 'nope' },
        ],
      }),
    ]);
    const plan = await planConsolidation(provider, [
      fact('f1', 'Maya likes tea.', '2026-01-01T00:00:00.000Z'),
      fact('f2', 'Maya likes tea a lot.', '2026-01-02T00:00:00.000Z'),
    ]);
    expect(plan.decisions.map((d) => d.action)).toEqual(['keep', 'merge']);
    expect(allPromptText(provider)).toContain(
      'f2 (2026-01-02T00:00:00.000Z): Maya likes tea a lot.',
    );
  });
});
