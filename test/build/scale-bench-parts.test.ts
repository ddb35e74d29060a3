import { describe, expect, it } from 'vitest';
import { parseLens } from '../../functions/memory/scopes/lens.ts';
import { scopePathProblem } from '../../functions/memory/scopes/path.ts';
import { dot, syntheticEmbedding } from '../../scripts/bench/fake-embeddings.ts';
import { startFakeEmbeddings } from '../../scripts/bench/fake-embeddings-server.ts';
import { DEFAULT_SIZES, parseScaleArgs } from '../../scripts/bench/scale-args.ts';
import { factAt, questionAt } from '../../scripts/bench/scale-facts.ts';
import { CITIES, PEOPLE, PROJECTS, TEAMS } from '../../scripts/bench/scale-vocabulary.ts';
import { exactTopK, recallAtK, TopK, vectorRecall } from '../../scripts/bench/scale-recall.ts';

// The pure parts of `npm run bench -- scale` (scripts/bench/scale*.ts): what it would measure
// with is checked here; what it measures is not asserted anywhere.

describe('npm run bench -- scale: flags', () => {
  it('grows to 10k, 100k and 1M facts with the local model by default', () => {
    const options = parseScaleArgs(['scale']);
    expect(options.sizes).toEqual(DEFAULT_SIZES);
    expect(options.sizes).toEqual([10_000, 100_000, 1_000_000]);
    expect(options.widths).toEqual([null]);
    expect(options.questions).toBe(50);
  });

  it('reads sizes in ascending order without repeats, and widths in the order given', () => {
    const options = parseScaleArgs(['--sizes=10000,2000,10000', '--dims=768,local,1024']);
    expect(options.sizes).toEqual([2_000, 10_000]);
    expect(options.widths).toEqual([768, null, 1024]);
    expect(parseScaleArgs(['--sizes=1_000_000']).sizes).toEqual([1_000_000]);
  });

  it('refuses sizes, widths and counts that are not whole numbers in range', () => {
    for (const bad of ['--sizes=0', '--sizes=1.5', '--sizes=abc', '--sizes=9000000', '--sizes='])
      expect(() => parseScaleArgs([bad])).toThrow(/--sizes/);
    for (const bad of ['--dims=0', '--dims=remote', '--dims=100000'])
      expect(() => parseScaleArgs([bad])).toThrow(/--dims/);
    expect(() => parseScaleArgs(['--questions=-3'])).toThrow(/--questions/);
    expect(() => parseScaleArgs(['--concurrency=1000'])).toThrow(/--concurrency/);
  });
});

