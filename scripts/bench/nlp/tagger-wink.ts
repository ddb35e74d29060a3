import winkNLP, {
  type ItemEntity,
  type ItemSentence,
  type ItemToken,
  type ItsFunction,
} from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import type { Token, TokenClass } from '../../../functions/memory/retrieval/tagger.ts';

const nlp = winkNLP(model);
const its = nlp.its;
// wink's types give `lemma` a third parameter its ItsFunction type lacks; it is one at run time.
const lemma = its.lemma as unknown as ItsFunction<string>;

function classOf(pos: string, capitalised: boolean): TokenClass {
  if (pos === 'PRON') return 'pronoun';
  if (pos === 'NUM') return 'number';
  if (pos === 'PROPN') return 'proper';
  if (pos === 'VERB' || pos === 'AUX') return 'verb';
  if (pos === 'NOUN') return capitalised ? 'proper' : 'noun';
  return 'other';
}

export function tag(text: string): Token[][] {
  const doc = nlp.readDoc(text);
  const dated = new Set<number>();
  doc.entities().each((e: ItemEntity) => {
    const type = e.out(its.type);
    if (type === 'DATE' || type === 'TIME' || type === 'DURATION')
      e.tokens().each((t: ItemToken) => dated.add(t.index()));
  });
  const out: Token[][] = [];
  doc.sentences().each((s: ItemSentence) => {
    const sentence: Token[] = [];
    const tokens: ItemToken[] = [];
    s.tokens().each((t: ItemToken) => tokens.push(t));
    tokens.forEach((t, i) => {
      const pos = String(t.out(its.pos));
      const raw = String(t.out(its.normal));
      if (pos === 'PUNCT') {
        const last = sentence[sentence.length - 1];
        if (last) last.boundary = true;
        return;
      }
      if (raw === "'s" || raw === '’s') return;
      const cls = dated.has(t.index())
        ? 'other'
        : classOf(pos, i > 0 && /^\p{Lu}/u.test(String(t.out())));
      sentence.push({ normal: raw, root: String(t.out(lemma)), cls, boundary: false });
    });
    out.push(sentence);
  });
  return out;
}
