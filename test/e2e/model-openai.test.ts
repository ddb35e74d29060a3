import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startDevServer, type DevServer } from '../support/wrangler-dev.ts';

// The `openai` provider end to end: a real `wrangler dev` with AI_PROVIDER=openai pointed at a
// small local stub that speaks the OpenAI chat-completions and embeddings formats.

interface Seen {
  path: string;
  authorization: string | undefined;
  body: { model?: string; messages?: { role: string; content: string }[]; input?: string[] };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString()));
    req.on('end', () => resolve(data));
  });
}

/** Answers by task, recognised from the system prompt the service sends. */
function reply(messages: { role: string; content: string }[]): string {
  const system = messages.find((m) => m.role === 'system')?.content ?? '';
  if (system.includes('extract durable facts')) {
    return JSON.stringify({ facts: ['Noor keeps bees.', 'Noor lives in Utrecht.'] });
  }
  if (system.includes('answer questions')) {
    const cited = /\[1\] \(fact [^)]+\) (.*)/.exec(system)?.[1] ?? '';
    return JSON.stringify({
      answer: `Stub says: ${cited} [1]`,
      citations: [1],
      known: cited !== '',
    });
  }
  return JSON.stringify({ insights: [] });
}

function stub(seen: Seen[]): Server {
  return createServer(async (req, res) => {
    const body = JSON.parse((await readBody(req)) || '{}') as Seen['body'];
    seen.push({ path: req.url ?? '', authorization: req.headers.authorization, body });
    res.setHeader('content-type', 'application/json');
    if (req.url === '/v1/chat/completions') {
      res.end(
        JSON.stringify({
          id: 'chatcmpl-stub',
          object: 'chat.completion',
          model: body.model,
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: reply(body.messages ?? []) },
              finish_reason: 'stop',
            },
          ],
          usage: { prompt_tokens: 50, completion_tokens: 5, total_tokens: 55 },
        }),
      );
    } else if (req.url === '/v1/embeddings') {
      const input = body.input ?? [];
      res.end(
        JSON.stringify({
          object: 'list',
          model: body.model,
          data: input.map((text, index) => ({
            object: 'embedding',
            index,
            embedding: [text.length % 7, text.split(' ').length, 1, text.includes('bees') ? 1 : 0],
          })),
          usage: { prompt_tokens: input.length * 3, total_tokens: input.length * 3 },
        }),
      );
    } else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
}

describe('AI_PROVIDER=openai against a local OpenAI-format stub', () => {
  const seen: Seen[] = [];
  const server = stub(seen);
  let dev: DevServer;

  beforeAll(async () => {
    const port = await freePort();
    await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
    dev = await startDevServer({
      vars: {
        AI_PROVIDER: 'openai',
        OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`,
        OPENAI_TEXT_MODEL: 'stub-chat-1',
        OPENAI_EMBEDDING_MODEL: 'stub-embed-1',
        OPENAI_API_KEY: 'sk-stub',
      },
    });
  }, 120_000);

  afterAll(async () => {
    await dev?.stop();
    await new Promise((r) => server.close(r));
  });

  const call = (path: string, body?: unknown) =>
    fetch(`${dev.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${dev.bootstrapKey}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it('extracts facts with the model and embeds them with the configured embedding model', async () => {
    expect((await call('/api/v1/contexts', { id: 'e2e-openai' })).status).toBe(201);
    const res = await call('/api/v1/e2e-openai/facts?infer=full', {
      content: 'I keep bees in Utrecht.',
      metadata: { speaker: 'Noor' },
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as {
      facts: { content: string; model: { provider: string; model: string } }[];
    };
    expect(body.facts.map((f) => f.content)).toEqual([
      'Noor keeps bees.',
      'Noor lives in Utrecht.',
    ]);
    expect(body.facts[0]?.model).toMatchObject({ provider: 'openai', model: 'stub-chat-1' });
    const chat = seen.find((s) => s.path === '/v1/chat/completions');
    expect(chat?.authorization).toBe('Bearer sk-stub');
    expect(chat?.body.messages?.[1]?.content).toContain('SPEAKER: Noor');
    expect(seen.some((s) => s.path === '/v1/embeddings' && s.body.model === 'stub-embed-1')).toBe(
      true,
    );
  });

  it('answers /chat through the model with the retrieved memory in the prompt', async () => {
    const res = await call('/api/v1/e2e-openai/chat', { message: 'Who keeps bees?' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      answer: string;
      provider: string;
      model: string;
      citations: { quote: string }[];
      usage: { source: string };
    };
    expect(body).toMatchObject({ provider: 'openai', model: 'stub-chat-1' });
    expect(body.answer).toMatch(/^Stub says: Noor/);
    expect(body.citations).toHaveLength(1);
    expect(body.usage.source).toBe('provider');
    const prompt =
      seen.filter((s) => s.path === '/v1/chat/completions').at(-1)?.body.messages?.[0]?.content ??
      '';
    expect(prompt).toContain('Noor keeps bees.');
  });
});
