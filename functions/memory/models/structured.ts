import type { z } from 'zod';
import { ModelError, type ChatMessage, type Completion, type ModelProvider } from './provider.ts';

export interface Structured<T> {
  value: T;
  completion: Completion;
}

/** Models often wrap JSON in a fenced block or add a sentence around it; take the object. */
export function extractJsonText(text: string): string {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text);
  const body = (fenced?.[1] ?? text).trim();
  const start = body.search(/[[{]/);
  if (start < 0) return body;
  const open = body[start];
  const close = open === '{' ? '}' : ']';
  const end = body.lastIndexOf(close);
  return end > start ? body.slice(start, end + 1) : body.slice(start);
}

/**
 * Asks for one JSON value and validates it with `schema`. Output that is not JSON or does not fit
 * the schema is a `bad-output` ModelError: callers never act on an unvalidated model answer.
 */
export async function completeStructured<T>(
  provider: ModelProvider,
  messages: ChatMessage[],
  schema: z.ZodType<T>,
): Promise<Structured<T>> {
  const completion = await provider.complete({ messages, json: true });
  let parsed: unknown;
  try {
    parsed = JSON.parse(extractJsonText(completion.text));
  } catch {
    throw new ModelError({
      kind: 'bad-output',
      provider: provider.name,
      detail: `model ${completion.model} did not answer with JSON`,
    });
  }
  const result = schema.safeParse(parsed);
  if (!result.success) {
    throw new ModelError({
      kind: 'bad-output',
      provider: provider.name,
      detail: `model ${completion.model} answered JSON that does not fit the expected shape: ${result.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join('.') || '(root)'} ${i.message}`)
        .join('; ')}`,
    });
  }
  return { value: result.data, completion };
}
