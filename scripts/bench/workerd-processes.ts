// The workerd processes under a `wrangler dev` (Linux /proc), for the benchmarks: their resident
// memory (export bench) and their scheduler statistics (fuzz bench): CPU time used, and time
// spent runnable but waiting for a CPU, summed over every thread.
import { readdirSync, readFileSync } from 'node:fs';

function children(): Map<number, number[]> {
  const tree = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number.parseInt(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] ?? '', 10);
      const list = tree.get(ppid) ?? [];
      list.push(Number.parseInt(entry, 10));
      tree.set(ppid, list);
    } catch {
      // the process ended while we looked
    }
  }
  return tree;
}

/** Pids of the workerd processes below `root`. */
export function workerdPids(root: number): number[] {
  const tree = children();
  const found: number[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop() ?? 0;
    stack.push(...(tree.get(pid) ?? []));
    try {
      if (/^Name:\s*workerd/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'))) found.push(pid);
    } catch {
      // gone
    }
  }
  return found;
}

export function workerdRssBytes(root: number): number {
  let total = 0;
  for (const pid of workerdPids(root)) {
    try {
      const kb = /^VmRSS:\s*(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
      total += Number.parseInt(kb ?? '0', 10) * 1024;
    } catch {
      // gone
    }
  }
  return total;
}

export interface SchedStat {
  /** Nanoseconds on a CPU. */
  cpuNs: number;
  /** Nanoseconds runnable but waiting for a CPU (the machine's other load). */
  waitNs: number;
  /** Times a thread was given a CPU. */
  slices: number;
}

/** /proc/<pid>/task/<tid>/schedstat summed over every thread of every workerd below `root`. */
export function workerdSched(root: number): SchedStat {
  const total: SchedStat = { cpuNs: 0, waitNs: 0, slices: 0 };
  for (const pid of workerdPids(root)) {
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tasks) {
      try {
        const [cpu, wait, slices] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8')
          .trim()
          .split(' ')
          .map(Number);
        total.cpuNs += cpu ?? 0;
        total.waitNs += wait ?? 0;
        total.slices += slices ?? 0;
      } catch {
        // the thread ended
      }
    }
  }
  return total;
}
