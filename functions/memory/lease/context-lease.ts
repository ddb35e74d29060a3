import { DurableObject } from 'cloudflare:workers';

/** Exclusive, expiring, fenced leases for one Context's migration and maintenance jobs. */
export class ContextLease extends DurableObject<Env> {
  async ping(): Promise<string> {
    return 'pong';
  }
}
