import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatMoney, monthlyBreakdown, monthlyTotal } from '../../src/lib/calculator.ts';
import { validateCatalogue } from '../../src/lib/load-catalogue.ts';
import { CONTENT, read } from './dist.ts';

const file = `${CONTENT}/pricing/catalogue.json`;
const { catalogue, page, calculator } = validateCatalogue(
  JSON.parse(readFileSync(file, 'utf8')),
  file,
  () => '',
);
const plans = [...catalogue.cloud, ...catalogue.selfHosted, ...catalogue.support];
const html = read('pricing.html');
const md = read('pricing.md');

describe('/pricing renders the catalogue', () => {
  it('shows every plan with its name, description and call to action', () => {
    for (const plan of plans) {
      expect(html).toContain(`id="${plan.id}"`);
      expect(md).toContain(`### ${plan.name}`);
      expect(md).toContain(plan.cta.text);
      if (plan.cta.href) expect(html).toContain(`href="${plan.cta.href}"`);
    }
  });

  it('marks every coming-soon feature and no other', () => {
    const soon = plans.flatMap((p) => p.features.filter((f) => f.comingSoon));
    expect((html.match(/class="soon"/g) ?? []).length).toBe(soon.length);
    for (const f of soon) expect(md).toContain(`${f.name} (coming soon)`);
  });

  it('shows each cloud tier’s Engram Studio plan and documents the `workbench` key', () => {
    for (const plan of catalogue.cloud) {
      if (plan.workbench) expect(md).toContain(`Engram Studio: **${plan.workbench.plan}**`);
    }
    expect(md).toMatch(/key `workbench`, the tool.s former name \(Engram Workbench\)/);
    expect(md).not.toContain('\\`');
  });

  it('lists the compute, storage and transfer rates', () => {
    for (const plan of plans) {
      for (const r of plan.computePrice ?? []) expect(md).toContain(r.compute_price);
      for (const r of plan.storagePrice ?? []) if (r.price) expect(md).toContain(r.price);
    }
    expect(md).toContain('### Compute');
  });

  it('has the calculator controls, the default total and the FAQ', () => {
    for (const id of [
      'calculator-node',
      'calculator-storage',
      'calculator-transfer',
      'calculator-total',
    ]) {
      expect(html).toContain(`id="${id}"`);
    }
    const total = formatMoney(monthlyTotal(calculator, calculator.defaults), calculator.currency);
    expect(html).toMatch(new RegExp(`id="calculator-total"[^>]*>\\s*${total.replace('$', '\\$')}`));
    expect(md).toContain(`comes to ${total} a month`);
    for (const n of calculator.nodes) expect(html).toContain(`value="${n.slug}"`);
    for (const f of page.faq) expect(md).toContain(`### ${f.question}`);
  });

  it('marks the catalogue’s featured plan, and only it, as most popular', () => {
    expect(page.featuredPlan).toBeDefined();
    const featured = [...html.matchAll(/<article class="([^"]*)" id="([^"]+)"/g)]
      .filter((m) => (m[1] ?? '').split(' ').includes('featured'))
      .map((m) => m[2]);
    expect(featured).toEqual([page.featuredPlan]);
    expect((html.match(/class="plan-badge"/g) ?? []).length).toBe(1);
  });

  it('shows the default estimate broken into compute, storage and transfer', () => {
    const parts = monthlyBreakdown(calculator, calculator.defaults);
    for (const [id, amount] of [
      ['calculator-compute', parts.compute],
      ['calculator-storage-cost', parts.storage],
      ['calculator-transfer-cost', parts.transfer],
    ] as const) {
      const money = formatMoney(amount, calculator.currency).replace('$', '\\$');
      expect(html).toMatch(new RegExp(`id="${id}"[^>]*>\\s*${money}`));
    }
  });
});
