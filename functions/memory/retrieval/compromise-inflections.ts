/**
 * compromise's two base-form rules the tagger uses (compromise 14.17, `two.transform`:
 * `verb.toInfinitive` with its tense given, `noun.toSingular`), ported to read the model parts the
 * lexicon asset holds (lexicon.ts) instead of compromise's whole model, which compromise builds
 * at import (about 150 ms of a cold question). The code follows compromise's line for line (its
 * `suffix-thumb` `convert`, `toParts`, the copula map, the singular rules); the data is
 * compromise's own, written by the build. `tables/lexicon-asset.test.ts` checks every word of the
 * lexicon and its inflected forms against compromise itself.
 */

/** A suffix-thumb model: whole-word exceptions, pass-through suffixes, suffix rules. */
export interface SuffixModel {
  ex?: Record<string, string>;
  same?: string[];
  fwd?: Record<string, string>;
  both?: Record<string, string>;
}

/** The model parts the two rules read. */
export interface InflectionModel {
  /** `one.prefixes`: words a phrasal verb may start with ("re", "un"). */
  prefixes: Record<string, boolean>;
  fromPast: SuffixModel;
  fromPresent: SuffixModel;
  fromGerund: SuffixModel;
  fromParticiple: SuffixModel;
  /** `two.irregularPlurals` inverted: plural -> singular (a later singular wins, as there). */
  singularOf: Record<string, string>;
}

const has = (o: object, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);

function checkEx(str: string, ex: Record<string, string> = {}): string | null {
  return has(ex, str) ? (ex[str] ?? null) : null;
}

function checkSame(str: string, same: string[] = []): string | null {
  for (const suffix of same) if (str.endsWith(suffix)) return str;
  return null;
}

// Longest suffix first, forward rules before shared ones, then the empty suffix's fallback.
function checkRules(
  str: string,
  fwd: Record<string, string> = {},
  both: Record<string, string> = {},
): string | null {
  for (let i = str.length - 1; i >= 1; i -= 1) {
    const size = str.length - i;
    const suff = str.substring(size, str.length);
    if (has(fwd, suff)) return str.slice(0, size) + fwd[suff];
    if (has(both, suff)) return str.slice(0, size) + both[suff];
  }
  if (has(fwd, '')) return str + fwd[''];
  if (has(both, '')) return str + both[''];
  return null;
}

/** suffix-thumb's `convert`. */
function convert(str: string, model: SuffixModel): string {
  return (
    checkEx(str, model.ex) ||
    checkSame(str, model.same) ||
    checkRules(str, model.fwd, model.both) ||
    str
  );
}

const COPULA: Record<string, string> = {
  are: 'be',
  were: 'be',
  been: 'be',
  is: 'be',
  am: 'be',
  was: 'be',
  be: 'be',
  being: 'be',
};

export type VerbTense = 'PastTense' | 'PresentTense' | 'Gerund' | 'Participle';

/** `verb.toInfinitive(str, model, tense)` with the tense given. */
export function toInfinitive(str: string, model: InflectionModel, tense: VerbTense): string {
  // A phrasal verb pulled apart ("fall over"), or a prefix written apart ("over cleaned").
  let prefix = '';
  let [verb = '', particle] = str.split(/ /);
  if (particle && model.prefixes[verb] === true) {
    prefix = verb;
    verb = particle;
    particle = '';
  }
  let inf: string;
  if (has(COPULA, str)) inf = COPULA[str] ?? str;
  else if (tense === 'Participle') inf = convert(verb, model.fromParticiple);
  else if (tense === 'PastTense') inf = convert(verb, model.fromPast);
  else if (tense === 'PresentTense') inf = convert(verb, model.fromPresent);
  else inf = convert(verb, model.fromGerund);
  if (particle) inf += ` ${particle}`;
  if (prefix) inf = `${prefix} ${inf}`;
  return inf;
}

const SINGULAR_RULES: [RegExp, string][] = [
  [/([^v])ies$/i, '$1y'],
  [/(ise)s$/i, '$1'],
  [/(kn|[^o]l|w)ives$/i, '$1ife'],
  [/^((?:ca|e|ha|(?:our|them|your)?se|she|wo)l|lea|loa|shea|thie)ves$/i, '$1f'],
  [/^(dwar|handkerchie|hoo|scar|whar)ves$/i, '$1f'],
  [/(antenn|formul|nebul|vertebr|vit)ae$/i, '$1a'],
  [/(octop|vir|radi|nucle|fung|cact|stimul)(i)$/i, '$1us'],
  [/(buffal|tomat|tornad)(oes)$/i, '$1o'],
  [/(ause)s$/i, '$1'],
  [/(ease)s$/i, '$1'],
  [/(ious)es$/i, '$1'],
  [/(ouse)s$/i, '$1'],
  [/(ose)s$/i, '$1'],
  [/(..ase)s$/i, '$1'],
  [/(..[aeiu]s)es$/i, '$1'],
  [/(vert|ind|cort)(ices)$/i, '$1ex'],
  [/(matr|append)(ices)$/i, '$1ix'],
  [/([xo]|ch|ss|sh)es$/i, '$1'],
  [/men$/i, 'man'],
  [/(n)ews$/i, '$1ews'],
  [/([ti])a$/i, '$1um'],
  [/([^aeiouy]|qu)ies$/i, '$1y'],
  [/(s)eries$/i, '$1eries'],
  [/(m)ovies$/i, '$1ovie'],
  [/(cris|ax|test)es$/i, '$1is'],
  [/(alias|status)es$/i, '$1'],
  [/(ss)$/i, '$1'],
  [/(ic)s$/i, '$1'],
  [/s$/i, ''],
];

/** `noun.toSingular(str, model)`. */
export function toSingular(str: string, model: InflectionModel): string {
  if (has(model.singularOf, str)) return model.singularOf[str] ?? str;
  for (const [pattern, replacement] of SINGULAR_RULES) {
    if (pattern.test(str)) return str.replace(pattern, replacement);
  }
  return str;
}

/** `invertObj` of compromise's toSingular, done once instead of per call. */
export function singularsOf(irregularPlurals: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const singular of Object.keys(irregularPlurals)) {
    const plural = irregularPlurals[singular];
    if (plural !== undefined) out[plural] = singular;
  }
  return out;
}
