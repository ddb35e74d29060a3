import { DurableObject } from 'cloudflare:workers';

/** One Context's own SQLite database. */
export class ContextStore extends DurableObject<Env> {
  async ping(): Promise<string> {
    return 'pong';
  }
}
