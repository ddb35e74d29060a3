/**
 * Writes a stream of unknown length to R2 (an NDJSON export): `put` needs a known length, so the
 * stream goes up as a multipart upload of fixed 8 MiB parts (R2 wants equal parts but the last),
 * holding one part in memory at a time. A stream shorter than one part is a single `put`.
 */

const PART_BYTES = 8 * 1024 * 1024;

export async function writeR2Stream(
  bucket: R2Bucket,
  key: string,
  stream: ReadableStream<Uint8Array>,
  contentType: string,
): Promise<number> {
  const options = { httpMetadata: { contentType } };
  const reader = stream.getReader();
  let upload: R2MultipartUpload | null = null;
  const parts: R2UploadedPart[] = [];
  let part = new Uint8Array(PART_BYTES);
  let filled = 0;
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (let offset = 0; offset < value.length;) {
        const n = Math.min(PART_BYTES - filled, value.length - offset);
        part.set(value.subarray(offset, offset + n), filled);
        filled += n;
        offset += n;
        total += n;
        if (filled === PART_BYTES) {
          upload ??= await bucket.createMultipartUpload(key, options);
          parts.push(await upload.uploadPart(parts.length + 1, part));
          part = new Uint8Array(PART_BYTES);
          filled = 0;
        }
      }
    }
    if (!upload) {
      await bucket.put(key, part.subarray(0, filled), options);
      return total;
    }
    if (filled > 0) parts.push(await upload.uploadPart(parts.length + 1, part.subarray(0, filled)));
    await upload.complete(parts);
    return total;
  } catch (err) {
    // No half-written backup stays behind.
    await upload?.abort();
    throw err;
  }
}
