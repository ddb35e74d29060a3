export { MemoryClient } from './client.ts';
export type {
  BatchFact,
  MemoryClientOptions,
  RememberOptions,
  UploadOptions,
  WaitOptions,
} from './options.ts';
export {
  ApiError,
  AuthError,
  ConnectionError,
  MemoryError,
  NotFoundError,
  RateLimitError,
  ScopeError,
  ServerError,
  ValidationError,
} from './errors.ts';
export type { Problem } from './errors.ts';
export { backoffMs, parseRetryAfter, retryDelayMs } from './retry.ts';
export type { RetryOptions } from './retry.ts';
export type * from './types.ts';
