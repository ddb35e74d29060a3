/** One append-only, numbered step of a Context's own schema. Never edit a released one. */
export interface SchemaMigration {
  version: number;
  name: string;
  /** Runs inside its own transaction; throw to roll the whole step back. */
  up(sql: SqlStorage): void;
}
