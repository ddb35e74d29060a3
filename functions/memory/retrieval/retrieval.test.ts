import { describe, expect, it } from 'vitest';
import { cosine } from './embedder.ts';
import { extractEntities } from './entities.ts';
import { lendsTo, withConversation, type Turn } from './conversation.ts';
import { fuseScores, normalise, weightsFor } from './fusion.ts';
import { embedHashed, HASH_DIMENSIONS, HASH_MODEL_ID, hashEmbedder } from './local-embeddings.ts';
import { SIF_MODEL_ID } from './sif-embeddings.ts';
import { personalisedPageRank } from './ppr.ts';
import { expansionTerms } from './prf.ts';
import { synonymTerms } from './synonyms.ts';
import { contentTimeTerms, queryPeriods, queryTimeTerms, STATES_A_TIME } from './time-terms.ts';

describe('local-hash-v1 embeddings', () => {
  it('are deterministic, 256-dimensional and L2-normalised', async () => {
    const [a, b] = await hashEmbedder.embed(['Alice likes green tea', 'Alice likes green tea']);
    expect(hashEmbedder.modelId).toBe('local-hash-v1');
    expect(a?.length).toBe(HASH_DIMENSIONS);
    expect(Array.from(a ?? [])).toEqual(Array.from(b ?? []));
    expect(cosine(a ?? new Float32Array(), a ?? new Float32Array())).toBeCloseTo(1, 5);
  });

  it('rank related text above unrelated text (word and character n-grams)', () => {
    const q = embedHashed('which drinks does Alice prefer');
    const related = embedHashed('Alice prefers to drink green tea');
    const unrelated = embedHashed('The parking garage closes at midnight');
    expect(cosine(q, related)).toBeGreaterThan(cosine(q, unrelated));
  });

  it('gives the zero vector for text without content words', () => {
    expect(Array.from(embedHashed('the of and')).every((x) => x === 0)).toBe(true);
  });
});

describe('entity extraction', () => {
  it.each([
    // "Project" starts the sentence, so its capital says nothing: a noun of its own.
    ['Project Falcon is led by Dana Whitfield', ['falcon', 'dana whitfield', 'project']],
    ['The Platform team is based in Berlin', ['platform', 'berlin', 'team']],
    [
      'ping @alice about "quarterly review" in #ops',
      // A handle's word is a name; "ping" opens the sentence, a noun by its shape.
      ['alice', 'quarterly review', '@alice', '#ops', 'review', 'ops', 'ping'],
    ],
    ['no names here at all', []],
  ])('%s', (text, expected) => {
    expect(extractEntities(text).sort()).toEqual([...expected].sort());
  });
});

describe('score fusion', () => {
  const bm25 = [
    { seq: 1, score: 9 },
    { seq: 3, score: 6 },
    { seq: 2, score: 1 },
  ];
  const vector = [
    { seq: 3, score: 0.9 },
    { seq: 4, score: 0.8 },
    { seq: 1, score: 0.1 },
  ];
  const weights = { ...weightsFor(HASH_MODEL_ID) };

  it('min-max normalises each arm onto [0, 1]', () => {
    expect([...normalise(bm25)]).toEqual([
      [1, 1],
      [3, 0.625],
      [2, 0],
    ]);
  });

  it('a weak arm with a small weight cannot overturn the strong arm; an equal vote can', () => {
    const small = fuseScores(
      [
        { arm: 'bm25', list: bm25 },
        { arm: 'vector', list: vector },
      ],
      { ...weights, bm25: 1, vector: 0.1 },
    );
    expect(small.map((r) => r.seq).slice(0, 2)).toEqual([1, 3]);
    const equal = fuseScores(
      [
        { arm: 'bm25', list: bm25 },
        { arm: 'vector', list: vector },
      ],
      { ...weights, bm25: 1, vector: 1 },
    );
    expect(equal[0]?.seq).toBe(3);
  });

  it('an empty or zero-weight arm leaves the other arm’s order exactly', () => {
    const alone = fuseScores(
      [
        { arm: 'bm25', list: bm25 },
        { arm: 'vector', list: [] },
        { arm: 'prf', list: vector },
      ],
      { ...weights, prf: 0 },
    );
    expect(alone.map((r) => r.seq)).toEqual([1, 3, 2]);
    expect(alone[0]?.score).toBeCloseTo(1, 10);
  });

  it('weights depend on the embedding model: hashed n-grams get a token share, word vectors a real one', () => {
    expect(weightsFor('@cf/baai/bge-base-en-v1.5').vector).toBeGreaterThan(
      weightsFor(HASH_MODEL_ID).vector,
    );
    expect(weightsFor(SIF_MODEL_ID).vector).toBeGreaterThan(weightsFor(HASH_MODEL_ID).vector);
    // No query vector (bm25-only arms) reads as the local model's weights.
    expect(weightsFor(null)).toEqual(weightsFor(SIF_MODEL_ID));
    // A neural model's sentence vectors weigh more than word vectors, and the arms a single
    // vector per turn cannot replace stay (measured with a sentence-encoder stand-in).
    const neural = weightsFor('@cf/baai/bge-base-en-v1.5');
    expect(neural.vector).toBeGreaterThan(weightsFor(SIF_MODEL_ID).vector);
    expect(Math.min(neural.soft, neural.neighbour, neural.session)).toBeGreaterThan(0);
  });
});

