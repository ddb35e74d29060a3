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

/** Monthly total in the catalogue currency; negative or non-numeric inputs count as zero. */
export function monthlyTotal(rates: CalculatorRates, input: CalculatorInput): number {
  const node = rates.nodes.find((n) => n.slug === input.node);
  const hourly = node ? node.hourly : 0;
  const total =
    hourly * rates.hoursPerMonth +
    clamp(input.storageGb) * rates.storagePerGbMonth +
    clamp(input.transferGb) * rates.transferPerGb;
  return Math.round(total * 100) / 100;
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
