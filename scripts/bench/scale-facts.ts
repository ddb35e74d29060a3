// The scale bench's facts and questions: fact `n` is composed from the vocabularies with a
// generator seeded by `n` (one of sixteen sentence shapes, each with several slots), so any fact
// can be rebuilt from its number alone (the exact scan of the recall check does) and a million
// of them are nearly all different. Scopes come in three shapes (a team, a team's project, a
// person; some with a region), so the questions' lenses select a real share of the Context.
import { seededRandom, pick } from './seeded-random.ts';
import * as V from './scale-vocabulary.ts';

export interface ScaleFact {
  content: string;
  scopes: string[];
  /** The fact's number, returned with every hit so the bench can recompute its vector. */
  metadata: { n: number };
  valid_from: string;
}

export interface ScaleQuestion {
  query: string;
  /** A lens in the API's form (flat entries OR-ed, nested arrays AND-ed); none reads everything. */
  lens?: (string | string[])[];
}

const slug = (word: string) => word.toLowerCase().replaceAll(' ', '-');

type Next = () => number;
const SHAPES: ((r: Next) => string)[] = [
  (r) =>
    `${pick(V.PEOPLE, r)} moved from the ${pick(V.TEAMS, r)} team to ${pick(V.TEAMS, r)} in ${pick(V.MONTHS, r)}.`,
  (r) =>
    `${pick(V.PEOPLE, r)} leads project ${pick(V.PROJECTS, r)} with ${pick(V.PEOPLE, r)} from the ${pick(V.CITIES, r)} office.`,
  (r) =>
    `The ${pick(V.PROJECTS, r)} launch slipped to ${pick(V.MONTHS, r)} ${1 + Math.floor(r() * 28)} because ${pick(V.REASONS, r)}.`,
  (r) =>
    `${pick(V.PEOPLE, r)} drinks ${pick(V.DRINKS, r)} and works from ${pick(V.CITIES, r)} on ${pick(V.WEEKDAYS, r)}s.`,
  (r) =>
    `${pick(V.PEOPLE, r)} reviewed the ${pick(V.ARTIFACTS, r)} for ${pick(V.PROJECTS, r)} and flagged ${pick(V.ISSUES, r)}.`,
  (r) =>
    `The ${pick(V.TEAMS, r)} ${pick(V.MEETINGS, r)} moved to ${pick(V.WEEKDAYS, r)} at ${8 + Math.floor(r() * 10)}:${r() < 0.5 ? '00' : '30'}.`,
  (r) =>
    `${pick(V.PEOPLE, r)} booked a trip to ${pick(V.CITIES, r)} for the ${pick(V.EVENTS, r)} in ${pick(V.MONTHS, r)}.`,
  (r) =>
    `${pick(V.COMPANIES, r)} reported ${pick(V.ISSUES, r)} in ${pick(V.PRODUCTS, r)} after release ${1 + Math.floor(r() * 9)}.${Math.floor(r() * 20)}.`,
  (r) =>
    `${pick(V.PEOPLE, r)} owns the ${pick(V.ARTIFACTS, r)} of ${pick(V.PROJECTS, r)}; ${pick(V.PEOPLE, r)} is the backup.`,
  (r) =>
    `${pick(V.PEOPLE, r)}'s birthday is ${pick(V.MONTHS, r)} ${1 + Math.floor(r() * 28)} and the ${pick(V.TEAMS, r)} team plans a surprise.`,
  (r) =>
    `Project ${pick(V.PROJECTS, r)} depends on ${pick(V.TECH, r)} and runs in the ${pick(V.REGIONS, r)} region.`,
  (r) =>
    `${pick(V.PEOPLE, r)} paired with ${pick(V.PEOPLE, r)} on ${pick(V.TASKS, r)} for ${pick(V.PROJECTS, r)}.`,
  (r) =>
    `The ${pick(V.PROJECTS, r)} budget for Q${1 + Math.floor(r() * 4)} is ${10 + Math.floor(r() * 490)} thousand dollars.`,
  (r) =>
    `${pick(V.PEOPLE, r)} is allergic to ${pick(V.FOODS, r)}, so team lunches in ${pick(V.CITIES, r)} avoid it.`,
  (r) =>
    `The ${pick(V.CITIES, r)} office is closed on ${pick(V.WEEKDAYS, r)} ${pick(V.MONTHS, r)} ${1 + Math.floor(r() * 28)} for repairs.`,
  (r) =>
    `${pick(V.COMPANIES, r)} signed a ${1 + Math.floor(r() * 5)}-year contract for ${pick(V.PRODUCTS, r)} with ${pick(V.PEOPLE, r)} as account lead.`,
];

