// The scale bench's flags: `npm run bench -- scale [--sizes=10000,100000] [--dims=local,768]
// [--questions=50] [--concurrency=4]`. Sizes are facts in the one Context, grown in that order;
// `--dims` lists the vector widths to run, each on a Context of its own: `local` is the local
// model (`local-sif-v2`, 100 wide), a number is synthetic vectors of that width served by an
// OpenAI-compatible fake on loopback.

export interface ScaleOptions {
  /** Context sizes in facts, ascending. */
  sizes: number[];
  /** Widths to run, in order: a synthetic vector width, or null for the local model. */
  widths: (number | null)[];
  /** Distinct questions asked per mode at each size. */
  questions: number;
  /** Batches of 100 in flight while growing the Context. */
  concurrency: number;
}

export const DEFAULT_SIZES = [10_000, 100_000, 1_000_000];
export const DEFAULT_QUESTIONS = 50;
export const DEFAULT_CONCURRENCY = 4;
/** A bound, so that a typo cannot ask for a run of days: a SQLite-backed object holds 10 GB. */
export const MAX_SIZE = 5_000_000;
const MAX_DIMS = 4_096;

function value(args: readonly string[], name: string): string | undefined {
  const prefix = `--${name}=`;
  return args.findLast((a) => a.startsWith(prefix))?.slice(prefix.length);
}

function whole(text: string, flag: string, max: number): number {
  const n = Number(text.replaceAll('_', ''));
  if (!Number.isInteger(n) || n < 1 || n > max) {
    throw new Error(`--${flag}: ${JSON.stringify(text)} is not a whole number from 1 to ${max}`);
  }
  return n;
}

function widthsOf(text: string): (number | null)[] {
  const widths = text
    .split(',')
    .map((w) => w.trim())
    .map((w) => (w === 'local' ? null : whole(w, 'dims', MAX_DIMS)));
  return [...new Set(widths)];
}

/** Parses the flags the bench framework hands every part (other parts' flags are ignored). */
export function parseScaleArgs(args: readonly string[]): ScaleOptions {
  const sizesText = value(args, 'sizes');
  const sizes =
    sizesText === undefined
      ? DEFAULT_SIZES
      : sizesText.split(',').map((s) => whole(s.trim(), 'sizes', MAX_SIZE));
  const dimsText = value(args, 'dims');
  const questionsText = value(args, 'questions');
  const concurrencyText = value(args, 'concurrency');
  return {
    sizes: [...new Set(sizes)].sort((a, b) => a - b),
    widths: dimsText === undefined ? [null] : widthsOf(dimsText),
    questions:
      questionsText === undefined ? DEFAULT_QUESTIONS : whole(questionsText, 'questions', 1_000),
    concurrency:
      concurrencyText === undefined
        ? DEFAULT_CONCURRENCY
        : whole(concurrencyText, 'concurrency', 64),
  };
}
