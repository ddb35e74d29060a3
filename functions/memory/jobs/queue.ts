/** Queue consumer for memory-jobs and its dead-letter queue. */
export async function handleQueue(batch: MessageBatch, _env: Env): Promise<void> {
  batch.ackAll();
}
