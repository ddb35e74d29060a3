// The first request that needs the read-only tables, in workerd (`wrangler dev`): creating a
// Context starts its object, whose constructor loads the tables once per isolate
// (functions/memory/tables/load-tables.ts). Locally every object of the class shares one isolate,
// so the first creation pays the load and the later ones do not: the difference is the load.
// The isolate's heap is read through the inspector after a forced collection, as the scale bench
// reads it: once before any Context (only `/health` has run) and once after the first creation.
import { startDevServer } from '../../test/support/wrangler-dev.ts';
import { managementCall } from './dev-api.ts';
import { heapPlusBuffers, isolateHeapAfterGc } from './inspector-heap.ts';

export interface FirstRequestCost {
  /** Wall-clock ms of the first Context creation (its object loads the tables). */
  firstMs: number;
  /** Median wall-clock ms of the next creations (tables already in the isolate). */
  laterMs: number;
  /** Isolate JS heap plus ArrayBuffer stores, bytes, before any Context (workerd). */
  heapBeforeContext: number;
  /** The same after the first Context's object has loaded the tables. */
  heapAfterFirstContext: number;
}

export async function firstRequestCost(later = 5): Promise<FirstRequestCost> {
  const server = await startDevServer();
  try {
    const create = async (id: string): Promise<number> => {
      const start = performance.now();
      await managementCall(server, 'POST', '/api/v1/contexts', { id });
      return performance.now() - start;
    };
    const heap = async () =>
      heapPlusBuffers(
        await isolateHeapAfterGc(server.inspectorPort, async () => {
          await (await fetch(`${server.url}/health`)).arrayBuffer();
        }),
      );
    const heapBeforeContext = await heap();
    const firstMs = await create('bench-first-0');
    const heapAfterFirstContext = await heap();
    const times: number[] = [];
    for (let i = 1; i <= later; i++) times.push(await create(`bench-first-${i}`));
    times.sort((a, b) => a - b);
    return {
      firstMs,
      laterMs: times[Math.floor(times.length / 2)] ?? 0,
      heapBeforeContext,
      heapAfterFirstContext,
    };
  } finally {
    await server.stop();
  }
}
