import { readFileSync } from 'node:fs';
import { PricingCatalogue } from '../schemas/pricing.ts';
import { PricingCalculator, PricingPageCopy } from '../schemas/pricing-page.ts';
import { CONTENT_ROOT } from './content-root.ts';
import { gitLastModified } from './git-lastmod.ts';
import { parseOrThrow } from './zod-report.ts';

export const CATALOGUE_FILE = `${CONTENT_ROOT}/pricing/catalogue.json`;

export interface LoadedCatalogue {
  catalogue: PricingCatalogue;
  page: PricingPageCopy;
  calculator: PricingCalculator;
  /** Last change of the catalogue file: the lastmod of /pricing. */
  lastmod: string;
}

/**
 * Reads and validates the pricing catalogue. Throws with the file, the path and the rule on the
 * first invalid content, which fails the build.
 */
export function loadCatalogue(file: string = CATALOGUE_FILE): LoadedCatalogue {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file}: (root): cannot read as JSON: ${(err as Error).message}`);
  }
  return validateCatalogue(raw, file, () => gitLastModified(file));
}

export function validateCatalogue(
  raw: unknown,
  file: string,
  lastmod: () => string,
): LoadedCatalogue {
  const catalogue = parseOrThrow(PricingCatalogue, raw, file);
  const page = parseOrThrow(PricingPageCopy, catalogue.page, file, ['page']);
  const calculator = parseOrThrow(PricingCalculator, catalogue.calculator, file, ['calculator']);
  checkNodeSlugs(catalogue, calculator, file);
  checkFeaturedPlan(catalogue, page, file);
  return { catalogue, page, calculator, lastmod: lastmod() };
}

/** Every calculator node must price a node size the plans list. */
function checkNodeSlugs(catalogue: PricingCatalogue, calc: PricingCalculator, file: string): void {
  const plans = [...catalogue.cloud, ...catalogue.selfHosted, ...catalogue.support];
  const slugs = new Set(plans.flatMap((p) => (p.computePrice ?? []).map((r) => r.slug)));
  calc.nodes.forEach((node, i) => {
    if (!slugs.has(node.slug)) {
      throw new Error(
        `${file}: calculator.nodes[${i}].slug: "${node.slug}" matches no computePrice[].slug of any plan`,
      );
    }
  });
}

/** The card marked "Most popular" must be a plan the page shows. */
function checkFeaturedPlan(catalogue: PricingCatalogue, page: PricingPageCopy, file: string): void {
  if (page.featuredPlan === undefined) return;
  const ids = [...catalogue.cloud, ...catalogue.selfHosted, ...catalogue.support].map((p) => p.id);
  if (!ids.includes(page.featuredPlan as (typeof ids)[number])) {
    throw new Error(
      `${file}: page.featuredPlan: "${page.featuredPlan}" is not the id of any plan (${ids.join(', ')})`,
    );
  }
}
