import { DurableObject } from 'cloudflare:workers';
import {
  acquireLease,
  ensureLeaseTable,
  releaseLease,
  renewLease,
  type LeaseResult,
} from './lease-state.ts';

/**
 * Exclusive, expiring, fenced leases for one Context's migration and maintenance jobs.
 * One object per Context (`getByName(contextId)`). The object runs one request at a time and the
 * SQLite calls are synchronous, so two concurrent takers cannot both see the lease free.
 */
export class ContextLease extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ensureLeaseTable(ctx.storage.sql);
  }

  async acquire(holder: string, ttlMs: number): Promise<LeaseResult> {
    return acquireLease(this.ctx.storage.sql, holder, ttlMs, Date.now());
  }

  async renew(token: number, ttlMs: number): Promise<boolean> {
    return renewLease(this.ctx.storage.sql, token, ttlMs, Date.now());
  }

  async release(token: number): Promise<boolean> {
    return releaseLease(this.ctx.storage.sql, token);
  }

  async ping(): Promise<string> {
    return 'pong';
  }
}
