// Where a cold first query's time goes (issue 38): `node scripts/bench/scale-cold.ts grow
// --state=DIR --facts=N [--profile=PREFIX]` grows one Context in a kept `wrangler dev` state
// directory (as the scale bench does, through `POST /facts/batch`; with `--profile`, under the
// Worker isolate's CPU profiler, written to PREFIX-grow.cpuprofile and summarised); `node scripts/bench/scale-cold.ts cold --state=DIR
// [--rounds=3] [--profile=PREFIX] [--modes=bm25,vector]` restarts `wrangler dev` on that state
// once per mode and round and times the first query, as the scale bench's cold figures do. With
// `--profile`, each first query runs under the V8 CPU profiler (through the inspector; the
// profiler's sampling slows it, so its times are not the cold figures): the profile is written to
// PREFIX-MODE-ROUND.cpuprofile and its heaviest functions, by self and total time, are printed.
// `--log [--grep=TEXT]` prints wrangler's output (the lines holding TEXT) after each first query.
// `node scripts/bench/scale-cold.ts warm --state=DIR [--questions=50] [--modes=...] [--settle]
// [--profile=PREFIX]` gives the warm p50 / p95 per mode on the kept state, as the scale bench
// asks them (with `--profile`, its questions under the CPU profiler, PREFIX-warm-MODE.cpuprofile:
// slower, so the times are not the figures); with
// `--settle` it first waits, with the server up, until the object's background steps have moved
// the vectors to one generation of PQ codes and packed its tail (a state grown before schema
// step 17 is retrained to PQ codes on its first query), reading the object's database file.
// Not a figure for BENCHMARKS (the scale bench is); the tool to find and check a cold cost.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { startDevServer, type DevServer } from '../../test/support/wrangler-dev.ts';
import { percentile } from './dev-api.ts';
import { debuggerUrl, session, whilePoking } from './inspector-heap.ts';
import { grow, provision, StatusTally, timedQuery, type Agent } from './scale-client.ts';
import { questionAt } from './scale-facts.ts';
import { settleIvf } from './scale-settle.ts';
import { MODES, type Mode } from './scale-report.ts';

const LOAD_VARS = { RATE_LIMIT_PER_MINUTE: '100000000', MAX_IN_FLIGHT: '100000' };
/** The question the scale bench asks first in a mode after a restart (with its 50 questions). */
const firstQuestion = (mode: Mode) => questionAt(54 + MODES.indexOf(mode));

function flag(args: readonly string[], name: string): string | undefined {
  return args.findLast((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

interface Kept {
  agent: Agent;
  facts: number;
}

function keptOf(state: string): Kept | null {
  const file = `${state}/scale-cold.json`;
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Kept) : null;
}

async function growState(state: string, facts: number, profile?: string): Promise<void> {
  await mkdir(state, { recursive: true });
  const server = await startDevServer({ vars: LOAD_VARS, persistTo: state });
  try {
    const kept = keptOf(state) ?? { agent: await provision(server, 'scale-local'), facts: 0 };
    // `--facts` is the size to grow to, not a count to add: a smaller one would rewrite the
    // state's record of its size and leave the next run writing duplicates' ids.
    if (facts <= kept.facts)
      throw new Error(`the state holds ${kept.facts} facts; --facts=${facts} is not more`);
    const tally = new StatusTally();
    const growing = () => grow(server, kept.agent, kept.facts, facts, 4, tally);
    let seconds: number;
    if (profile === undefined) seconds = await growing();
    else {
      const out = `${profile}-grow.cpuprofile`;
      const { result, summary } = await profiled(server, growing, out, 500);
      console.log(`-> ${out}\n${summary}`);
      seconds = result;
    }
    const rate = (facts - kept.facts) / seconds;
    console.log(
      `grew ${kept.facts} -> ${facts} in ${seconds.toFixed(0)} s, ${rate.toFixed(0)} facts/s (${tally.failures()})`,
    );
    writeFileSync(`${state}/scale-cold.json`, JSON.stringify({ ...kept, facts }));
  } finally {
    await server.stop();
  }
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The heaviest functions of a profile, by self time and by total time (ms). */
function summarise(profile: CpuProfile, top = 25): string {
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const name = (n: ProfileNode) =>
    `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').pop() ?? ''}:${n.callFrame.lineNumber}`;
  const selfByName = new Map<string, number>();
  const totalByName = new Map<string, number>();
  const walk = (id: number, onStack: Set<string>): number => {
    const node = byId.get(id);
    if (node === undefined) return 0;
    const key = name(node);
    let total = self.get(id) ?? 0;
    selfByName.set(key, (selfByName.get(key) ?? 0) + total);
    const nested = onStack.has(key);
    const next = new Set(onStack).add(key);
    for (const child of node.children ?? []) total += walk(child, next);
    if (!nested) totalByName.set(key, (totalByName.get(key) ?? 0) + total);
    return total;
  };
  const all = walk(profile.nodes[0]?.id ?? 1, new Set());
  const rows = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, ms]) => `  ${ms.toFixed(1).padStart(8)}  ${k}`)
      .join('\n');
  return `sampled ${all.toFixed(0)} ms\nby self time:\n${rows(selfByName)}\nby total time:\n${rows(totalByName)}`;
}

