// The platform's own floor for `npm run bench -- edge`: the least Worker that answers a read with
// one Durable Object call, run by `wrangler dev` with the product's routing (Workers Static Assets
// in front, the Worker first on every path), compatibility date and flags. Its `/one-call` over its
// `/health` is what one object call costs on this machine before any of our code runs, so the
// product's fact read can be read against it (docs/hot-path.md). Its `POST /query` does the same
// for a query: it reads the JSON body and answers with ten hits shaped as the product's, from one
// object call, so that the product's bm25 query can be read against a POST of the same body with
// an answer of about the same size.
import { DurableObject } from 'cloudflare:workers';

interface FloorEnv {
  FLOOR: DurableObjectNamespace<Floor>;
}

interface FloorRecord {
  id: string;
  kind: 'fact';
  content: string;
  created_at: string;
}

/** A hit as the product's `POST /query` answers it (`QueryResult` in routes/query.ts). */
interface FloorHit extends FloorRecord {
  score: number;
  scopes: string[];
  metadata: null;
  valid_from: string;
  session: null;
  position: null;
}

/** One object that returns records from memory: no storage, no access check, no search. */
export class Floor extends DurableObject<FloorEnv> {
  read(id: string): FloorRecord {
    return {
      id,
      kind: 'fact',
      content: 'Ada reviews the payments roadmap from the Lisbon office (note 0)',
      created_at: '2026-11-27T00:00:00.000Z',
    };
  }

  /** `k` hits of the bench's fact text (the edge bench's corpus): no search is run. */
  search(k: number): FloorHit[] {
    return Array.from({ length: k }, (_, i) => ({
      id: `fact_01JFLOOR${String(i).padStart(17, '0')}`,
      kind: 'fact',
      content: `Grace reviews the billing roadmap from the Osaka office (note ${1000 + i})`,
      score: 1 / (i + 1),
      scopes: [],
      metadata: null,
      created_at: '2026-11-27T00:00:00.000Z',
      valid_from: '2026-11-27T00:00:00.000Z',
      session: null,
      position: null,
    }));
  }
}

const NO_STORE = { 'cache-control': 'no-store' };

export default {
  async fetch(request: Request, env: FloorEnv): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (pathname === '/health') return Response.json({ status: 'ok' }, { headers: NO_STORE });
    if (pathname === '/one-call') {
      const record = await env.FLOOR.getByName('bench').read('fact_0');
      return Response.json(record, { headers: NO_STORE });
    }
    if (pathname === '/query' && request.method === 'POST') {
      const body: unknown = await request.json();
      // The body is read and parsed, as the product's route does; its `k` says how many hits.
      const { k } = (typeof body === 'object' && body !== null ? body : {}) as { k?: unknown };
      const hits = await env.FLOOR.getByName('bench').search(typeof k === 'number' ? k : 10);
      return Response.json({ mode: 'bm25', results: hits }, { headers: NO_STORE });
    }
    return Response.json({ status: 404 }, { status: 404 });
  },
} satisfies ExportedHandler<FloorEnv>;
