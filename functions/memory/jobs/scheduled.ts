/** The scheduler role's cron tick. */
export async function handleScheduled(_controller: ScheduledController, _env: Env): Promise<void> {}
