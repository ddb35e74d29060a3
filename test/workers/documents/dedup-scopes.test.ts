import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { applyMigrations } from '../../../functions/memory/store/schema/runner.ts';
import { documentDedupPerReader } from '../../../functions/memory/store/schema/document-dedup-per-reader.ts';
import { call, createContext, issueKey, json } from '../memory/helpers.ts';
import { settle, type DocumentBody } from './documents-helpers.ts';

// De-duplication happens only among documents the uploader may read (and with the scopes it
// asked for); the same bytes elsewhere are never named, and each upload keeps its own blob.

const BYTES = '# Pay bands\n\nBand C starts at 72,000 EUR and tops out at 88,000 EUR.';

interface Uploaded extends DocumentBody {
  scopes: string[];
}

async function upload(
  ctx: string,
  key: string | undefined,
  query: string,
): Promise<{ status: number; text: string; body: Uploaded }> {
  const res = await call('POST', `/api/v1/${ctx}/documents?${query}`, {
    ...(key === undefined ? {} : { key }),
    rawBody: BYTES,
    headers: { 'content-type': 'text/markdown' },
  });
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) as Uploaded };
}

describe('document de-duplication stays inside the uploader’s read grant', () => {
  it('a team:eng writer uploading HR’s bytes gets a new document that names nothing of HR’s', async () => {
    const ctx = await createContext();
    const hr = await upload(ctx, undefined, 'scopes=team:hr&filename=hr-pay-bands.md');
    expect(hr.status, hr.text).toBe(202);
    const eng = await issueKey(ctx, {
      'memory:read': ['team:eng'],
      'memory:write': ['team:eng'],
      'memory:forget': ['team:eng'],
    });
    const mine = await upload(ctx, eng, 'scopes=team:eng&filename=bands.md');
    expect(mine.status, mine.text).toBe(202);
    expect(mine.body).toMatchObject({
      deduplicated: false,
      scopes: ['team:eng'],
      filename: 'bands.md',
    });
    expect(mine.body.id).not.toBe(hr.body.id);
    for (const leak of [hr.body.id, hr.body.id.replace('document:', ''), 'team:hr', 'hr-pay']) {
      expect(mine.text).not.toContain(leak);
    }
    // The second upload of the same bytes by the same team collapses into its own copy.
    const again = await upload(ctx, eng, 'scopes=team:eng');
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: mine.body.id, deduplicated: true });
    expect(await settle(ctx, mine.body.id)).toMatchObject({ status: 'ready' });

    // Two documents, two blobs; forgetting eng's copy leaves HR's document and blob whole.
    const blobs = await env.BLOBS.list({ prefix: `documents/${ctx}/` });
    expect(blobs.objects).toHaveLength(2);
    const removed = await call('DELETE', `/api/v1/${ctx}/documents/${mine.body.id}`, { key: eng });
    expect(removed.status).toBe(204);
    const left = await env.BLOBS.list({ prefix: `documents/${ctx}/` });
    expect(left.objects.map((o) => o.key)).toEqual([
      `documents/${ctx}/${hr.body.id.replace('document:', '')}`,
    ]);
    const hrDoc = await json<Uploaded>(await call('GET', `/api/v1/${ctx}/documents/${hr.body.id}`));
    expect(hrDoc.scopes).toEqual(['team:hr']);
    expect(await settle(ctx, hr.body.id)).toMatchObject({ status: 'ready' });
  });

  it('a writer who may read HR but uploads into team:eng still gets its own team:eng copy', async () => {
    const ctx = await createContext();
    const hr = await upload(ctx, undefined, 'scopes=team:hr');
    const reader = await issueKey(ctx, { 'memory:read': ['*'], 'memory:write': ['team:eng'] });
    const mine = await upload(ctx, reader, 'scopes=team:eng');
    expect(mine.status, mine.text).toBe(202);
    expect(mine.body.id).not.toBe(hr.body.id);
    expect(mine.body.scopes).toEqual(['team:eng']);
  });

  it('upgrades a Context whose documents table still has a unique hash, keeping its rows', async () => {
    const ctx = await createContext();
    const before = documentDedupPerReader.version - 1;
    const stub = env.CONTEXT_STORE.getByName(ctx);
    const now = new Date().toISOString();
    await runInDurableObject(stub, async (obj, state) => {
      await obj.destroy();
      applyMigrations(state.storage, before);
      state.storage.sql.exec(
        `INSERT INTO documents (id, filename, content_type, size_bytes, sha256, blob_key, status,
           scopes, created_at, updated_at) VALUES ('doc_old', 'old.md', 'text/markdown', 3, ?,
           'documents/x/doc_old', 'ready', '["team:hr"]', ?, ?)`,
        'a'.repeat(64),
        now,
        now,
      );
    });
    await stub.migrate();
    const state = await runInDurableObject(stub, (_obj, s) => ({
      rows: s.storage.sql
        .exec<{ id: string; scopes: string }>('SELECT id, scopes FROM documents')
        .toArray(),
      unique: s.storage.sql
        .exec<{
          n: number;
        }>(
          `SELECT COUNT(*) AS n FROM pragma_index_list('documents') WHERE "unique" = 1 AND origin = 'u'`,
        )
        .one().n,
      indexes: s.storage.sql
        .exec<{ name: string }>(
          `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'documents' AND sql IS NOT NULL ORDER BY name`,
        )
        .toArray()
        .map((r) => r.name),
    }));
    expect(state.rows).toEqual([{ id: 'doc_old', scopes: '["team:hr"]' }]);
    expect(state.unique).toBe(0);
    expect(state.indexes).toEqual(['documents_sha256', 'documents_status']);
  });
});