/**
 * `work` under the V8 CPU profiler of the Worker's isolate (sampling every `interval` us): its
 * result and the profile's summary; the profile is written to `out`.
 */
async function profiled<T>(
  server: DevServer,
  work: () => Promise<T>,
  out: string,
  interval: number,
): Promise<{ result: T; summary: string }> {
  const url = await debuggerUrl(server.inspectorPort);
  const poke = async () => {
    await (await fetch(`${server.url}/health`)).arrayBuffer();
  };
  return session(url, 1_800_000, async (send) => {
    await whilePoking(send('Profiler.enable'), poke);
    await whilePoking(send('Profiler.setSamplingInterval', { interval }), poke);
    await whilePoking(send('Profiler.start'), poke);
    const result = await work();
    const { profile } = (await whilePoking(send('Profiler.stop'), poke)) as unknown as {
      profile: CpuProfile;
    };
    writeFileSync(out, JSON.stringify(profile));
    return { result, summary: summarise(profile) };
  });
}

async function profiledQuery(server: DevServer, agent: Agent, mode: Mode, out: string) {
  const ask = () => timedQuery(server, agent, firstQuestion(mode), mode, new StatusTally());
  const { result, summary } = await profiled(server, ask, out, 200);
  return { ms: result.ms, summary };
}

async function cold(state: string, args: readonly string[]): Promise<void> {
  const kept = keptOf(state);
  if (kept === null) throw new Error(`${state} holds no grown Context: run grow first`);
  const rounds = Number(flag(args, 'rounds') ?? '3');
  const profile = flag(args, 'profile');
  const modes = (flag(args, 'modes')?.split(',') ?? MODES) as Mode[];
  const times: Record<string, number[]> = {};
  for (let round = 0; round < rounds; round++) {
    for (const mode of modes) {
      const server = await startDevServer({ vars: LOAD_VARS, persistTo: state });
      try {
        if (profile !== undefined) {
          const out = `${profile}-${mode}-${round}.cpuprofile`;
          const { ms, summary } = await profiledQuery(server, kept.agent, mode, out);
          console.log(
            `${mode} round ${round}: ${ms.toFixed(0)} ms (profiled) -> ${out}\n${summary}`,
          );
          continue;
        }
        const tally = new StatusTally();
        const answer = await timedQuery(server, kept.agent, firstQuestion(mode), mode, tally);
        (times[mode] ??= []).push(answer.ms);
        if (args.includes('--log')) {
          await new Promise((r) => setTimeout(r, 500));
          console.log(
            server
              .log()
              .split('\n')
              .filter((l) => l.includes(flag(args, 'grep') ?? ''))
              .join('\n'),
          );
        }
        console.log(`${mode} round ${round}: ${answer.ms.toFixed(0)} ms (${tally.failures()})`);
      } finally {
        await server.stop();
      }
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  for (const [mode, xs] of Object.entries(times)) {
    console.log(
      `${mode}: median ${median(xs).toFixed(0)} ms of ${xs.map((x) => x.toFixed(0)).join(', ')}`,
    );
  }
}

/**
 * Warm p50 / p95 per mode on a kept state, as the scale bench measures them after its writes
 * (one untimed question, then `--questions` different ones in order), without growing it again.
 */
async function warm(state: string, args: readonly string[]): Promise<void> {
  const kept = keptOf(state);
  if (kept === null) throw new Error(`${state} holds no grown Context: run grow first`);
  const questions = Number(flag(args, 'questions') ?? '50');
  const modes = (flag(args, 'modes')?.split(',') ?? MODES) as Mode[];
  const server = await startDevServer({ vars: LOAD_VARS, persistTo: state });
  try {
    const tally = new StatusTally();
    if (args.includes('--settle')) {
      // The first query wakes the object, which schedules what background work it has.
      await timedQuery(server, kept.agent, questionAt(questions), 'vector', tally);
      await settleIvf(state);
    }
    for (const mode of modes) {
      await timedQuery(
        server,
        kept.agent,
        questionAt(questions + MODES.indexOf(mode)),
        mode,
        tally,
      );
      const ms: number[] = [];
      const asking = async () => {
        for (let q = 0; q < questions; q++)
          ms.push((await timedQuery(server, kept.agent, questionAt(q), mode, tally)).ms);
      };
      const profile = flag(args, 'profile');
      if (profile === undefined) await asking();
      else {
        const out = `${profile}-warm-${mode}.cpuprofile`;
        const { summary } = await profiled(server, asking, out, 200);
        console.log(`${mode} (profiled) -> ${out}\n${summary}`);
      }
      console.log(
        `${mode}: p50 ${percentile(ms, 50).toFixed(0)} ms, p95 ${percentile(ms, 95).toFixed(0)} ms (${tally.failures()})`,
      );
    }
  } finally {
    await server.stop();
  }
}

const [command, ...rest] = process.argv.slice(2);
const state = flag(rest, 'state');
if (state === undefined) throw new Error('--state=DIR is required');
if (command === 'grow')
  await growState(state, Number(flag(rest, 'facts') ?? '10000'), flag(rest, 'profile'));
else if (command === 'cold') await cold(state, rest);
else if (command === 'warm') await warm(state, rest);
else throw new Error('usage: scale-cold.ts grow|cold|warm --state=DIR ...');
