/**
 * The pricing calculator's arithmetic, shared by the server-rendered default and the browser
 * script on /pricing so the two can never disagree.
 */
export interface CalculatorRates {
  currency: string;
  hoursPerMonth: number;
  nodes: readonly { slug: string; displayName: string; hourly: number }[];
  storagePerGbMonth: number;
  transferPerGb: number;
}

export interface CalculatorInput {
  node: string;
  storageGb: number;
  transferGb: number;
}

/** The parts of a monthly estimate, each rounded to cents, in the catalogue currency. */
export interface CostBreakdown {
  compute: number;
  storage: number;
  transfer: number;
  total: number;
}

/**
 * Monthly cost by part; negative or non-numeric inputs count as zero. The total is the sum of
 * the rounded parts, so the lines a reader sees always add up to the total shown.
 */
export function monthlyBreakdown(rates: CalculatorRates, input: CalculatorInput): CostBreakdown {
  const node = rates.nodes.find((n) => n.slug === input.node);
  const compute = cents((node ? node.hourly : 0) * rates.hoursPerMonth);
  const storage = cents(clamp(input.storageGb) * rates.storagePerGbMonth);
  const transfer = cents(clamp(input.transferGb) * rates.transferPerGb);
  return { compute, storage, transfer, total: cents(compute + storage + transfer) };
}

/** Monthly total in the catalogue currency; negative or non-numeric inputs count as zero. */
export function monthlyTotal(rates: CalculatorRates, input: CalculatorInput): number {
  return monthlyBreakdown(rates, input).total;
}

function cents(n: number): number {
  return Math.round(n * 100) / 100;
}

function clamp(n: number): number {
  return Number.isFinite(n) && n > 0 ? n : 0;
}

export function formatMoney(amount: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount);
}

/** Hourly rates need a third decimal ($0.021/hr); whole amounts keep two. */
export function formatRate(amount: number, currency: string): string {
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency,
    minimumFractionDigits: 2,
    maximumFractionDigits: 3,
  }).format(amount);
}
