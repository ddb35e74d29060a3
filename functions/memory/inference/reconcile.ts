import { readAttribute, sameAttribute } from './attributes.ts';
import type { MemoryRecord } from './records.ts';
import { jaccard, normalise, terms } from './text.ts';

/**
 * What to do with one extracted statement given what the Context already holds. Nothing is ever
 * overwritten: `update` and `supersede` both keep the old fact, closed with `valid_until` and
 * linked to the new one; `update` says the new fact refines the old value, `supersede` that it
 * replaces it.
 */
export type Decision =
  | { action: 'create'; content: string; reason: string }
  | { action: 'update'; content: string; target: string; reason: string }
  | { action: 'supersede'; content: string; target: string; reason: string }
  | { action: 'noop'; content: string; target: string; reason: string };

/** Near-duplicate threshold on content-word Jaccard similarity. */
export const NEAR_DUPLICATE = 0.85;

function current(records: MemoryRecord[]): MemoryRecord[] {
  return records.filter((r) => r.kind === 'fact' && !r.valid_until);
}

/** Decides, statement by statement; later statements see the decisions of earlier ones. */
export function reconcile(statements: string[], existing: MemoryRecord[]): Decision[] {
  const live = current(existing).map((r) => ({ id: r.id, content: r.content }));
  const decisions: Decision[] = [];
  statements.forEach((content, index) => {
    const decision = decide(content, live);
    decisions.push(decision);
    const pendingId = `pending:${index}`;
    if (decision.action === 'noop') return;
    if (decision.action !== 'create') {
      const at = live.findIndex((r) => r.id === decision.target);
      if (at >= 0) live.splice(at, 1);
    }
    live.push({ id: pendingId, content });
  });
  return decisions;
}

function decide(content: string, live: { id: string; content: string }[]): Decision {
  const norm = normalise(content);
  const newTerms = terms(content);
  for (const r of live) {
    if (normalise(r.content) === norm) {
      return { action: 'noop', content, target: r.id, reason: 'already stored verbatim' };
    }
  }
  for (const r of live) {
    const oldTerms = terms(r.content);
    const sim = jaccard(newTerms, oldTerms);
    if (sim >= NEAR_DUPLICATE) {
      return {
        action: 'noop',
        content,
        target: r.id,
        reason: `near duplicate (${sim.toFixed(2)})`,
      };
    }
    if (
      oldTerms.size > 0 &&
      [...oldTerms].every((t) => newTerms.has(t)) &&
      newTerms.size > oldTerms.size
    ) {
      return { action: 'update', content, target: r.id, reason: 'adds detail to a stored fact' };
    }
  }
  const reading = readAttribute(content);
  if (reading) {
    for (const r of live) {
      const old = readAttribute(r.content);
      if (old && sameAttribute(reading, old) && old.value !== reading.value) {
        return {
          action: 'supersede',
          content,
          target: r.id,
          reason: `new value of ${reading.subject} ${reading.attribute}: "${reading.value}" replaces "${old.value}"`,
        };
      }
    }
  }
  return { action: 'create', content, reason: 'new information' };
}
