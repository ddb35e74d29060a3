// Reads REALTALK (Lee et al., 2025: 21 days of real messaging between pairs of people) into the
// recall bench's set shape, so `npm run bench -- recall --realtalk <path>` measures our pipeline
// on people's chat nobody here wrote: the kind of set issue 42's figures come from. An outside
// check only: never tune on it. The data is not in this repository; pass the path of one of its
// per-conversation files (`Chat_1_<a>_<b>.json`) or of their folder.
//
// A file: `name: { speaker_1, speaker_2 }`; `session_N`: messages `{ clean_text, speaker,
// date_time: "DD.MM.YYYY, HH:MM:SS", dia_id: "D<N>:<i>" }`, some with a photo's `blip_caption`;
// `session_N_date_time`; `qa: { question, answer, evidence: dia_ids, category }` with category 1
// a fact, 2 a date, 3 an inference.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type {
  Conversation,
  Session,
  Turn,
} from '../../test/fixtures/recall-conversations/generate.ts';
import type { BenchQuestion } from './recall-report.ts';

export const REALTALK_KINDS = ['fact', 'date', 'inference'] as const;
/**
 * `gathering`: three or more evidence turns in two or more sessions, the questions that gather
 * facts told apart ("What sports does he play?"); REALTALK does not mark them, so this is read
 * from the evidence. `photo`: some evidence is known by its caption.
 */
export const REALTALK_TRAITS = ['gathering', 'photo'] as const;

const KINDS: Record<number, (typeof REALTALK_KINDS)[number]> = {
  1: 'fact',
  2: 'date',
  3: 'inference',
};

interface Message {
  clean_text?: string;
  text?: string;
  speaker?: string;
  date_time?: string;
  dia_id?: string;
  blip_caption?: string;
}

interface Qa {
  question?: string;
  answer?: unknown;
  evidence?: string[];
  category?: number;
}

/** "29.12.2023, 14:05:23" (day first, as REALTALK writes it) → ISO 8601, read as UTC. */
export function parseRealtalkDate(text: string): string | null {
  const m = /(\d{1,2})\.(\d{1,2})\.(\d{4}),?\s*(\d{1,2}):(\d{2})(?::(\d{2}))?/.exec(text);
  if (!m) return null;
  const [, d, mo, y, h, mi, s] = m;
  const at = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0));
  return Number.isNaN(at) ? null : new Date(at).toISOString();
}

function filesIn(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => join(path, f));
}

/** A message as a turn's text: its words, and a photo as its caption. */
function textOf(m: Message): string {
  const words = (m.clean_text ?? m.text ?? '').trim();
  const caption = m.blip_caption?.trim();
  if (!caption) return words;
  return words.length > 0 ? `${words} [image: ${caption}]` : `[image: ${caption}]`;
}

/** One REALTALK file as a conversation with its questions. */
export function readRealtalk(
  id: string,
  data: Record<string, unknown>,
): { conversation: Conversation; questions: BenchQuestion[] } {
  const names = (data.name ?? {}) as { speaker_1?: string; speaker_2?: string };
  const sessions: Session[] = [];
  const turns: Turn[] = [];
  const photos = new Set<string>();
  for (let n = 1; n < 1000; n++) {
    const list = data[`session_${n}`];
    if (!Array.isArray(list)) {
      if (data[`session_${n}_date_time`] === undefined && data[`session_${n + 1}`] === undefined)
        break;
      continue;
    }
    const messages = list as Message[];
    const startedAt =
      parseRealtalkDate(String(data[`session_${n}_date_time`] ?? messages[0]?.date_time ?? '')) ??
      new Date(0).toISOString();
    const session: Session = { id: `${id}-s${n}`, index: sessions.length, started_at: startedAt };
    sessions.push(session);
    messages.forEach((m, position) => {
      const turnId = `${id}:${m.dia_id ?? `D${n}:${position + 1}`}`;
      if (m.blip_caption) photos.add(turnId);
      turns.push({
        id: turnId,
        conversation_id: id,
        session_id: session.id,
        session_index: session.index,
        position,
        speaker: m.speaker ?? '',
        text: textOf(m),
        // Each message carries its own time; one without it is a minute after the session's start.
        said_at:
          parseRealtalkDate(m.date_time ?? '') ??
          new Date(Date.parse(startedAt) + position * 60_000).toISOString(),
      });
    });
  }
  const sessionOf = new Map(turns.map((t) => [t.id, t.session_id]));
  const questions: BenchQuestion[] = [];
  ((data.qa ?? []) as Qa[]).forEach((q, i) => {
    const kind = KINDS[q.category ?? 0];
    const evidence = [
      ...new Set(
        (q.evidence ?? [])
          .flatMap((e) => String(e).split(/[;,\s]+/))
          .map((e) => `${id}:${e.trim()}`)
          .filter((e) => sessionOf.has(e)),
      ),
    ];
    if (!kind || evidence.length === 0 || typeof q.question !== 'string') return;
    const traits: string[] = [];
    const spread = new Set(evidence.map((e) => sessionOf.get(e))).size;
    if (evidence.length >= 3 && spread >= 2) traits.push('gathering');
    if (evidence.some((e) => photos.has(e))) traits.push('photo');
    questions.push({
      id: `${id}-q${i + 1}`,
      conversation_id: id,
      kind,
      question: q.question,
      evidence,
      traits,
    });
  });
  const speakers: [string, string] = [names.speaker_1 ?? '', names.speaker_2 ?? ''];
  return { conversation: { id, speakers, sessions, turns }, questions };
}

/** Every REALTALK file at `path`, all as one outside-check split (`heldout`). */
export function loadRealtalk(path: string): {
  conversations: Conversation[];
  questions: BenchQuestion[];
} {
  const conversations: Conversation[] = [];
  const questions: BenchQuestion[] = [];
  for (const file of filesIn(path)) {
    const id = `realtalk-${basename(file, '.json')}`;
    const read = readRealtalk(
      id,
      JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>,
    );
    conversations.push(read.conversation);
    questions.push(...read.questions);
  }
  return { conversations, questions };
}
