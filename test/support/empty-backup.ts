/**
 * An NDJSON Context backup with no rows, taken at `schemaVersion`: importing it leaves a fresh
 * Context's database really at that version, which is how the rollout bench and test put
 * Contexts behind the code's latest schema without a test-only path in the Worker.
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
    { type: 'end', rows: 0 },
  ]
    .map((line) => JSON.stringify(line))
    .join('\n');
}
