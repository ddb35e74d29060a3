// Reads the public LoCoMo conversations (Maharana et al., "Evaluating Very Long-Term
// Conversational Memory of LLM Agents", ACL 2024) into the recall bench's RecallSet shape, so
// `npm run bench -- recall --locomo <path>` measures the same pipeline on conversations nobody
// here wrote. It is an outside check only: never tune on it (issue 10). The data is not in this
// repository (its licence is CC BY-NC 4.0); pass the path of `locomo10.json` or of a folder of
// its per-conversation files (`data/multimodal_dialog/locomo10_v2/*.json`).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type {
  Conversation,
  Question,
  QuestionKind,
  RecallSet,
  Session,
  Turn,
} from '../../test/fixtures/recall-conversations/generate.ts';

/** LoCoMo's category numbers; 5 (adversarial: unanswerable) has no evidence to recall. */
const KINDS: Record<number, QuestionKind> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
};

interface LocomoTurn {
  speaker: string;
  dia_id: string;
  text: string;
}

interface LocomoQa {
  question: string;
  answer?: unknown;
  evidence?: string[];
  category: number;
}

type LocomoConversation = Record<string, unknown> & { speaker_a: string; speaker_b: string };

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** "1:56 pm on 8 May, 2023" → ISO 8601 (UTC). */
export function parseLocomoDate(text: string): string {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/i.exec(text);
  if (!m) throw new Error(`unrecognised LoCoMo session date: ${text}`);
  const [, h, min, ampm, day, month, year] = m;
  const monthIndex = MONTHS.indexOf((month ?? '').toLowerCase());
  if (monthIndex < 0) throw new Error(`unrecognised month in ${text}`);
  let hour = Number(h) % 12;
  if ((ampm ?? '').toLowerCase() === 'pm') hour += 12;
  return new Date(Date.UTC(Number(year), monthIndex, Number(day), hour, Number(min))).toISOString();
}

function conversationsIn(path: string): { id: string; data: LocomoConversation; qa: LocomoQa[] }[] {
  if (statSync(path).isDirectory()) {
    return readdirSync(path)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => {
        const data = JSON.parse(readFileSync(join(path, f), 'utf8')) as LocomoConversation & {
          qa: LocomoQa[];
        };
        return { id: `locomo-${f.replace(/\.json$/, '')}`, data, qa: data.qa };
      });
  }
  const list = JSON.parse(readFileSync(path, 'utf8')) as {
    sample_id?: string;
    conversation: LocomoConversation;
    qa: LocomoQa[];
  }[];
  return list.map((x, i) => ({
    id: `locomo-${x.sample_id ?? String(i + 1)}`,
    data: x.conversation,
    qa: x.qa,
  }));
}

/** All of LoCoMo as one split (`heldout`): it is only ever an outside check. */
export function loadLocomo(path: string): RecallSet {
  const conversations: Conversation[] = [];
  const questions: Question[] = [];
  for (const { id, data, qa } of conversationsIn(path)) {
    const sessions: Session[] = [];
    const turns: Turn[] = [];
    const known = new Set<string>();
    for (let n = 1; ; n++) {
      const list = data[`session_${n}`];
      const date = data[`session_${n}_date_time`];
      if (!Array.isArray(list) || typeof date !== 'string') {
        // Some files list dates of sessions that have no turns; stop at the first gap after both end.
        if (typeof date !== 'string') break;
        continue;
      }
      const startedAt = parseLocomoDate(date);
      const session: Session = { id: `${id}-s${n}`, index: n - 1, started_at: startedAt };
      sessions.push(session);
      (list as LocomoTurn[]).forEach((t, position) => {
        const turnId = `${id}:${t.dia_id}`;
        known.add(turnId);
        turns.push({
          id: turnId,
          conversation_id: id,
          session_id: session.id,
          session_index: session.index,
          position,
          speaker: t.speaker,
          text: t.text,
          // One minute per turn after the session's start, as a chat would be stamped.
          said_at: new Date(Date.parse(startedAt) + position * 60_000).toISOString(),
        });
      });
    }
    conversations.push({ id, speakers: [data.speaker_a, data.speaker_b], sessions, turns });
    qa.forEach((q, i) => {
      const kind = KINDS[q.category];
      if (!kind) return;
      // A few evidence entries hold several ids in one string ("D8:6; D9:17").
      const evidence = (q.evidence ?? [])
        .flatMap((e) => e.split(/[;,\s]+/))
        .map((e) => `${id}:${e.trim()}`)
        .filter((e) => known.has(e));
      if (evidence.length === 0) return;
      questions.push({
        id: `${id}-q${i + 1}`,
        conversation_id: id,
        kind,
        question: q.question,
        answer: String(q.answer ?? ''),
        evidence: [...new Set(evidence)],
        overlap: 0,
      });
    });
  }
  const byKind = Object.fromEntries(
    Object.values(KINDS).map((k) => [k, questions.filter((q) => q.kind === k).length]),
  ) as Record<QuestionKind, number>;
  return {
    generator: 'LoCoMo (snap-research/locomo), read by scripts/bench/locomo-set.ts',
    seed: 0,
    split: { dev: [], heldout: conversations.map((c) => c.id) },
    stats: {
      conversations: conversations.length,
      turns: conversations.reduce((n, c) => n + c.turns.length, 0),
      questions: questions.length,
      by_kind: byKind,
      median_overlap: 0,
      median_overlap_by_kind: Object.fromEntries(Object.values(KINDS).map((k) => [k, 0])) as Record<
        QuestionKind,
        number
      >,
    },
    conversations,
    questions,
  };
}