describe('pseudo-relevance feedback', () => {
  it('expands with the words the top documents share, weighted by rarity, never the query’s own', () => {
    const docs = [
      { content: 'Maya ran the half marathon in under two hours', weight: 1 },
      { content: 'The marathon route followed the river; Maya trained for months', weight: 0.8 },
      { content: 'It rained all day', weight: 0.1 },
    ];
    const df = new Map([
      ['marathon', 3],
      ['maya', 40],
      ['rout', 2],
      ['river', 5],
      ['train', 4],
      ['month', 9],
      ['hour', 6],
      ['rain', 3],
      ['dai', 8],
    ]);
    const terms = expansionTerms('how fast was the long race', docs, () => df, 100, 4);
    expect(terms[0]).toBe('marathon');
    expect(terms).not.toContain('race');
    // A word in a feedback document that occurs nowhere else (df < 2) is noise.
    expect(terms).not.toContain('half');
  });
});

describe('personalised PageRank', () => {
  // 1 -[falcon]- 2 -[dana]- 3 ; 4 is linked only to a hub entity over the fan-out cap.
  const itemsOf = new Map<number, number[] | null>([
    [10, [1, 2]],
    [11, [2, 3]],
    [12, null],
  ]);
  const entitiesOf = new Map<number, number[]>([
    [1, [10]],
    [2, [10, 11]],
    [3, [11]],
    [4, [12]],
  ]);
  const graph = {
    entitiesOf: (seq: number) => entitiesOf.get(seq) ?? [],
    itemsOf: (id: number) => itemsOf.get(id) ?? null,
  };

  it('reaches an item two hops from the query entity and ranks it above unconnected items', () => {
    const scores = personalisedPageRank(graph, new Map([[10, 1]]));
    expect(scores.get(3)).toBeGreaterThan(0);
    expect(scores.get(4)).toBeUndefined();
    const order = [...scores].sort((a, b) => b[1] - a[1]).map(([seq]) => seq);
    expect(order).toEqual([2, 1, 3]);
  });

  it('no seeds, no scores', () => {
    expect(personalisedPageRank(graph, new Map()).size).toBe(0);
  });

  it('keeps an entity and an item with the same number apart (ids 0 and up on both sides)', () => {
    // The graph above with entities 10, 11, 12 renumbered 1, 0, 3: the ids of items 1 and 3 too.
    const renumbered = new Map([
      [10, 1],
      [11, 0],
      [12, 3],
    ]);
    const twin = {
      entitiesOf: (seq: number) => graph.entitiesOf(seq).map((e) => renumbered.get(e) ?? -1),
      itemsOf: (id: number) =>
        graph.itemsOf([...renumbered].find(([, to]) => to === id)?.[0] ?? -1),
    };
    const scores = personalisedPageRank(graph, new Map([[10, 1]]));
    expect([...personalisedPageRank(twin, new Map([[1, 1]]))]).toEqual([...scores]);
  });
});

