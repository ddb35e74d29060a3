import { describe, expect, it } from 'vitest';
import { cosine } from './embedder.ts';
import { extractEntities } from './entities.ts';
import { embedLocal, LOCAL_DIMENSIONS, localEmbedder } from './local-embeddings.ts';

describe('local-hash-v1 embeddings', () => {
  it('are deterministic, 256-dimensional and L2-normalised', async () => {
    const [a, b] = await localEmbedder.embed(['Alice likes green tea', 'Alice likes green tea']);
    expect(localEmbedder.modelId).toBe('local-hash-v1');
    expect(a?.length).toBe(LOCAL_DIMENSIONS);
    expect(Array.from(a ?? [])).toEqual(Array.from(b ?? []));
    expect(cosine(a ?? new Float32Array(), a ?? new Float32Array())).toBeCloseTo(1, 5);
  });

  it('rank related text above unrelated text (word and character n-grams)', () => {
    const q = embedLocal('which drinks does Alice prefer');
    const related = embedLocal('Alice prefers to drink green tea');
    const unrelated = embedLocal('The parking garage closes at midnight');
    expect(cosine(q, related)).toBeGreaterThan(cosine(q, unrelated));
  });

  it('gives the zero vector for text without content words', () => {
    expect(Array.from(embedLocal('the of and')).every((x) => x === 0)).toBe(true);
  });
});

describe('entity extraction', () => {
  it.each([
    ['Project Falcon is led by Dana Whitfield', ['project falcon', 'dana whitfield']],
    ['The Platform team is based in Berlin', ['platform', 'berlin']],
    ['ping @alice about "quarterly review" in #ops', ['quarterly review', '@alice', '#ops']],
    ['no names here at all', []],
  ])('%s', (text, expected) => {
    expect(extractEntities(text).sort()).toEqual([...expected].sort());
  });
});
