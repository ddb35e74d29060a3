import { aliasCandidates, namesCalled, withAliases } from '../retrieval/aliases.ts';
import type { Speaker } from '../retrieval/text-analysis.ts';
import { lensMatches, type Lens } from '../scopes/lens.ts';
import { jsonBatches } from './json-batches.ts';
import { hasTable } from './schema-facts.ts';
import type { Probe } from './search-probe.ts';

/**
 * Who is called what in a Context's chats (issue 42, item 2; retrieval/aliases.ts finds the
 * calls). `item_aliases` holds one row per turn and name it calls someone by: the alias, the
 * speaker label it names, the turn. Votes are counted from the turns when a question is asked, so
 * forgetting a turn takes its vote with it, and only turns the asker's lens may read vote: an
 * alias learned from a team's memory is never used to rank another team's.
 */

/** Turns that must agree before a word is read as someone's label. */
const MIN_VOTES = 2;
/** The share of a word's votes its label must hold ("Sam" called to two people decides nothing). */
const MIN_SHARE = 0.75;
/** Votes counted per word of the question: a word called ten thousand times is decided well before. */
const MAX_VOTES = 400;
/**
 * Vote rows looked at per word, counted or not (outside the asker's lens): where a Context holds
 * many readers' chats, one reader's votes may sit behind many others'.
 */
const MAX_VOTE_READS = 2_000;
/** Vote rows read a statement, newest first. */
const VOTE_PAGE = 400;

export interface AliasRow {
  seq: number;
  alias: string;
  /** The speaker label the alias names. */
  name: string;
}

/** Whether this Context has the aliases step (schema/aliases.ts). */
export function hasAliases(sql: SqlStorage): boolean {
  return hasTable(sql, 'item_aliases');
}

/**
 * The names a turn calls people by, as rows: a vocative names the other speaker of its session
 * (`addressee`, asked only when the turn has a vocative: most turns have none, and finding the
 * other speaker can take a read), a self-introduction the turn's speaker. A vocative with no other
 * speaker known yet is not counted.
 */
export function aliasRowsOf(
  seq: number,
  speaker: Speaker,
  addressee: () => string | null,
): AliasRow[] {
  const calls = namesCalled(speaker.rest);
  if (calls.length === 0) return [];
  let other: string | null | undefined;
  return calls.flatMap((call) => {
    const name = call.callee === 'speaker' ? speaker.name : (other ??= addressee());
    return name === null ? [] : [{ seq, alias: call.alias, name }];
  });
}

export function linkAliases(sql: SqlStorage, rows: readonly AliasRow[]): void {
  if (rows.length === 0) return;
  for (const batch of jsonBatches(rows.map((r) => [r.alias, r.seq, r.name]))) {
    sql.exec(
      `INSERT OR IGNORE INTO item_aliases (alias, item_seq, name)
       SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(?)`,
      batch,
    );
  }
}

export function unlinkAliases(sql: SqlStorage, seq: number): void {
  if (hasAliases(sql)) sql.exec('DELETE FROM item_aliases WHERE item_seq = ?', seq);
}

/**
 * The labels the question's words stand for, by the votes of the turns `lens` may read: a word
 * whose best label has at least `MIN_VOTES` votes and `MIN_SHARE` of the word's, and is not the
 * word itself (a label called by its own name, "Hey Priya", is not an alias).
 */
export function resolveAliases(
  sql: SqlStorage,
  question: string,
  lens: Lens,
  read: Probe,
): Map<string, string> {
  const resolved = new Map<string, string>();
  if (!hasAliases(sql)) return resolved;
  const candidates = aliasCandidates(question);
  if (candidates.length === 0) return resolved;
  const votes = new Map<string, Map<string, number>>();
  for (const alias of candidates) {
    const of = votesFor(sql, alias, lens, read);
    if (of.size > 0) votes.set(alias, of);
  }
  for (const [alias, of] of votes) {
    let total = 0;
    let best: [string, number] | null = null;
    for (const [name, n] of of) {
      total += n;
      if (best === null || n > best[1] || (n === best[1] && name < best[0])) best = [name, n];
    }
    if (best === null || best[1] < MIN_VOTES || best[1] < MIN_SHARE * total) continue;
    if (best[0].toLowerCase() === alias) continue;
    resolved.set(alias, best[0]);
  }
  return resolved;
}

/**
 * The labels `alias` is called as, by the votes of the turns `lens` may read, newest first: at most
 * `MAX_VOTES` counted and `MAX_VOTE_READS` looked at. Read in key order, as before, the first votes
 * were the oldest: with a million turns of other readers' chats ahead of a reader's own (the same
 * nicknames in every one), none of the 400 read was theirs and no name was resolved (`npm run
 * bench -- scale-planted`: a real-chat set written after a million turns of chat, recall@10 per
 * gold 0.459 -> 0.525 on dev, its Contexts alone 0.519).
 */
function votesFor(sql: SqlStorage, alias: string, lens: Lens, read: Probe): Map<string, number> {
  const of = new Map<string, number>();
  let counted = 0;
  let looked = 0;
  let before = Number.MAX_SAFE_INTEGER;
  while (counted < MAX_VOTES && looked < MAX_VOTE_READS) {
    const page = sql
      .exec<{ name: string; item_seq: number }>(
        `SELECT name, item_seq FROM item_aliases WHERE alias = ? AND item_seq < ?
         ORDER BY item_seq DESC LIMIT ?`,
        alias,
        before,
        VOTE_PAGE,
      )
      .toArray();
    const full = page.length === VOTE_PAGE;
    const last = page[page.length - 1]?.item_seq;
    // A full page may have cut a turn's votes short: its last turn is read whole by the next.
    const rows =
      full && page[0]?.item_seq !== last ? page.filter((r) => r.item_seq !== last) : page;
    if (rows.length === 0) break;
    looked += rows.length;
    before = rows[rows.length - 1]?.item_seq ?? 0;
    read.prefetch(rows.map((r) => r.item_seq));
    for (const row of rows) {
      const item = read(row.item_seq);
      if (item === null || !lensMatches(lens, item.scopes)) continue;
      of.set(row.name, (of.get(row.name) ?? 0) + 1);
      counted++;
    }
    if (!full) break;
  }
  return of;
}

/** The question with the Context's aliases read as labels ("What does Sam play?" -> Samantha). */
export function questionWithAliases(
  sql: SqlStorage,
  question: string,
  lens: Lens,
  read: Probe,
): string {
  return withAliases(question, resolveAliases(sql, question, lens, read));
}