describe('conversation structure', () => {
  const sessions = new Map([
    [1, 's1'],
    [2, 's1'],
    [3, 's1'],
    [7, 's2'],
  ]);
  const turn = (seq: number, position: number, asks = false): Turn => ({
    seq,
    session: sessions.get(seq) ?? 's1',
    position,
    asks,
  });
  const view = {
    sessionOf: (seq: number) => sessions.get(seq) ?? null,
    turnsAround: () => [turn(1, 0), turn(2, 1), turn(3, 2), turn(7, 0)],
  };
  const fused = [
    { seq: 2, score: 1 },
    { seq: 7, score: 0.5 },
  ];

  it('pulls in the turns around a strong hit, ahead of a weaker unrelated hit', () => {
    const ranked = withConversation(fused, { neighbour: 0.6, session: 0 }, view);
    expect(ranked.map((r) => r.seq)).toEqual([2, 1, 3, 7]);
    expect(ranked[1]?.score).toBeCloseTo(0.6, 10);
  });

  it('with both weights zero it is the fused order unchanged', () => {
    expect(withConversation(fused, { neighbour: 0, session: 0 }, view)).toEqual(fused);
  });

  it('a session’s best score lifts its other turns', () => {
    const ranked = withConversation(
      [
        { seq: 2, score: 1 },
        { seq: 7, score: 0.5 },
        { seq: 3, score: 0.4 },
      ],
      { neighbour: 0, session: 0.5 },
      { ...view, turnsAround: () => [] },
    );
    expect(ranked.map((r) => r.seq)).toEqual([2, 3, 7]);
  });

  // News at 10, the other speaker's question at 11, the teller's reply at 12, small talk at 13.
  const exchange = (middleAsks: boolean) => [
    turn(20, 10),
    turn(21, 11, middleAsks),
    turn(22, 12),
    turn(23, 13),
  ];
  const at = (turns: Turn[]) => (p: number) => turns.filter((t) => t.position === p);

  it('lends across a question: news to the reply after it, and the reply back to the news', () => {
    const turns = exchange(true);
    const [news, , reply] = turns;
    if (!news || !reply) throw new Error('fixture');
    expect(lendsTo(news, at(turns)).sort()).toEqual([21, 22]);
    expect(lendsTo(reply, at(turns)).sort()).toEqual([20, 21, 23]);
  });

  it('lends only to the turns right beside it when the turn between does not ask', () => {
    const turns = exchange(false);
    const [news, , reply] = turns;
    if (!news || !reply) throw new Error('fixture');
    expect(lendsTo(news, at(turns))).toEqual([21]);
    expect(lendsTo(reply, at(turns)).sort()).toEqual([21, 23]);
  });

  it('lends to every turn at a place (a turn and the facts extracted from it share one)', () => {
    const turns = [...exchange(true), { ...turn(30, 12) }];
    const [news] = turns;
    if (!news) throw new Error('fixture');
    expect(lendsTo(news, at(turns)).sort()).toEqual([21, 22, 30]);
  });

  it('pulls a reply that says little by itself in after the news it answers', () => {
    const ranked = withConversation(
      [
        { seq: 20, score: 1 },
        { seq: 7, score: 0.1 },
      ],
      { neighbour: 0.2, session: 0 },
      { sessionOf: () => 's1', turnsAround: () => exchange(true) },
    );
    expect(ranked.map((r) => r.seq)).toEqual([20, 21, 22, 7]);
  });
});

