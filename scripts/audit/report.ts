/**
 * The audit's Markdown: a score table (median of the runs per category, every run's performance
 * score beside it), a table of the performance metrics' medians, and the targets missed.
 */
import { CATEGORIES, WAIVED, type Category, type RunResult } from './lighthouse.ts';
import type { PageResult } from './measure.ts';

/** What one audit is measured against, and how its section is headed and explained. */
export interface ReportSpec {
  /** The section's heading line, e.g. `## Site: Lighthouse and axe-core audit`. */
  title: string;
  /** The command that reproduces it, shown in backticks. */
  command: string;
  runs: number;
  targets: Record<Category, number>;
  /** A paragraph after the command's (how the pages were opened), when there is one. */
  note?: string;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const upper = sorted[mid] ?? Number.NaN;
  return sorted.length % 2 === 1 ? upper : ((sorted[mid - 1] ?? upper) + upper) / 2;
}

const NAMES: Record<Category, string> = {
  performance: 'performance',
  accessibility: 'accessibility',
  'best-practices': 'best practices',
  seo: 'SEO',
};

/** `performance ≥ 95, …, SEO 100 apart from \`robots-txt\`` (100 needs no `≥`). */
export function describeTargets(targets: Record<Category, number>): string {
  const parts = CATEGORIES.map(
    (c) => `${NAMES[c]} ${targets[c] >= 100 ? '100' : `≥ ${targets[c]}`}`,
  );
  return `${parts.join(', ')} apart from \`robots-txt\``;
}

const ms = (n: number): string => (Number.isNaN(n) ? '?' : `${Math.round(n)}`);

export function report(
  results: PageResult[],
  load: { before: number; after: number },
  spec: ReportSpec,
): string {
  const { runs, targets } = spec;
  const med = (r: PageResult, pick: (x: RunResult) => number): number =>
    Math.round(median(r.runs.map(pick)));
  const scoreRows = results.map((r) => {
    const perf = r.runs.map((x) => x.scores.performance).join(', ');
    const cell = (c: Category) => med(r, (x) => x.scores[c]);
    const axeCell = r.axeSerious.length === 0 ? 'none' : r.axeSerious.join(', ');
    return `| \`${r.path}\` | **${cell('performance')}** (${perf}) | ${cell('accessibility')} | ${cell('best-practices')} | ${cell('seo')} raw, ${med(r, (x) => x.seoWaived)} without \`robots-txt\` | ${axeCell} |`;
  });
  const metricRows = results.map((r) => {
    const m = (name: string) => median(r.runs.map((x) => x.metrics[name] ?? Number.NaN));
    const cls = m('CLS');
    const lcpElements = [...new Set(r.runs.map((x) => `\`${x.lcpElement}\``))].join(', ');
    return `| \`${r.path}\` | ${ms(m('FCP'))} | ${ms(m('LCP'))} | ${ms(m('TBT'))} | ${Number.isNaN(cls) ? '?' : cls.toFixed(3)} | ${ms(m('SI'))} | ${(med(r, (x) => x.bytes) / 1024).toFixed(1)} | ${lcpElements} |`;
  });
  const missed = results.flatMap((r) => {
    const failedSeo = [...new Set(r.runs.flatMap((x) => x.failedSeo))];
    return [
      ...CATEGORIES.filter(
        (c) => c !== 'seo' && med(r, (x) => x.scores[c]) < targets[c] && r.runs.length > 0,
      ).map((c) => `${r.path}: ${c} ${med(r, (x) => x.scores[c])} < ${targets[c]}`),
      ...(med(r, (x) => x.seoWaived) < targets.seo
        ? [`${r.path}: seo ${med(r, (x) => x.seoWaived)} (${failedSeo.join(', ')})`]
        : []),
      ...(r.runs.length < runs ? [`${r.path}: ${r.runs.length} of ${runs} runs usable`] : []),
      ...r.axeSerious.map((id) => `${r.path}: axe ${id}`),
    ];
  });
  const discarded = results.flatMap((r) => r.discarded.map((d) => `${r.path} (${d})`));
  return [
    spec.title,
    '',
    `Command: \`${spec.command}\` (Lighthouse ` +
      'mobile defaults: Moto G Power emulation, simulated slow 4G, 4× CPU slowdown; ' +
      `${runs} runs per page, round-robin, each category the median of the runs; ` +
      'axe-core at 390 px, WCAG 2.1 A/AA + best practices). ' +
      `Targets: ${describeTargets(targets)} ` +
      `(${WAIVED['robots-txt']}); axe: no serious or critical violation.`,
    '',
    ...(spec.note === undefined ? [] : [spec.note, '']),
    `Load average (1 min) of the machine: ${load.before.toFixed(2)} before, ${load.after.toFixed(2)} after ` +
      '(Lighthouse simulates the network and CPU from what it observes, so a busy shared machine lowers ' +
      'performance scores; compare pages measured in the same run).',
    '',
    '| page | performance: median (runs) | accessibility | best practices | SEO | axe serious/critical |',
    '| --- | --- | --- | --- | --- | --- |',
    ...scoreRows,
    '',
    'Medians of the performance metrics (ms; CLS unitless), transferred KiB, and the LCP element:',
    '',
    '| page | FCP | LCP | TBT | CLS | Speed Index | KiB | LCP element |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...metricRows,
    '',
    discarded.length === 0
      ? 'No run discarded.'
      : `Runs measured again because Lighthouse could not score them: ${discarded.join('; ')}.`,
    '',
    missed.length === 0 ? 'Every target met.' : `Missed: ${missed.join('; ')}.`,
  ].join('\n');
}
