// A latency poller in its own Node process, forked by the fuzz bench (scripts/bench/fuzz.ts):
// `node scripts/bench/latency-poller.ts <url> <intervalMs>` fetches the URL every interval until
// its parent sends "stop", then sends back the sorted latencies in ms. Apart from the process
// that generates and checks the hostile requests (multi-MB bodies), so that client-side event
// loop delays are not counted as the server's latency.

const [url, intervalArg] = process.argv.slice(2);
const interval = Number(intervalArg ?? 50);
if (url === undefined || !process.send) {
  console.error('usage: forked with an IPC channel, args <url> <intervalMs>');
  process.exit(2);
}

let stopping = false;
process.on('message', (m) => {
  if (m === 'stop') stopping = true;
});
// The bench died without saying stop: nothing is left polling a server that is gone.
process.on('disconnect', () => process.exit(0));

const times: number[] = [];
let errors = 0;
while (!stopping) {
  const t = performance.now();
  try {
    const res = await fetch(url);
    await res.arrayBuffer();
    times.push(performance.now() - t);
  } catch {
    errors += 1;
  }
  await new Promise((r) => setTimeout(r, interval));
}
process.send({ times: times.sort((a, b) => a - b), errors }, () => process.exit(0));
export {};
