import { createHash } from 'node:crypto';

/** Multipart framing (boundaries, part headers, a password field) allowed on top of the file. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/** Thrown inside the stream when more than the limit arrives; mapped to 413 by the caller. */
export class UploadTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`the upload exceeds ${limit} bytes`);
    this.name = 'UploadTooLarge';
  }
}

/**
 * Counts bytes as they stream and errors the stream as soon as `limit` is passed, so an
 * oversized body is refused after reading at most `limit` bytes, never after buffering it all.
 * Also hashes what passes through (SHA-256), for deduplication.
 */
export function limitedHashingStream(limit: number): {
  stream: TransformStream<Uint8Array, Uint8Array>;
  exceeded: () => boolean;
  result: () => { bytes: number; sha256: string };
} {
  const hash = createHash('sha256');
  let bytes = 0;
  const stream = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      bytes += chunk.byteLength;
      if (bytes > limit) {
        controller.error(new UploadTooLarge(limit));
        return;
      }
      hash.update(chunk);
      controller.enqueue(chunk);
    },
  });
  return {
    stream,
    exceeded: () => bytes > limit,
    result: () => ({ bytes, sha256: hash.digest('hex') }),
  };
}

export interface StoredUpload {
  bytes: number;
  sha256: string;
}

/**
 * Streams a raw request body into R2 under `key`, refusing it once it passes `limit`. With a
 * Content-Length the body goes to R2 as a fixed-length stream; without one (chunked upload),
 * R2 needs a known length, so the at most `limit` bytes are gathered first.
 */
export async function streamBodyToR2(
  bucket: R2Bucket,
  key: string,
  body: ReadableStream<Uint8Array>,
  contentLength: number | null,
  limit: number,
  contentType: string,
): Promise<StoredUpload> {
  const counter = limitedHashingStream(limit);
  const counted = body.pipeThrough(counter.stream);
  try {
    if (contentLength !== null) {
      const fixed = new FixedLengthStream(contentLength);
      const piping = counted.pipeTo(fixed.writable);
      await Promise.all([
        bucket.put(key, fixed.readable, { httpMetadata: { contentType } }),
        piping,
      ]);
    } else {
      const bytes = new Uint8Array(await new Response(counted).arrayBuffer());
      await bucket.put(key, bytes, { httpMetadata: { contentType } });
    }
  } catch (err) {
    // Whichever side failed first, an over-limit body is the cause to report.
    if (counter.exceeded()) throw new UploadTooLarge(limit);
    throw err;
  }
  return counter.result();
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
