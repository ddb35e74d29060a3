/** Every object under `prefix` (R2 lists 1,000 per page), or only the top level with a delimiter. */
export async function listAll(bucket: R2Bucket, options: R2ListOptions): Promise<R2Object[]> {
  const out: R2Object[] = [];
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ ...options, cursor });
    out.push(...page.objects);
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor !== undefined);
  return out;
}

/** R2 deletes at most 1,000 keys per call. */
const DELETE_BATCH = 1000;

export async function deleteKeys(bucket: R2Bucket, keys: readonly string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += DELETE_BATCH) {
    await bucket.delete(keys.slice(i, i + DELETE_BATCH));
  }
}
