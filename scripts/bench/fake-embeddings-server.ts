// A tiny OpenAI-compatible embeddings endpoint on loopback for the scale bench: `wrangler dev`
// runs with AI_PROVIDER=openai and OPENAI_BASE_URL=<this>/v1, so every write and query is
// embedded with synthetic vectors of the chosen width (fake-embeddings.ts). It answers only
// `POST /v1/embeddings` (models/openai-provider.ts's request and response shape); anything else
// is a 404 and counted, so a bench that reached for the chat model would show it.
import { createServer, type IncomingMessage } from 'node:http';
import { embeddingWords, syntheticEmbedding } from './fake-embeddings.ts';

export interface FakeEmbeddings {
  /** The base URL to hand to the Worker as OPENAI_BASE_URL. */
  baseUrl: string;
  /** Texts embedded and requests refused so far. */
  stats(): { texts: number; refused: number };
  stop(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function inputsOf(body: unknown): string[] | null {
  if (typeof body !== 'object' || body === null || !('input' in body)) return null;
  const input: unknown = body.input;
  if (typeof input === 'string') return [input];
  if (Array.isArray(input) && input.every((t) => typeof t === 'string')) return input;
  return null;
}

/** Starts the endpoint on a free loopback port, answering vectors of `dims` numbers. */
export async function startFakeEmbeddings(dims: number, model: string): Promise<FakeEmbeddings> {
  let texts = 0;
  let refused = 0;
  const server = createServer((req, res) => {
    void (async () => {
      const inputs =
        req.method === 'POST' && req.url === '/v1/embeddings'
          ? inputsOf(JSON.parse((await readBody(req)) || 'null'))
          : null;
      res.setHeader('content-type', 'application/json');
      if (inputs === null) {
        refused += 1;
        res.statusCode = 404;
        res.end('{"error":{"message":"the scale bench serves only POST /v1/embeddings"}}');
        return;
      }
      texts += inputs.length;
      const data = inputs.map((text, index) => ({
        object: 'embedding',
        index,
        embedding: Array.from(syntheticEmbedding(text, dims)),
      }));
      // Usage as OpenAI reports it; without it the Worker would count tokens itself.
      const tokens = inputs.reduce((sum, t) => sum + embeddingWords(t).length, 0);
      const usage = { prompt_tokens: tokens, total_tokens: tokens };
      res.end(JSON.stringify({ object: 'list', model, data, usage }));
    })().catch((err: unknown) => {
      refused += 1;
      res.statusCode = 400;
      res.end(JSON.stringify({ error: { message: String(err) } }));
    });
  });
  // Node closes an idle kept-alive connection after 5 s, and a Worker that sends its next request
  // on it in that instant gets "Network connection lost" (the 768-dimension run at a million facts
  // met three, when the object's background work spaced its embedding calls): idle connections
  // stay open well past any gap between batches.
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 125_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    stats: () => ({ texts, refused }),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