describe('dates as index terms', () => {
  it('resolves relative expressions against when the turn was said', () => {
    const terms = contentTimeTerms(
      'Maya: I went to the support group yesterday',
      '2023-05-08T13:56:00Z',
    );
    expect(terms).toEqual(expect.arrayContaining(['dy20230508', 'dy20230507', 'ym202305']));
    expect(contentTimeTerms('Sliced my thumb last Thursday', '2023-10-29T10:00:00Z')).toContain(
      'dy20231026',
    );
  });

  it("reads chat's spellings of time words as the words (issue 42)", () => {
    const said = '2024-12-15T09:00:00Z';
    // "last nite" is the 14th, "yday" too, "tmrw" the 16th.
    expect(contentTimeTerms('Maya: made lasagne from scratch last nite', said)).toContain(
      'dy20241214',
    );
    expect(contentTimeTerms('Maya: spent yday with my godson', said)).toContain('dy20241214');
    expect(contentTimeTerms('Maya: see u tmrw!', said)).toContain('dy20241216');
    // Only abbreviations of time words: "nite" alone after no time word names no day either.
    expect(contentTimeTerms('Maya: u r the best', said)).toEqual(
      contentTimeTerms('Maya: Pia says hi.', said),
    );
  });

  it('takes only what a question states, never a relative period', () => {
    expect(queryTimeTerms('What did Marcus see in November 2023?')).toEqual(
      expect.arrayContaining(['yr2023', 'mo11', 'ym202311']),
    );
    expect(queryTimeTerms('what happened in May')).toEqual(['mo05']);
    expect(queryTimeTerms('what did we do last year?')).toEqual([]);
    // With the moment it is asked from, a relative period resolves to what it means then.
    const asOf = new Date(Date.UTC(2026, 10, 26, 12));
    expect(queryTimeTerms('what did we do last year?', asOf)).toEqual(['yr2025']);
    expect(queryTimeTerms('where did I go last month?', asOf)).toEqual([
      'yr2026',
      'mo10',
      'ym202610',
    ]);
    expect(queryTimeTerms('what happened yesterday?', asOf)).toContain('dy20261125');
    // The calendar week before (Monday 16 to Sunday 22 November), as day tokens only.
    expect(queryTimeTerms('what did we discuss last week?', asOf)).toEqual(
      [16, 17, 18, 19, 20, 21, 22].map((d) => `dy202611${d}`),
    );
    expect(queryTimeTerms('what did we do last Tuesday?', asOf)).toContain('dy20261124');
    // A stated month keeps no guessed year, with or without the reference.
    expect(queryTimeTerms('what happened in May', asOf)).toEqual(['mo05']);
    expect(queryTimeTerms('What did Marcus see in November 2023?', asOf)).toEqual(
      queryTimeTerms('What did Marcus see in November 2023?'),
    );
    expect(queryTimeTerms('When did Mel go camping?')).toEqual([STATES_A_TIME]);
  });

  it('takes the year of a month from the question: "last November", "in June last year"', () => {
    const asOf = new Date(Date.UTC(2025, 2, 1));
    expect(queryTimeTerms('What did I do last November?', asOf)).toContain('ym202411');
    expect(queryTimeTerms('What did I do this September?', asOf)).toContain('ym202509');
    expect(queryTimeTerms('What is on next March?', asOf)).toContain('ym202603');
    expect(queryTimeTerms('What happened in June last year?', asOf)).toContain('ym202406');
    expect(queryTimeTerms('What did I do two years ago in May?', asOf)).toContain('ym202305');
    // Without the moment it is asked from, "last November" has no year.
    expect(queryTimeTerms('What did I do last November?')).toEqual(['mo11']);
  });

  it('gives the question without the words its date tokens stand for', () => {
    const asOf = new Date(Date.UTC(2025, 2, 1));
    expect(queryPeriods('What did I do last November?', asOf).rest).toBe('What did I do ?');
    expect(queryPeriods('Which band did Maya see in March 2023?', asOf).rest).toBe(
      'Which band did Maya see ?',
    );
    expect(queryPeriods('When did Maya sign the lease?', asOf).rest).toBe(
      'When did Maya sign the lease?',
    );
  });

  it('reads no date into "now", times of day, durations or words that look like dates', () => {
    const said = '2023-06-04T18:00:00Z';
    const own = contentTimeTerms('Maya: Pia says hi.', said);
    for (const turn of [
      'Maya: I live in Leeds now.',
      'Maya: We sat in the sun all afternoon.',
      'Maya: The evening after the party was quiet.',
      'Maya: I was ill for three days.',
      'Maya: I will call you in five minutes.',
      'Maya: We need a day out.',
      'Maya: Hiking at the weekend is the best.',
    ])
      expect(contentTimeTerms(turn, said), turn).toEqual(own);
    for (const q of ['Where does Maya live now?', 'Would Maya enjoy a day out at the zoo?'])
      expect(queryTimeTerms(q, new Date(said)), q).toEqual([]);
    // A day is still a date: "this morning", "tonight", "last weekend".
    expect(contentTimeTerms('Maya: I ran this morning.', said)).toContain(STATES_A_TIME);
    expect(contentTimeTerms('Maya: The gig is tonight.', said)).toContain(STATES_A_TIME);
    expect(contentTimeTerms('Maya: We hiked last weekend.', said)).toContain('dy20230528');
  });

  it('marks items that state a time, and questions that ask when (predictive annotation)', () => {
    const said = '2023-06-04T18:00:00Z';
    expect(contentTimeTerms('Maya: Pia had the baby last Friday!', said)).toContain(STATES_A_TIME);
    expect(contentTimeTerms('Maya: We move on 26 April.', said)).toContain(STATES_A_TIME);
    expect(contentTimeTerms('Maya: Pia says hi.', said)).not.toContain(STATES_A_TIME);
    for (const q of [
      'When did Pia become a parent?',
      'Since when has Leo worked at the museum?',
      'What year did Maya move?',
      'Which month is the wedding?',
      'How long ago did Jonas pass his test?',
    ])
      expect(queryTimeTerms(q), q).toContain(STATES_A_TIME);
    for (const q of ['Where did Pia go?', 'Who came to the wedding?', 'What did Maya cook?'])
      expect(queryTimeTerms(q), q).not.toContain(STATES_A_TIME);
  });

  it('an unparseable valid_from gives no tokens instead of failing', () => {
    expect(contentTimeTerms('yesterday', 'not a date')).toEqual([]);
  });
});

describe('thesaurus expansion', () => {
  it('adds synonyms of the question’s words, none sharing a stem with the question', () => {
    const terms = synonymTerms('when was the marriage celebration');
    expect(terms).toContain('wedding');
    expect(terms).not.toContain('marriage');
    expect(synonymTerms('zzzz qqqq')).toEqual([]);
  });
});
