import { describe, expect, it } from 'vitest';
import { generateConversations } from '../../fixtures/conversations/conversation-set.ts';
import committed from '../../fixtures/conversations/conversations.json';

describe('the shipped conversation set', () => {
  it('is exactly what the committed generator produces', () => {
    expect(committed).toEqual(generateConversations());
  });

  it('has at least 10 multi-session conversations and 100 answerable questions', () => {
    expect(committed.length).toBeGreaterThanOrEqual(10);
    for (const c of committed)
      expect(new Set(c.turns.map((t) => t.session_id)).size).toBeGreaterThan(1);
    const answerable = committed.flatMap((c) => c.questions).filter((q) => q.gold_answer !== null);
    expect(answerable.length).toBeGreaterThanOrEqual(100);
  });

  it('points every answerable question at user turns that contain its gold answer', () => {
    for (const c of committed) {
      const turns = new Map(c.turns.map((t) => [t.id, t]));
      for (const q of c.questions) {
        if (q.gold_answer === null) {
          expect(q.evidence_turn_ids).toEqual([]);
          continue;
        }
        expect(q.evidence_turn_ids.length).toBeGreaterThan(0);
        const evidence = q.evidence_turn_ids.map((id) => turns.get(id));
        expect(evidence.every((t) => t?.role === 'user')).toBe(true);
        expect(evidence.some((t) => t?.content.includes(q.gold_answer ?? '\u0000'))).toBe(true);
      }
    }
  });
});
