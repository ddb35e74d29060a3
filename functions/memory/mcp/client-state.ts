import type { LoggingLevel } from '@modelcontextprotocol/sdk/types.js';

/**
 * What a stateless MCP server remembers about a client between requests: its log level
 * (`logging/setLevel`) and its resource subscriptions (`resources/subscribe`). Each request
 * builds a fresh server, so this lives in KV, keyed by the credential (one API key or OAuth
 * grant = one client), and expires after a day without renewal.
 */

const TTL_SECONDS = 24 * 60 * 60;
export const LOG_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const satisfies readonly LoggingLevel[];

export function severity(level: LoggingLevel): number {
  return LOG_LEVELS.indexOf(level);
}

function levelKey(keyId: string): string {
  return `mcp:log-level:${keyId}`;
}

async function digest(text: string): Promise<string> {
  const bytes = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

// KV keys are capped at 512 bytes; a URI is hashed so any length fits.
async function subscriptionKey(keyId: string, uri: string): Promise<string> {
  return `mcp:sub:${keyId}:${await digest(uri)}`;
}

export class ClientState {
  constructor(
    private readonly kv: KVNamespace,
    private readonly keyId: string,
  ) {}

  /** The level set with `logging/setLevel`, or null: then the server sends no log messages. */
  async logLevel(): Promise<LoggingLevel | null> {
    const stored = await this.kv.get(levelKey(this.keyId));
    return LOG_LEVELS.find((l) => l === stored) ?? null;
  }

  async setLogLevel(level: LoggingLevel): Promise<void> {
    await this.kv.put(levelKey(this.keyId), level, { expirationTtl: TTL_SECONDS });
  }

  async subscribe(uri: string): Promise<void> {
    await this.kv.put(await subscriptionKey(this.keyId, uri), uri, {
      expirationTtl: TTL_SECONDS,
    });
  }

  async unsubscribe(uri: string): Promise<void> {
    await this.kv.delete(await subscriptionKey(this.keyId, uri));
  }

  async isSubscribed(uri: string): Promise<boolean> {
    return (await this.kv.get(await subscriptionKey(this.keyId, uri))) !== null;
  }
}
