import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateCatalogue } from '../lib/load-catalogue.ts';
import { PricingCatalogue, PricingPlan, STUDIO_KEY } from './pricing.ts';

const FILE = 'test/build/fixtures/pricing-catalogue.json';
const fixture = (): Record<string, unknown> & { cloud: Record<string, unknown>[] } =>
  JSON.parse(readFileSync(FILE, 'utf8'));

/** Validates a mutated copy and returns the error message (or '' when it passes). */
function failure(mutate: (c: ReturnType<typeof fixture>) => void): string {
  const c = fixture();
  mutate(c);
  try {
    validateCatalogue(c, FILE, () => '2026-01-01');
    return '';
  } catch (err) {
    return (err as Error).message;
  }
}

function plan(c: ReturnType<typeof fixture>, i: number): Record<string, unknown> {
  const p = c.cloud[i];
  if (!p) throw new Error(`fixture has no cloud[${i}]`);
  return p;
}

describe('pricing catalogue schema', () => {
  it('accepts a valid catalogue and keeps it as written', () => {
    const raw = fixture();
    const loaded = validateCatalogue(raw, FILE, () => '2026-01-01');
    expect(loaded.catalogue).toEqual(raw);
    expect(loaded.calculator.nodes).toHaveLength(2);
    expect(loaded.lastmod).toBe('2026-01-01');
  });

  it('keeps the studio plan under the legacy key `workbench`', () => {
    expect(STUDIO_KEY).toBe('workbench');
    expect(Object.keys(PricingPlan.shape)).toContain('workbench');
    expect(Object.keys(PricingPlan.shape)).not.toContain('studio');
  });

  it('accepts dataset null and dataset as an object', () => {
    const c = fixture();
    expect(PricingCatalogue.safeParse(c).success).toBe(true);
    expect(plan(c, 0).dataset).toBeNull();
    expect(plan(c, 1).dataset).toMatchObject({ id: 'demo' });
  });

  const cases: [string, (c: ReturnType<typeof fixture>) => void, string, RegExp][] = [
    [
      'a missing required field',
      (c) => delete plan(c, 0).featuresTitle,
      'cloud[0].featuresTitle',
      /expected string/i,
    ],
    [
      'an unknown plan id',
      (c) => (plan(c, 0).id = 'cloud-huge'),
      'cloud[0].id',
      /invalid option|expected one of/i,
    ],
    [
      'a feature given as a string',
      (c) => (plan(c, 0).features = ['SSO']),
      'cloud[0].features[0]',
      /expected object/i,
    ],
    [
      'a cta variant outside the enum',
      (c) => (plan(c, 0).cta = { variant: 'primary', text: 'Go', href: '/' }),
      'cloud[0].cta.variant',
      /invalid option|expected one of/i,
    ],
    [
      'an href on a disabled cta',
      (c) => (plan(c, 0).cta = { variant: 'disabled', text: 'Soon', href: '/x' }),
      'cloud[0].cta.href',
      /absent when variant is "disabled"/,
    ],
    [
      'a missing href on an enabled cta',
      (c) => (plan(c, 0).cta = { variant: 'gradient', text: 'Go' }),
      'cloud[0].cta.href',
      /present otherwise/,
    ],
    [
      'an href that is neither root-relative nor absolute',
      (c) => (plan(c, 0).cta = { variant: 'gradient', text: 'Go', href: 'docs' }),
      'cloud[0].cta.href',
      /root-relative/,
    ],
    [
      'a dataset without id',
      (c) => (plan(c, 1).dataset = { version: '1' }),
      'cloud[1].dataset.id',
      /expected string/i,
    ],
    [
      'a studio plan outside the enum',
      (c) => (plan(c, 0).workbench = { plan: 'pro' }),
      'cloud[0].workbench.plan',
      /invalid option|expected one of/i,
    ],
    [
      'a renamed studio key',
      (c) => {
        plan(c, 0).studio = plan(c, 0).workbench;
        delete plan(c, 0).workbench;
      },
      'cloud[0]',
      /unrecognized key.*studio/i,
    ],
    [
      'a node type outside the enum',
      (c) =>
        ((plan(c, 0).computePrice as Record<string, unknown>[])[0] = {
          ...(plan(c, 0).computePrice as Record<string, unknown>[])[0],
          type: 'Huge',
        }),
      'cloud[0].computePrice[0].type',
      /invalid option|expected one of/i,
    ],
    [
      'a compute rate missing compute_price',
      (c) => delete (plan(c, 0).computePrice as Record<string, unknown>[])[0]?.compute_price,
      'cloud[0].computePrice[0].compute_price',
      /expected string/i,
    ],
    [
      'a unit rate price given as a number',
      (c) => (plan(c, 0).storagePrice = [{ storage: 'GB', price: 1 }]),
      'cloud[0].storagePrice[0].price',
      /expected string/i,
    ],
    [
      'a price that is neither string nor number',
      (c) => (plan(c, 0).price = true),
      'cloud[0].price',
      /invalid input/i,
    ],
    [
      'cloud-only fields on a support plan',
      (c) =>
        ((c.support as Record<string, unknown>[])[0] = {
          ...(c.support as Record<string, unknown>[])[0],
          dataset: null,
        }),
      'support[0].dataset',
      /cloud tiers only/,
    ],
    [
      'a support plan in the cloud list',
      (c) => c.cloud.push({ ...(c.support as Record<string, unknown>[])[0] }),
      'cloud[2].id',
      /cloud holds cloud-\* plans only, not support-pro/,
    ],
    [
      'a plan id used twice',
      (c) => c.cloud.push({ ...plan(c, 0), dataset: null }),
      'cloud[2].id',
      /plan id cloud-free appears twice/,
    ],
    [
      'an extra top-level key',
      (c) => (c.updated = '2026-01-01'),
      '(root)',
      /unrecognized key.*updated/i,
    ],
    [
      'a missing calculator',
      (c) => delete c.calculator,
      'calculator',
      /expected record|expected object/i,
    ],
    [
      'a calculator default node that is not offered',
      (c) => ((c.calculator as { defaults: { node: string } }).defaults.node = 'tiny'),
      'calculator.defaults.node',
      /not one of calculator\.nodes/,
    ],
    [
      'a calculator node no plan prices',
      (c) =>
        (c.calculator as { nodes: unknown[] }).nodes.push({
          slug: 'ghost',
          displayName: 'Ghost',
          hourly: 1,
        }),
      'calculator.nodes[2].slug',
      /matches no computePrice/,
    ],
    [
      'page copy without a studio note',
      (c) => delete (c.page as Record<string, unknown>).studioNote,
      'page.studioNote',
      /expected string/i,
    ],
    [
      'a featured plan that is not in the catalogue',
      (c) => ((c.page as { featuredPlan: string }).featuredPlan = 'cloud-huge'),
      'page.featuredPlan',
      /"cloud-huge" is not the id of any plan/,
    ],
  ];

  for (const [name, mutate, path, rule] of cases) {
    it(`rejects ${name}, naming the file, the path and the rule`, () => {
      const message = failure(mutate);
      expect(message).toContain(`${FILE}: ${path}`);
      expect(message).toMatch(rule);
    });
  }
});
