import { describe, expect, it } from 'vitest';
import {
  formatMoney,
  formatRate,
  monthlyBreakdown,
  monthlyTotal,
  type CalculatorRates,
} from './calculator.ts';

const rates: CalculatorRates = {
  currency: 'USD',
  hoursPerMonth: 730,
  nodes: [
    { slug: 'small', displayName: 'Small', hourly: 0.02 },
    { slug: 'large', displayName: 'Large', hourly: 0.5 },
  ],
  storagePerGbMonth: 0.25,
  transferPerGb: 0.09,
};

describe('monthlyTotal', () => {
  it('adds node hours, storage and transfer', () => {
    // 0.02 * 730 + 10 * 0.25 + 100 * 0.09 = 14.6 + 2.5 + 9
    expect(monthlyTotal(rates, { node: 'small', storageGb: 10, transferGb: 100 })).toBe(26.1);
  });
  it('changes with the node size', () => {
    expect(monthlyTotal(rates, { node: 'large', storageGb: 0, transferGb: 0 })).toBe(365);
  });
  it('counts negative and non-numeric inputs as zero', () => {
    expect(monthlyTotal(rates, { node: 'small', storageGb: -5, transferGb: Number.NaN })).toBe(
      14.6,
    );
  });
  it('breaks the total into compute, storage and transfer that add up to it', () => {
    // 0.021 * 730 = 15.33 exactly; 3 GB * 0.333 = 0.999 rounds to 1.00 on its own line.
    const odd = { ...rates, storagePerGbMonth: 0.333 };
    const parts = monthlyBreakdown(
      { ...odd, nodes: [{ slug: 'b1', displayName: 'B1', hourly: 0.021 }] },
      { node: 'b1', storageGb: 3, transferGb: 7 },
    );
    expect(parts).toEqual({ compute: 15.33, storage: 1, transfer: 0.63, total: 16.96 });
    expect(parts.total).toBe(
      Math.round((parts.compute + parts.storage + parts.transfer) * 100) / 100,
    );
  });
  it('formats in the catalogue currency', () => {
    expect(formatMoney(1234.5, 'USD')).toBe('$1,234.50');
  });
  it('shows hourly rates to a tenth of a cent', () => {
    expect(formatRate(0.021, 'USD')).toBe('$0.021');
    expect(formatRate(1.5, 'USD')).toBe('$1.50');
  });
});
