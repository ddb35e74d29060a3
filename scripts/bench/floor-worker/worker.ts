// The platform's own floor for `npm run bench -- edge`: the least Worker that answers a read with
// one Durable Object call, run by `wrangler dev` with the product's routing (Workers Static Assets
// in front, the Worker first on every path), compatibility date and flags. Its `/one-call` over its
// `/health` is what one object call costs on this machine before any of our code runs, so the
// product's fact read can be read against it (docs/hot-path.md).
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

/** One object that returns one small record from memory: no storage, no access check. */
export class Floor extends DurableObject<FloorEnv> {
  read(id: string): FloorRecord {
    return {
      id,
      kind: 'fact',
      content: 'Ada reviews the payments roadmap from the Lisbon office (note 0)',
      created_at: '2026-11-27T00:00:00.000Z',
    };
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
    return Response.json({ status: 404 }, { status: 404 });
  },
} satisfies ExportedHandler<FloorEnv>;
