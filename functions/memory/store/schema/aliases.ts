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

/**
 * Who is called what (store/aliases.ts), additive: `item_aliases` (alias, turn, label named),
 * keyed by alias for questions and indexed by turn for deletes. Turns written before the step
 * cast their votes here, session by session in order, as a write would have (a vocative names the
 * nearest other speaker of the session). It travels with an export like `item_entities`: a turn's
 * addressee is read from its session's neighbours at write time and is not derived from the turn
 * alone.
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
    const hasSessions =
      sql
        .exec<{ n: number }>(
          "SELECT COUNT(*) AS n FROM pragma_table_info('items') WHERE name = 'session_label'",
        )
        .one().n > 0;
    if (!hasSessions) return;
    // Rows are written once the read is done (one vote per vocative or introduction: few), so no
    // statement writes while the cursor is open; only one session's turns are held at a time.
    const rows: AliasRow[] = [];
    let session: string | null = null;
    let turns: TurnRow[] = [];
    const flush = (): void => {
      const others = otherSpeakers(turns);
      turns.forEach((t, i) => {
        const speaker = speakerOf(t.content);
        if (speaker) rows.push(...aliasRowsOf(t.seq, speaker, () => others[i] ?? null));
      });
      turns = [];
    };
    for (const row of sql.exec<TurnRow>(
      `SELECT seq, content, session_label FROM items
       WHERE session_label IS NOT NULL ORDER BY session_label, position, seq`,
    )) {
      if (row.session_label !== session) {
        flush();
        session = row.session_label;
      }
      turns.push(row);
    }
    flush();
    linkAliases(sql, rows);
  },
};
