import type { AuthContext } from '../auth/principal.ts';
import { unwrap } from '../errors.ts';
import { extractFacts } from '../inference/extract-facts.ts';
import type { ModelAttribution, TurnRecord } from '../inference/records.ts';
import { reconcile, type Decision } from '../inference/reconcile.ts';
import type { ModelProvider } from '../models/provider.ts';
import { lensFromGrant } from '../scopes/lens.ts';
import type { LiveItem } from '../store/model-paths.ts';
import { mayClose } from '../store/validity.ts';
import { sessionLens } from './session-lens.ts';
import type { AppliedChange, FactChange } from '../store/model-paths.ts';
import type { ItemRecord, NewItem } from '../store/types.ts';
import { requireContext } from './contexts.ts';
import type { FactDraft, InferFacts, OperationDeps } from './deps.ts';
import { embedCharged } from './model-embed.ts';
import { chargeTokens, type BudgetState } from './model-usage.ts';
import { providerOf } from './model-provider.ts';

const RECENT_TURNS = 10;

/** A stored fact as `?infer=full` returns it: the fact plus the decision that produced it. */
export interface InferredFact extends ItemRecord {
  valid_until: string | null;
  decision: {
    action: AppliedChange['action'];
    reason: string;
    /** The fact closed by an update or supersede (kept, with `valid_until` set). */
    replaces: string | null;
  };
  model: ModelAttribution;
}

export interface InferenceOutcome {
  facts: InferredFact[];
  budget: BudgetState;
}

/** Who "I" is: `metadata.speaker` when given, else the calling principal's display name. */
export function speakerOf(draft: FactDraft, auth: AuthContext): string {
  const named = draft.metadata?.speaker;
  return typeof named === 'string' && named.trim() ? named.trim() : auth.principal.displayName;
}

/**
 * Extracts facts from one submitted text, reconciles each with the related stored facts and
 * applies the decisions (create, update, supersede or no-op; nothing is overwritten).
 */
export async function inferAndStore(
  deps: OperationDeps,
  auth: AuthContext,
  input: {
    contextId: string;
    draft: FactDraft;
    speaker: string;
    /** Provenance written into each new fact's metadata (e.g. the turn it came from). */
    provenance?: Record<string, unknown>;
  },
  provider: ModelProvider = providerOf(deps),
): Promise<InferenceOutcome> {
  const context = await requireContext(deps, auth, input.contextId);
  const store = deps.store(input.contextId);
  let recentTurns: TurnRecord[] = [];
  if (input.draft.sessionId) {
    const page = unwrap(
      await store.listTurns({
        sessionId: input.draft.sessionId,
        lens: sessionLens(auth),
        limit: RECENT_TURNS,
        offset: 0,
        newestFirst: true,
      }),
    );
    recentTurns = page.turns.reverse().map((t) => ({ ...t, role: roleOf(t.role) }));
  }
  const extraction = await extractFacts(provider, {
    content: input.draft.content,
    speaker: input.speaker,
    recentTurns,
  });
  // Reconciliation compares only with facts this principal may read, and a decision to close
  // or stand in for a fact it may not (see `mayClose`) becomes a plain create: the new fact is
  // stored in the caller's scopes and the other stays as it is, for its own readers.
  const writeGrant = auth.key.grants['memory:write'];
  const readable = lensFromGrant(auth.key.grants['memory:read']);
  const related = (await store.modelRelatedFacts(extraction.statements, readable)).filter((f) =>
    usable(f, writeGrant, input.draft.scopes),
  );
  const decisions = reconcile(extraction.statements, related).map((d) =>
    withinWriter(d, related, writeGrant, input.draft.scopes),
  );
  const toEmbed = decisions.filter((d) => d.action !== 'noop').map((d) => d.content);
  const vectors = await embedCharged(deps, context, 'facts.infer', provider, toEmbed);
  let v = 0;
  const changes: FactChange[] = decisions.map((d) => {
    if (d.action === 'noop') return d;
    const values = vectors[v++];
    const item: NewItem = {
      kind: 'fact',
      content: d.content,
      scopes: input.draft.scopes,
      metadata: { ...(input.draft.metadata ?? {}), ...(input.provenance ?? {}), inferred: true },
      sessionId: input.draft.sessionId,
      sourceId: null,
      vector: values ? { modelId: deps.embedder.modelId, values } : null,
      // The time and place of what was said carry over to every fact drawn from it, so relative
      // dates resolve against when it was said and retrieval can read the turns around it.
      validFrom: input.draft.validFrom ?? null,
      session: input.draft.session ?? null,
      position: input.draft.position ?? null,
    };
    return d.action === 'create' ? { action: 'create', item, reason: d.reason } : { ...d, item };
  });
  const applied = changes.length > 0 ? await store.modelApplyFactChanges(changes, writeGrant) : [];
  const budget = await chargeTokens(
    deps,
    context,
    'facts.infer',
    extraction.attribution,
    extraction.usage,
  );
  return {
    facts: applied.map((a) => ({
      ...a.fact,
      decision: { action: a.action, reason: a.reason, replaces: a.replaces },
      model: extraction.attribution,
    })),
    budget,
  };
}

/** An existing fact may stand in for a new one when it reaches at least the new one's readers. */
function standsIn(existing: LiveItem, scopes: readonly string[]): boolean {
  return scopes.every((s) => existing.scopes.includes(s));
}

/** A related fact reconciliation may use: one this writer could close, or one that stands in. */
function usable(fact: LiveItem, writeGrant: readonly string[], scopes: readonly string[]): boolean {
  return mayClose(writeGrant, fact.scopes, scopes) || standsIn(fact, scopes);
}

/**
 * A reconciliation decision as this writer may apply it. Closing a fact (update, supersede) needs
 * `mayClose`; a no-op lets an existing fact stand in for the new one, so that fact must carry
 * every scope the new one would (its readers include the new one's). Otherwise: create.
 */
export function withinWriter(
  decision: Decision,
  related: LiveItem[],
  writeGrant: readonly string[],
  scopes: readonly string[],
): Decision {
  if (decision.action === 'create') return decision;
  // `pending:<n>` targets are facts of this same batch, written with these same scopes.
  if (decision.target.startsWith('pending:')) return decision;
  const target = related.find((f) => f.id === decision.target);
  const allowed =
    target !== undefined &&
    (decision.action === 'noop'
      ? standsIn(target, scopes)
      : mayClose(writeGrant, target.scopes, scopes));
  if (allowed) return decision;
  return {
    action: 'create',
    content: decision.content,
    reason: `${decision.reason}; stored as a new fact in this writer's scopes`,
  };
}

function roleOf(role: string): TurnRecord['role'] {
  return role === 'assistant' || role === 'system' || role === 'tool' ? role : 'user';
}

/** The `inferFacts` hook of the memory core's fact write (`POST /facts?infer=full`). */
export const inferFactsHook: InferFacts = async (deps, auth, input) => {
  const outcome = await inferAndStore(deps, auth, {
    contextId: input.contextId,
    draft: input.draft,
    speaker: speakerOf(input.draft, auth),
  });
  return outcome.facts;
};
