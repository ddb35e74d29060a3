import { describe, expect, it } from 'vitest';
import { composeAnswer } from '../../../functions/memory/inference/compose-answer.ts';
import { planConsolidation } from '../../../functions/memory/inference/consolidate.ts';
import { extractFacts } from '../../../functions/memory/inference/extract-facts.ts';
import type { MemoryRecord } from '../../../functions/memory/inference/records.ts';
import { reconcile } from '../../../functions/memory/inference/reconcile.ts';
import { reflect } from '../../../functions/memory/inference/reflect.ts';
import { atomicStatements } from '../../../functions/memory/inference/statements.ts';
import { localProvider } from '../../../functions/memory/models/local-provider.ts';

const local = localProvider();

function fact(id: string, content: string, day = 1): MemoryRecord {
  return {
    id,
    kind: 'fact',
    content,
    scopes: [],
    created_at: `2026-01-${String(day).padStart(2, '0')}T00:00:00.000Z`,
  };
}

describe('local extraction', () => {
  it('splits content into atomic statements and resolves the first person to the speaker', () => {
    expect(
      atomicStatements(
        'Hi! I moved to Lisbon last month and I work as a nurse. My sister is called Ana. How are you?',
        'Maya',
      ),
    ).toEqual([
      'Maya moved to Lisbon last month.',
      'Maya works as a nurse.',
      "Maya's sister is called Ana.",
    ]);
  });

  it("keeps verbs in agreement: I'm, I have, I study", () => {
    expect(atomicStatements("I'm vegetarian. I have two dogs. I study physics.", 'Omar')).toEqual([
      'Omar is vegetarian.',
      'Omar has two dogs.',
      'Omar studies physics.',
    ]);
  });

  it('keeps irregular past tenses, drops lead-ins and never guesses an unresolvable subject', () => {
    expect(
      atomicStatements(
        'Big news: I sold the old car and now I drive a Honda Civic. Thanks, that helps a lot. Ok, let us continue tomorrow.',
        'Maya',
      ),
    ).toEqual(['Maya sold the old car.', 'Maya drives a Honda Civic.']);
  });

  it('names the local provider and model and counts tokens with the tokenizer', async () => {
    const result = await extractFacts(local, { content: 'I like jazz.', speaker: 'Li' });
    expect(result.statements).toEqual(['Li likes jazz.']);
    expect(result.attribution).toEqual({
      provider: 'local',
      model: 'local-extractive-v1',
      extractive: true,
    });
    expect(result.usage.source).toBe('tokenizer');
    expect(result.usage.input_tokens).toBeGreaterThan(0);
  });
});

describe('reconciliation', () => {
  const stored = [fact('f1', 'Maya lives in Porto.'), fact('f2', 'Maya likes jazz.')];

  it('supersedes an older value of the same attribute, never overwriting it', () => {
    const [d] = reconcile(['Maya moved to Lisbon.'], stored);
    expect(d).toMatchObject({ action: 'supersede', target: 'f1' });
  });

  it('is a no-op for an exact or near duplicate', () => {
    expect(reconcile(['maya likes jazz'], stored)[0]).toMatchObject({
      action: 'noop',
      target: 'f2',
    });
  });

  it('updates when the statement adds detail to a stored fact', () => {
    expect(reconcile(['Maya likes jazz and blues records.'], stored)[0]).toMatchObject({
      action: 'update',
      target: 'f2',
    });
  });

  it('creates a new attribute, and ignores facts that are already superseded', () => {
    expect(reconcile(['Maya adopted a cat.'], stored)[0]?.action).toBe('create');
    const closed = [{ ...fact('f1', 'Maya lives in Porto.'), valid_until: '2026-02-01T00:00:00Z' }];
    expect(reconcile(['Maya lives in Porto.'], closed)[0]?.action).toBe('create');
  });
});

describe('local chat answers', () => {
  const memories = [
    fact('f1', 'Maya lives in Porto.', 1),
    fact('f3', 'Maya moved to Lisbon.', 3),
    fact('f2', 'Maya works as a nurse.', 2),
  ];

  it('quotes the best-matching memory with a citation and labels itself extractive', async () => {
    const answer = await composeAnswer(local, { message: 'What is Maya’s job?', memories });
    expect(answer.known).toBe(true);
    expect(answer.citations[0]).toMatchObject({ ref: 1, id: 'f2' });
    expect(answer.answer).toContain('"Maya works as a nurse." [1]');
    expect(answer.answer).toMatch(/extractive/);
    expect(answer.attribution.provider).toBe('local');
  });

  it('prefers the most recent of equally matching memories', async () => {
    const answer = await composeAnswer(local, { message: 'Where does Maya live?', memories });
    expect(answer.citations[0]?.id).toBe('f3');
  });

  it('says it does not know when nothing matches', async () => {
    const answer = await composeAnswer(local, { message: 'What car does Bob drive?', memories });
    expect(answer.known).toBe(false);
    expect(answer.citations).toEqual([]);
    expect(answer.answer).toMatch(/^I do not know/);
  });
});

describe('local reflection and consolidation', () => {
  it('summarises what the facts say per entity, linked to its sources', async () => {
    const r = await reflect(local, [
      fact('f1', 'Maya lives in Lisbon.'),
      fact('f2', 'Maya works as a nurse.'),
      fact('f3', 'Omar studies physics.'),
    ]);
    expect(r.insights[0]).toMatchObject({ entity: 'Maya', sources: ['f1', 'f2'] });
    expect(r.insights[0]?.insight).toContain('"Maya lives in Lisbon"');
    expect(r.insights[0]?.insight).toContain('2 stored facts say');
    expect(r.insights[1]).toMatchObject({ entity: 'Omar', sources: ['f3'] });
    expect(r.insights[1]?.insight).toBe('Omar: 1 stored fact says "Omar studies physics".');
  });

  it('merges exact and near duplicates and supersedes older values of an attribute', async () => {
    const plan = await planConsolidation(local, [
      fact('f1', 'Maya lives in Porto.', 1),
      fact('f2', 'Maya likes jazz.', 2),
      fact('f3', 'maya likes jazz', 3),
      fact('f4', 'Maya moved to Lisbon.', 4),
    ]);
    expect(plan.decisions).toEqual([
      expect.objectContaining({ action: 'supersede', id: 'f1', by: 'f4' }),
      expect.objectContaining({ action: 'keep', id: 'f2' }),
      expect.objectContaining({ action: 'merge', id: 'f3', into: 'f2', reason: 'exact duplicate' }),
      expect.objectContaining({ action: 'keep', id: 'f4' }),
    ]);
  });
});
