import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';

describe('/api/v1/openapi.json', () => {
  it('documents the documents, migrations and backup endpoints', async () => {
    const res = await exports.default.fetch('https://example.com/api/v1/openapi.json');
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    expect(doc.paths['/api/v1/{context_id}/documents']?.post?.operationId).toBe('uploadDocument');
    expect(doc.paths['/api/v1/{context_id}/documents']?.get?.operationId).toBe('listDocuments');
    expect(doc.paths['/api/v1/{context_id}/documents/{id}']?.get?.operationId).toBe('getDocument');
    expect(doc.paths['/api/v1/{context_id}/documents/{id}']?.delete?.operationId).toBe(
      'deleteDocument',
    );
    expect(doc.paths['/api/v1/migrations']?.get?.operationId).toBe('getMigrations');
    expect(doc.paths['/api/v1/migrations/dlq/{id}/retry']?.post?.operationId).toBe(
      'retryDeadLetter',
    );
    expect(doc.paths['/api/v1/contexts/{id}/export']?.get?.operationId).toBe('exportContext');
    expect(doc.paths['/api/v1/contexts/{id}/import']?.post?.operationId).toBe('importContext');
  });

  it('shows max_upload_bytes on the Context and in the PATCH body, bounded 1..1 GiB', async () => {
    const res = await exports.default.fetch('https://example.com/api/v1/openapi.json');
    interface Property {
      type?: string | string[];
      minimum?: number;
      maximum?: number;
      nullable?: boolean;
    }
    const doc = (await res.json()) as {
      components: { schemas: Record<string, { properties?: Record<string, Property> }> };
      paths: Record<
        string,
        Record<
          string,
          {
            requestBody?: {
              content: Record<string, { schema: { properties?: Record<string, Property> } }>;
            };
          }
        >
      >;
    };
    expect(doc.components.schemas['Context']?.properties?.['max_upload_bytes']).toBeDefined();
    const patch =
      doc.paths['/api/v1/contexts/{id}']?.patch?.requestBody?.content['application/json']?.schema
        .properties?.['max_upload_bytes'];
    expect(patch).toMatchObject({ minimum: 1, maximum: 1024 * 1024 * 1024 });
  });
});
