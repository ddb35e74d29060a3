/** One append-only, numbered step of a Context's own schema. Never edit what a released one does. */
export interface SchemaMigration {
  version: number;
  name: string;
  /** Runs inside its own transaction; throw to roll the whole step back. */
  up(sql: SqlStorage): void;
  /**
   * A step that rewrites every row of a large table does the rows here, in pieces, each in its
   * own transaction (runner.ts `migrateInPieces`): the rows past `after` (the step's own cursor,
   * '' first), about `rows` of them. Returns where the next piece starts, or null once none is
   * left; the step is stamped with the last piece. The object serves requests between pieces, so
   * readers of the version before must live beside a half-done fill: rows gaining index terms, or
   * a table built beside the one they read and swapped in by the last piece (conversation-time.ts).
   * `up` runs first, in a transaction of its own.
   */
  fill?(sql: SqlStorage, after: string, rows: number): string | null;
}
