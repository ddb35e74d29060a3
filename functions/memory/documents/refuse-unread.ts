/**
 * Runs the checks that may refuse an upload before its body is read (the caller's access, the
 * declared size against the Context's limit, the fields); when one refuses, reads the unread body
 * to its end and drops it before the refusal is answered.
 *
 * Why: the body reaches the Context's object as a stream from the Worker. When the object
 * answered without reading it, the local runtime (`wrangler dev`) lost the client's connection
 * about half the time: curl's default `Expect: 100-continue` upload of 51 MB got 500 text/plain
 * "Network connection lost" or a reset instead of the 413 (issue 39). Read to the end, the 413
 * reached curl 16 times out of 16, with and without `Expect` (docs/operations.md). The bytes read
 * are at most the platform's request-size limit and are never held: they are dropped as they
 * come.
 */
export async function refuseUnread<T>(request: Request, checks: () => Promise<T>): Promise<T> {
  try {
    return await checks();
  } catch (err) {
    await dropUnread(request);
    throw err;
  }
}

/** Reads a request body nobody has read to its end, dropping the bytes as they come. */
async function dropUnread(request: Request): Promise<void> {
  if (request.body === null || request.bodyUsed) return;
  await request.body.pipeTo(new WritableStream()).catch(() => undefined);
}

/**
 * The same for a refusal before any operation ran (the object's key check or rate window):
 * `input` is any operation's input, and only an upload's carries a request.
 */
export async function dropUnreadInput(input: object): Promise<void> {
  if ('request' in input && input.request instanceof Request) await dropUnread(input.request);
}
