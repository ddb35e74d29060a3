// The first request that needs the read-only tables, in workerd (`wrangler dev`): creating a
// Context starts its object, whose constructor loads the tables once per isolate
// (functions/memory/tables/load-tables.ts). Locally every object of the class shares one isolate,
// so the first creation pays the load and the later ones do not: the difference is the load.
import { startDevServer } from '../../test/support/wrangler-dev.ts';
import { managementCall } from './dev-api.ts';

export interface FirstRequestCost {
  /** Wall-clock ms of the first Context creation (its object loads the tables). */
  firstMs: number;
  /** Median wall-clock ms of the next creations (tables already in the isolate). */
  laterMs: number;
}

export async function firstRequestCost(later = 5): Promise<FirstRequestCost> {
  const server = await startDevServer();
  try {
    const create = async (id: string): Promise<number> => {
      const start = performance.now();
      await managementCall(server, 'POST', '/api/v1/contexts', { id });
      return performance.now() - start;
    };
    const firstMs = await create('bench-first-0');
    const times: number[] = [];
    for (let i = 1; i <= later; i++) times.push(await create(`bench-first-${i}`));
    times.sort((a, b) => a - b);
    return { firstMs, laterMs: times[Math.floor(times.length / 2)] ?? 0 };
  } finally {
    await server.stop();
  }
}
