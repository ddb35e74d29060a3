import { speakerOf } from '../../retrieval/text-analysis.ts';
import { aliasRowsOf, linkAliases, type AliasRow } from '../aliases.ts';
import type { SchemaMigration } from './types.ts';

interface TurnRow {
  seq: number;
  content: string;
  session_label: string;
  [column: string]: SqlStorageValue;
}

/** The speaker each turn of one session answers or is answered by (the nearest other one). */
function otherSpeakers(turns: readonly TurnRow[]): (string | null)[] {
  const speakers = turns.map((t) => speakerOf(t.content)?.name ?? null);
  return speakers.map((own, i) => {
    if (own === null) return null;
    for (let j = i - 1; j >= 0; j--)
      if (speakers[j] && speakers[j] !== own) return speakers[j] ?? null;
    for (let j = i + 1; j < speakers.length; j++)
      if (speakers[j] && speakers[j] !== own) return speakers[j] ?? null;
    return null;
  });
}

/** The votes one session's turns cast, in order (a vocative names the nearest other speaker). */
function votesOf(turns: readonly TurnRow[]): AliasRow[] {
  const others = otherSpeakers(turns);
  const rows: AliasRow[] = [];
  turns.forEach((t, i) => {
    const speaker = speakerOf(t.content);
    if (speaker) rows.push(...aliasRowsOf(t.seq, speaker, () => others[i] ?? null));
  });
  return rows;
}

const TURNS = `SELECT seq, content, session_label FROM items`;

/**
 * Who is called what (store/aliases.ts), additive: `item_aliases` (alias, turn, label named),
 * keyed by alias for questions and indexed by turn for deletes. Turns written before the step
 * cast their votes here, session by session in label order, as a write would have (a vocative
 * names the nearest other speaker of the session), a piece of whole sessions at a time (`fill`:
 * a Context of a million turns is not read in one call). Its cursor is the last session label
 * done. It travels with an export like `item_entities`: a turn's addressee is read from its
 * session's neighbours at write time and is not derived from the turn alone.
 */
export const aliasesStep: SchemaMigration = {
  version: 13,
  name: 'item_aliases (who is called what in a chat)',
  up(sql) {
    sql.exec(`CREATE TABLE item_aliases (
      alias TEXT NOT NULL,
      item_seq INTEGER NOT NULL,
      name TEXT NOT NULL,
      PRIMARY KEY (alias, item_seq, name)
    ) WITHOUT ROWID`);
    sql.exec('CREATE INDEX item_aliases_item ON item_aliases (item_seq)');
  },
  fill(sql, after, rows) {
    const hasSessions =
      sql
        .exec<{ n: number }>(
          "SELECT COUNT(*) AS n FROM pragma_table_info('items') WHERE name = 'session_label'",
        )
        .one().n > 0;
    if (!hasSessions) return null;
    // One more row than a piece, to know whether its last session goes on past it.
    const batch = sql
      .exec<TurnRow>(
        `${TURNS} WHERE session_label IS NOT NULL AND session_label ${after === '' ? '>=' : '>'} ?
         ORDER BY session_label, position, seq LIMIT ?`,
        after,
        rows + 1,
      )
      .toArray();
    const sessions = new Map<string, TurnRow[]>();
    for (const turn of batch) {
      const turns = sessions.get(turn.session_label) ?? [];
      turns.push(turn);
      sessions.set(turn.session_label, turns);
    }
    const labels = [...sessions.keys()];
    const last = labels[labels.length - 1];
    let next: string | null = null;
    if (batch.length > rows && last !== undefined) {
      if (labels.length > 1) {
        // The last session may go on past the piece: the next piece reads it whole.
        sessions.delete(last);
        next = labels[labels.length - 2] ?? null;
      } else {
        // One session longer than a piece is read whole here.
        sessions.set(
          last,
          sql
            .exec<TurnRow>(`${TURNS} WHERE session_label = ? ORDER BY position, seq`, last)
            .toArray(),
        );
        next = last;
      }
    }
    linkAliases(sql, [...sessions.values()].flatMap(votesOf));
    return next;
  },
};