describe('the synthetic embedder', () => {
  it('gives unit vectors of the asked width, the same for the same text on every call', () => {
    for (const dims of [100, 768, 1024]) {
      const v = syntheticEmbedding('Ada leads project Atlas from the Lisbon office.', dims);
      expect(v).toHaveLength(dims);
      expect(dot(v, v)).toBeCloseTo(1, 5);
      expect(syntheticEmbedding('Ada leads project Atlas from the Lisbon office.', dims)).toEqual(
        v,
      );
    }
  });

  it('reads words case-blind and places texts that share words closer than texts that do not', () => {
    const a = syntheticEmbedding('Noor keeps bees in Utrecht', 768);
    expect(syntheticEmbedding('noor KEEPS bees, in utrecht!', 768)).toEqual(a);
    const near = syntheticEmbedding('Noor keeps bees in Lisbon', 768);
    const far = syntheticEmbedding('The payments budget for Q3 is 290 thousand dollars', 768);
    expect(dot(a, near)).toBeGreaterThan(0.7);
    expect(Math.abs(dot(a, far))).toBeLessThan(0.3);
    expect(syntheticEmbedding('...', 16)).toEqual(new Float32Array(16));
    expect(() => dot(new Float32Array(2), new Float32Array(3))).toThrow(/widths 2 and 3/);
  });

  it('answers POST /v1/embeddings in the OpenAI format on loopback, and nothing else', async () => {
    const fake = await startFakeEmbeddings(32, 'synthetic-32');
    try {
      expect(fake.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const res = await fetch(`${fake.baseUrl}/embeddings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'synthetic-32', input: ['one text', 'another text'] }),
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as {
        model: string;
        data: { index: number; embedding: number[] }[];
        usage: { prompt_tokens: number };
      };
      expect(body.model).toBe('synthetic-32');
      expect(body.data.map((d) => d.index)).toEqual([0, 1]);
      expect(Float32Array.from(body.data[1]?.embedding ?? [])).toEqual(
        syntheticEmbedding('another text', 32),
      );
      expect(body.usage.prompt_tokens).toBe(4);
      const chat = await fetch(`${fake.baseUrl}/chat/completions`, { method: 'POST', body: '{}' });
      expect(chat.status).toBe(404);
      expect(fake.stats()).toEqual({ texts: 2, refused: 1 });
    } finally {
      await fake.stop();
    }
  });
});

describe('exact top k and recall@k', () => {
  // Eight items on a circle: item n at angle n * 45°, scoped to team:a when even, team:b when odd.
  const item = (n: number) => ({
    vector: Float32Array.of(Math.cos((n * Math.PI) / 4), Math.sin((n * Math.PI) / 4)),
    scopes: [n % 2 === 0 ? 'team:a' : 'team:b/project:x'],
  });
  const everything = [['*']];

  it('keeps the k best by cosine, best first, among the items the lens reads', () => {
    const towardZero = { vector: Float32Array.of(1, 0.1), lens: everything };
    const teamB = { vector: Float32Array.of(1, 0.1), lens: [['team:b']] };
    const [all, onlyB] = exactTopK([towardZero, teamB], 8, item, 3);
    expect(all?.ids).toEqual([0, 1, 7]);
    expect(onlyB?.ids).toEqual([1, 7, 3]);
    expect(onlyB?.scores[0]).toBeGreaterThan(onlyB?.scores[1] ?? Infinity);
  });

  it('matches a full sort on random data', () => {
    const top = new TopK(10);
    const scores = Array.from({ length: 500 }, (_, i) => (Math.sin(i * 12.9898) * 43758.5453) % 1);
    scores.forEach((s, i) => top.offer(i, s));
    const sorted = scores.map((s, i) => ({ s, i })).sort((a, b) => b.s - a.s);
    expect(top.ids).toEqual(sorted.slice(0, 10).map((x) => x.i));
  });

  it('scores the returned list against the exact one, counting ties at the k-th score', () => {
    const exact = new TopK(4);
    [0.9, 0.8, 0.7, 0.6].forEach((s, i) => exact.offer(i, s));
    const score = (n: number) => [0.9, 0.8, 0.7, 0.6, 0.6, 0.1][n] ?? 0;
    expect(recallAtK([0, 1, 2, 3], exact, score)).toBe(1);
    expect(recallAtK([3, 2, 1, 0], exact, score)).toBe(1);
    expect(recallAtK([0, 1, 5], exact, score)).toBe(0.5);
    // Item 4 ties item 3 at the 4th score: either is a right answer.
    expect(recallAtK([0, 1, 2, 4], exact, score)).toBe(1);
    expect(recallAtK([], exact, score)).toBe(0);
    // A lens that reads two items: two found out of two.
    const narrow = new TopK(10);
    narrow.offer(0, 0.9);
    narrow.offer(1, 0.8);
    expect(recallAtK([1, 0], narrow, score)).toBe(1);
  });
});

describe('recall of vector answers over the generated facts', () => {
  const questions = Array.from({ length: 12 }, (_, q) => questionAt(q));
  const count = 400;
  // The exact lists, as a perfect store would answer (facts outside a question's lens excluded).
  const exact = exactTopK(
    questions.map((q) => ({
      vector: syntheticEmbedding(q.query, 48),
      lens: q.lens === undefined ? [['*']] : q.lens.map((c) => (typeof c === 'string' ? [c] : c)),
    })),
    count,
    (n) => ({ vector: syntheticEmbedding(factAt(n).content, 48), scopes: factAt(n).scopes }),
    10,
  ).map((top) => top.ids);

  it('is 1 for the exact lists and falls when answers miss or come from outside the lens', () => {
    expect(vectorRecall(48, count, questions, exact)).toBe(1);
    const halved = exact.map((ids) => ids.slice(0, Math.ceil(ids.length / 2)));
    const recall = vectorRecall(48, count, questions, halved);
    expect(recall).toBeGreaterThan(0.4);
    expect(recall).toBeLessThan(0.7);
    // The same number of hits, the lower half replaced by facts the exact list ranks below.
    const wrong = exact.map((ids) => [...ids.slice(0, 5), 399, 398, 397, 396, 395]);
    expect(vectorRecall(48, count, questions, wrong)).toBeLessThan(1);
    // Questions without an answer are left out, not counted as zero.
    expect(
      vectorRecall(48, count, questions, [exact[0] ?? [], ...exact.slice(1).map(() => [])]),
    ).toBe(1);
  });
});

describe('the facts and questions', () => {
  const facts = Array.from({ length: 2_000 }, (_, n) => factAt(n));

  it('rebuilds the same fact from its number', () => {
    expect(factAt(1_234)).toEqual(facts[1_234]);
    expect(factAt(999_999)).toEqual(factAt(999_999));
    facts.forEach((f, n) => expect(f.metadata.n).toBe(n));
  });

  it('are varied: nearly all different, a wide vocabulary, every sentence shape and scope shape', () => {
    expect(new Set(facts.map((f) => f.content)).size).toBeGreaterThan(1_960);
    const words = new Set(facts.flatMap((f) => f.content.toLowerCase().match(/[a-z]+/g) ?? []));
    expect(words.size).toBeGreaterThan(300);
    // Every person, place, team and project of the vocabularies turns up within 2,000 facts.
    const text = facts.map((f) => f.content).join(' ');
    for (const name of [...PEOPLE, ...CITIES, ...TEAMS, ...PROJECTS]) expect(text).toContain(name);
    // The opening two words tell most shapes apart ("X moved", "The <project> launch" ...).
    const openings = new Set(facts.map((f) => f.content.split(' ').slice(1, 2).join(' ')));
    expect(openings.size).toBeGreaterThan(40);
    const shapes = new Set(
      facts.map((f) =>
        f.scopes
          .map((s) => s.replace(/:[^/]+/g, ''))
          .sort()
          .join('+'),
      ),
    );
    expect([...shapes].sort()).toEqual(['region+team', 'team', 'team/project', 'user']);
  });

  it('carry valid scope paths and dates over three years', () => {
    for (const f of facts) {
      for (const s of f.scopes) expect(scopePathProblem(s)).toBeNull();
      const year = new Date(f.valid_from).getUTCFullYear();
      expect(year).toBeGreaterThanOrEqual(2024);
      expect(year).toBeLessThanOrEqual(2026);
    }
  });

  it('asks fifty different questions, some inside a lens the API accepts', () => {
    const questions = Array.from({ length: 50 }, (_, q) => questionAt(q));
    expect(new Set(questions.map((q) => q.query)).size).toBeGreaterThan(45);
    const lensed = questions.filter((q) => q.lens !== undefined);
    expect(lensed.length).toBeGreaterThan(5);
    expect(lensed.length).toBeLessThan(40);
    for (const q of lensed) expect(parseLens(q.lens ?? [])).toHaveProperty('lens');
  });
});
