// A V8 CPU profile of the Worker under `wrangler dev`, taken through its DevTools inspector port
// (wrangler's inspector proxy lists the Worker at /json). Used by the fuzz bench
// (`FUZZ_PROFILE=1`) to say where the Worker's own CPU goes while hostile requests run.

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

export interface CpuProfiler {
  /** Stops profiling; the top functions by self time, as markdown table rows. */
  stop(top: number): Promise<string[]>;
}

export async function startCpuProfile(inspectorPort: number): Promise<CpuProfiler> {
  const targets = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json()) as {
    webSocketDebuggerUrl: string;
    title?: string;
  }[];
  const target = targets.find((t) => !(t.title ?? '').includes('ProxyWorker')) ?? targets[0];
  if (!target) throw new Error('no inspector target');
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.addEventListener('open', resolve, { once: true });
    ws.addEventListener('error', reject, { once: true });
  });
  let nextId = 1;
  const pending = new Map<number, (result: unknown) => void>();
  ws.addEventListener('message', (event) => {
    const msg = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (msg.id !== undefined) pending.get(msg.id)?.(msg.result);
  });
  const send = (method: string, params: Record<string, unknown> = {}): Promise<unknown> =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  await send('Profiler.enable');
  await send('Profiler.setSamplingInterval', { interval: 1000 });
  await send('Profiler.start');
  return {
    async stop(top) {
      const { profile } = (await send('Profiler.stop')) as { profile: Profile };
      ws.close();
      // Self time per function: samples landing in it, weighted by the time between samples.
      const byNode = new Map<number, number>();
      const samples = profile.samples ?? [];
      const deltas = profile.timeDeltas ?? [];
      samples.forEach((node, i) => byNode.set(node, (byNode.get(node) ?? 0) + (deltas[i] ?? 0)));
      const byFunction = new Map<string, number>();
      let total = 0;
      for (const node of profile.nodes) {
        const us = byNode.get(node.id) ?? 0;
        total += us;
        const { functionName, url, lineNumber } = node.callFrame;
        const file = url.split('/').slice(-2).join('/');
        const key = `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''}`;
        byFunction.set(key, (byFunction.get(key) ?? 0) + us);
      }
      return [...byFunction]
        .sort((a, b) => b[1] - a[1])
        .slice(0, top)
        .map(
          ([name, us]) =>
            `| \`${name.trim().replaceAll('|', '\\|')}\` | ${(us / 1000).toFixed(0)} | ${((us / total) * 100).toFixed(1)} % |`,
        );
    },
  };
}
