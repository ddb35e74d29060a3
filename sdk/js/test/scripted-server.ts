import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a scripted answer looks like; `destroy` drops the connection without answering. */
export interface ScriptedReply {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  destroy?: boolean;
  /** Hold the answer this long (to trip a client timeout). */
  delayMs?: number;
}

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A small HTTP server that answers from a script, in order, and records what it saw: it sheds,
 * rate-limits or drops connections on purpose so the SDK's retry rules can be observed.
 */
export class ScriptedServer {
  readonly seen: SeenRequest[] = [];
  #script: ScriptedReply[] = [];
  readonly #server: Server;

  constructor() {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.seen.push({
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        const reply = this.#script.shift() ?? { status: 200, body: {} };
        const answer = (): void => {
          if (reply.destroy) {
            req.socket.destroy();
            return;
          }
          const status = reply.status ?? 200;
          const type = status >= 400 ? 'application/problem+json' : 'application/json';
          res.writeHead(status, { 'content-type': type, ...reply.headers });
          res.end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {}));
        };
        if (reply.delayMs) setTimeout(answer, reply.delayMs);
        else answer();
      });
    });
  }

  script(...replies: ScriptedReply[]): void {
    this.#script = replies;
    this.seen.length = 0;
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    const { port } = this.#server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

/** A problem body as the service sends it. */
export function problem(status: number, slug: string, extra: Record<string, unknown> = {}) {
  return {
    type: `http://127.0.0.1/errors/${slug}`,
    title: slug,
    status,
    detail: `scripted ${slug}`,
    instance: '/scripted',
    ...extra,
  };
}
