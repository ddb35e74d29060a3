import type {
  Completion,
  CompletionRequest,
  EmbeddingResult,
  ModelProvider,
} from '../../../functions/memory/models/provider.ts';

/**
 * A generative provider that answers from a script and records every prompt it was sent, so a
 * test can assert what the prompt carried and how the answer was parsed.
 */
export interface ScriptedProvider extends ModelProvider {
  requests: CompletionRequest[];
}

export function scriptedProvider(replies: string[]): ScriptedProvider {
  const queue = [...replies];
  const requests: CompletionRequest[] = [];
  return {
    name: 'scripted',
    textModel: 'scripted-text-1',
    embeddingModel: 'scripted-embed-1',
    generative: true,
    requests,
    async complete(request: CompletionRequest): Promise<Completion> {
      requests.push(request);
      const text = queue.shift();
      if (text === undefined) throw new Error('scripted provider ran out of replies');
      return {
        text,
        usage: { input_tokens: 100, output_tokens: 10, source: 'provider' },
        provider: 'scripted',
        model: 'scripted-text-1',
      };
    },
    async embed(texts: string[]): Promise<EmbeddingResult> {
      return {
        vectors: texts.map((t) => Float32Array.from([t.length, 1, 0])),
        model: 'scripted-embed-1',
        usage: { input_tokens: texts.length, output_tokens: 0, source: 'provider' },
      };
    },
  };
}

export function allPromptText(provider: ScriptedProvider): string {
  return provider.requests.flatMap((r) => r.messages.map((m) => m.content)).join('\n');
}