// Who said it or where it was written down, on most facts: as in real notes, and it keeps a
// million facts from repeating the short shapes (a meeting time, a budget line).
const TAILS: ((r: Next) => string)[] = [
  () => '',
  (r) => ` as ${pick(V.PEOPLE, r)} noted in the ${pick(V.MEETINGS, r)}`,
  (r) => ` (confirmed by ${pick(V.PEOPLE, r)} on ${pick(V.WEEKDAYS, r)})`,
  (r) => ` according to the ${pick(V.TEAMS, r)} ${pick(V.ARTIFACTS, r)}`,
];

function withTail(sentence: string, r: Next): string {
  const tail = pick(TAILS, r)(r);
  return tail === '' ? sentence : `${sentence.slice(0, -1)}${tail}.`;
}

function scopesOf(r: Next): string[] {
  const team = `team:${pick(V.TEAMS, r)}`;
  const shape = r();
  if (shape < 0.4) return [team];
  if (shape < 0.65) return [`${team}/project:${slug(pick(V.PROJECTS, r))}`];
  if (shape < 0.85) return [team, `region:${pick(V.REGIONS, r)}`];
  return [`user:${slug(pick(V.PEOPLE, r))}`];
}

const DAY_MS = 86_400_000;
const FIRST_DAY = Date.UTC(2024, 0, 1);

/** Fact number `n` (0-based); the same on every run. */
export function factAt(n: number): ScaleFact {
  const r = seededRandom(Math.imul(n + 1, 0x9e3779b1) ^ 0x5ca1e);
  const content = withTail(pick(SHAPES, r)(r), r);
  const scopes = scopesOf(r);
  // Said some time over three years, so date tokens vary as in a long-lived Context.
  const day = Math.floor(r() * 1_000);
  const valid_from = new Date(FIRST_DAY + day * DAY_MS + Math.floor(r() * DAY_MS)).toISOString();
  return { content, scopes, metadata: { n }, valid_from };
}

const QUESTIONS: ((r: Next) => ScaleQuestion)[] = [
  (r) => ({ query: `who leads project ${pick(V.PROJECTS, r)}` }),
  (r) => ({ query: `where does ${pick(V.PEOPLE, r)} work from` }),
  (r) => ({ query: `when is the ${pick(V.PROJECTS, r)} launch and why did it slip` }),
  (r) => ({ query: `what did ${pick(V.COMPANIES, r)} report about ${pick(V.PRODUCTS, r)}` }),
  (r) => {
    const team = pick(V.TEAMS, r);
    return { query: `when is the ${team} ${pick(V.MEETINGS, r)}`, lens: [`team:${team}`] };
  },
  (r) => {
    const project = pick(V.PROJECTS, r);
    return { query: `${project} budget this quarter`, lens: [`team:${pick(V.TEAMS, r)}`] };
  },
  (r) => {
    const person = pick(V.PEOPLE, r);
    const lens = [`user:${slug(person)}`, `team:${pick(V.TEAMS, r)}`];
    return { query: `${person} trip to ${pick(V.CITIES, r)}`, lens };
  },
  (r) => ({ query: `what is ${pick(V.PEOPLE, r)} allergic to` }),
  (r) => ({
    query: `which projects depend on ${pick(V.TECH, r)}`,
    lens: [[`team:${pick(V.TEAMS, r)}`, `region:${pick(V.REGIONS, r)}`]],
  }),
  (r) => ({ query: `who owns the ${pick(V.ARTIFACTS, r)} for ${pick(V.PROJECTS, r)}` }),
  (r) => ({ query: `is the ${pick(V.CITIES, r)} office closed` }),
  (r) => ({ query: `${pick(V.PEOPLE, r)} birthday` }),
];

/** Question number `q` (0-based); the same on every run. */
export function questionAt(q: number): ScaleQuestion {
  const r = seededRandom(Math.imul(q + 1, 0x85ebca6b) ^ 0x71e57);
  return pick(QUESTIONS, r)(r);
}
