/**
 * An NDJSON Context backup with no data, taken at `schemaVersion`: only `_meta`'s version row,
 * which every Context holds (import checks each table's count, `_meta` included). Importing it
 * leaves a fresh Context's database really at that version, which is how the rollout bench and
 * test put Contexts behind the code's latest schema without a test-only path in the Worker.
 */
export function emptyBackupAt(contextId: string, schemaVersion: number): string {
  return [
    {
      type: 'header',
      format: 'engram-context-export',
      format_version: 1,
      context_id: contextId,
      schema_version: schemaVersion,
      exported_at: new Date().toISOString(),
    },
    { type: 'row', table: '_meta', row: { key: 'schema_version', value: String(schemaVersion) } },
    { type: 'end', rows: 1 },
  ]
    .map((line) => JSON.stringify(line))
    .join('\n');
}
