import type { LoggingLevel, ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import { severity } from './client-state.ts';

/**
 * Notifications a request sends while it runs: `notifications/progress` (when the request
 * carries a progress token), `notifications/message` (at or above the client's log level) and
 * `notifications/resources/updated` (for subscribed resources). They travel on the request's
 * own SSE response stream, the only stream a stateless server has.
 */
export interface Reporter {
  progress(progress: number, total: number, message: string): Promise<void>;
  log(level: LoggingLevel, data: Record<string, unknown>): Promise<void>;
  resourceUpdated(uri: string): Promise<void>;
}

export const silentReporter: Reporter = {
  progress: async () => {},
  log: async () => {},
  resourceUpdated: async () => {},
};

export function requestReporter(options: {
  send(notification: ServerNotification): Promise<void>;
  progressToken: string | number | undefined;
  logLevel: LoggingLevel | null;
  isSubscribed(uri: string): Promise<boolean>;
  logger: string;
}): Reporter {
  return {
    async progress(progress, total, message) {
      if (options.progressToken === undefined) return;
      await options.send({
        method: 'notifications/progress',
        params: { progressToken: options.progressToken, progress, total, message },
      });
    },
    async log(level, data) {
      if (options.logLevel === null || severity(level) < severity(options.logLevel)) return;
      await options.send({
        method: 'notifications/message',
        params: { level, logger: options.logger, data },
      });
    },
    async resourceUpdated(uri) {
      if (!(await options.isSubscribed(uri))) return;
      await options.send({ method: 'notifications/resources/updated', params: { uri } });
    },
  };
}
