/**
 * The lines of a byte stream, decoded as UTF-8 with `fatal: true` (a body that is not valid
 * UTF-8 is refused, never repaired). Holds one partial line at a time, so memory follows the
 * longest line, not the body. A last line without its newline is still yielded; whether the
 * stream was complete is for the caller's format to say (an NDJSON export ends with a trailer).
 */
export async function* ndjsonLines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const reader = body.getReader();
  let pending = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      pending += decoder.decode(value, { stream: true });
      let start = 0;
      for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n', start)) {
        yield stripCr(pending.slice(start, nl));
        start = nl + 1;
      }
      pending = pending.slice(start);
    }
    pending += decoder.decode();
    if (pending !== '') yield stripCr(pending);
  } finally {
    // Stops reading a body the caller gave up on (a bad line): no need to drain the rest.
    await reader.cancel().catch(() => undefined);
  }
}

function stripCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}
