// The Worker isolate's memory under `wrangler dev`, read through the V8 inspector
// (`--inspector-port`) after a forced garbage collection: what the isolate really holds, unlike
// the process's resident set, which also counts workerd, SQLite and freed-but-kept pages.
// wrangler's inspector proxy lists the isolate at http://127.0.0.1:PORT/json; over its WebSocket
// the bench sends `HeapProfiler.collectGarbage`, then `Runtime.getHeapUsage`. Recent V8 adds
// `backingStorageSize` (ArrayBuffer and typed-array stores, which live outside the JS heap) and
// `embedderHeapUsedSize` to `usedSize`/`totalSize`; a field the runtime does not send is null.
// workerd answers `Runtime.getHeapUsage` itself at once, but hands V8's own commands (the
// collection) to the isolate only when it next runs: the bench pokes the Worker with a request
// until the collection's reply arrives, and reads the usage after it.

export interface IsolateHeap {
  /** Bytes of live JS objects after the collection. */
  usedSize: number;
  /** Bytes the JS heap has reserved. */
  totalSize: number;
  /** ArrayBuffer backing stores (typed arrays, SQLite blobs held as buffers), when reported. */
  backingStorageSize: number | null;
  /** The embedder's (workerd's) own heap, when reported. */
  embedderHeapUsedSize: number | null;
}

interface Target {
  webSocketDebuggerUrl?: string;
  type?: string;
  title?: string;
}

/** The DevTools WebSocket URL of the Worker's isolate. */
export async function debuggerUrl(port: number): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/json`);
  if (!res.ok) throw new Error(`inspector /json answered ${res.status}`);
  const targets = (await res.json()) as Target[];
  const url = targets.find((t) => t.webSocketDebuggerUrl)?.webSocketDebuggerUrl;
  if (url === undefined) throw new Error(`inspector lists no target: ${JSON.stringify(targets)}`);
  return url;
}

/**
 * Node's WebSocket (undici) takes request headers as a second argument; the type in scope is the
 * Workers runtime's (worker-configuration.d.ts), which does not know it.
 */
type NodeWebSocket = new (url: string, init: { headers: Record<string, string> }) => WebSocket;

type Reply = { id?: number; result?: Record<string, unknown>; error?: { message: string } };

/** Sends one inspector command and resolves with its reply's result. */
export type InspectorSend = (
  method: string,
  params?: Record<string, unknown>,
) => Promise<Record<string, unknown>>;

/** One inspector session: numbered requests, each answered by the reply carrying its id. */
export async function session<T>(
  url: string,
  timeoutMs: number,
  use: (send: InspectorSend) => Promise<T>,
): Promise<T> {
  // wrangler's proxy refuses an upgrade without an allowed Origin (a DevTools page or loopback);
  // Node's WebSocket sends none unless told.
  const socket = new (WebSocket as unknown as NodeWebSocket)(url, {
    headers: { origin: 'http://127.0.0.1' },
  });
  const waiting = new Map<number, (reply: Reply) => void>();
  socket.addEventListener('message', (event) => {
    const reply = JSON.parse(String(event.data)) as Reply;
    if (reply.id !== undefined) waiting.get(reply.id)?.(reply);
  });
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('error', () => reject(new Error(`inspector ${url} refused`)), {
      once: true,
    });
  });
  let next = 0;
  const send: InspectorSend = (method, params) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const id = ++next;
      const timer = setTimeout(() => reject(new Error(`${method}: no reply`)), timeoutMs);
      waiting.set(id, (reply) => {
        clearTimeout(timer);
        waiting.delete(id);
        if (reply.error) reject(new Error(`${method}: ${reply.error.message}`));
        else resolve(reply.result ?? {});
      });
      socket.send(JSON.stringify({ id, method, ...(params === undefined ? {} : { params }) }));
    });
  try {
    return await use(send);
  } finally {
    socket.close();
  }
}

const numberOrNull = (v: unknown): number | null => (typeof v === 'number' ? v : null);

/** Calls `poke` every 250 ms until `pending` settles (or it fails). */
export async function whilePoking<T>(pending: Promise<T>, poke: () => Promise<void>): Promise<T> {
  let settled = false;
  const done = pending.finally(() => (settled = true));
  while (!settled) {
    await poke().catch(() => undefined);
    await Promise.race([done.catch(() => undefined), new Promise((r) => setTimeout(r, 250))]);
  }
  return done;
}

/**
 * Forces a full collection in the isolate, then reads its heap usage. `poke` sends the Worker a
 * cheap request (e.g. `GET /health`), so that workerd runs the isolate and with it the command.
 */
export async function isolateHeapAfterGc(
  inspectorPort: number,
  poke: () => Promise<void>,
  timeoutMs = 60_000,
): Promise<IsolateHeap> {
  const url = await debuggerUrl(inspectorPort);
  return session(url, timeoutMs, async (send) => {
    await whilePoking(send('HeapProfiler.collectGarbage'), poke);
    const usage = await send('Runtime.getHeapUsage');
    return {
      usedSize: numberOrNull(usage.usedSize) ?? 0,
      totalSize: numberOrNull(usage.totalSize) ?? 0,
      backingStorageSize: numberOrNull(usage.backingStorageSize),
      embedderHeapUsedSize: numberOrNull(usage.embedderHeapUsedSize),
    };
  });
}

/** The figure the scale bench reports: live JS heap plus ArrayBuffer backing stores. */
export function heapPlusBuffers(heap: IsolateHeap): number {
  return heap.usedSize + (heap.backingStorageSize ?? 0);
}
