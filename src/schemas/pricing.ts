import { z } from 'zod';

/**
 * The pricing catalogue of spec section 2 (website-origin.md), one schema per named type.
 * The build validates content/pricing/catalogue.json with these, serves the result as
 * /api/cloud/pricing.json and generates the OpenAPI components from the same objects.
 */

/** Stable plan identifiers: clients match on these, never on `name`. */
export const PLAN_IDS = [
  'cloud-free',
  'cloud-start',
  'cloud-scale',
  'self-hosted-enterprise',
  'support-pro',
  'support-priority',
  'support-premium',
] as const;

/**
 * The studio tool is "Engram Studio", formerly "Engram Workbench". Its plan sits under this
 * legacy JSON key so existing consumers keep working: never rename it.
 */
export const STUDIO_KEY = 'workbench';

export const PricingFeature = z
  .object({
    name: z.string().min(1).describe('Feature as displayed.'),
    comingSoon: z
      .boolean()
      .describe('True when the feature is announced but not yet shipped on this plan.'),
  })
  .strict()
  .describe('One entry of a plan’s feature list.');

export const PricingDataset = z
  .object({
    id: z.string().min(1).describe('Dataset identifier.'),
    version: z.string().optional().describe('Present when the dataset version is pinned.'),
    size: z.string().optional().describe('Approximate on-disk size as displayed.'),
  })
  .strict()
  .describe('Demo dataset preloaded for a cloud tier.');

export const PricingCta = z
  .object({
    variant: z
      .enum(['reversed', 'gradient', 'disabled'])
      .describe('Button rendering on the pricing page.'),
    text: z.string().min(1).describe('Button label.'),
    href: z
      .string()
      .min(1)
      .regex(/^(\/|https?:\/\/)/, 'href must be root-relative (/...) or an absolute http(s) URL')
      .optional()
      .describe(
        'Absolute URL, or root-relative path resolved against the site origin. Absent when variant is disabled.',
      ),
  })
  .strict()
  .refine((cta) => (cta.variant === 'disabled') === (cta.href === undefined), {
    message: 'cta.href must be absent when variant is "disabled" and present otherwise',
    path: ['href'],
  })
  .describe('Action offered on the pricing page.');

export const PricingComputeRate = z
  .object({
    slug: z.string().min(1).describe('Stable identifier of the node size.'),
    displayName: z.string().min(1).describe('Name shown in the calculator.'),
    node: z.string().min(1).describe('Node size name as printed in the pricing table.'),
    type: z.enum(['Burstable', 'General purpose', 'Scale']).describe('Node family.'),
    category: z.enum(['free', 'development', 'production', 'scale']).describe('Calculator group.'),
    cpu: z.string().min(1).describe('vCPU allowance as displayed.'),
    memory: z.string().min(1).describe('Memory allowance as displayed.'),
    compute_price: z.string().min(1).describe('Price per hour as displayed.'),
  })
  .strict()
  .describe('Hourly compute rate of one node size.');

export const PricingUnitRate = z
  .object({
    storage: z.string().optional().describe('Unit charged against; present on storage rates.'),
    transfer: z.string().optional().describe('Unit charged against; present on transfer rates.'),
    price: z.string().optional().describe('Price for that unit as displayed.'),
  })
  .strict()
  .describe('A metered rate (storage or data transfer).');

export const PricingStudioPlan = z
  .object({
    plan: z
      .enum(['free', 'start', 'scale', 'enterprise'])
      .describe('Engram Studio plan the tier grants.'),
    defaultType: z
      .string()
      .optional()
      .describe('Instance type preselected on deploy, when one is pinned.'),
  })
  .strict()
  .describe(
    'Engram Studio plan of a cloud tier, under the legacy key `workbench` (the tool’s former name, Engram Workbench).',
  );

const planShape = {
  id: z.enum(PLAN_IDS).describe('Stable plan identifier; match on it, not on name.'),
  name: z.string().min(1).describe('Display name.'),
  description: z.string().min(1).describe('Who the plan is for.'),
  price: z
    .union([z.string().min(1), z.number().nonnegative()])
    .describe('Headline price as displayed; a string when the plan is free or quoted.'),
  featuresTitle: z.string().min(1).describe('Heading of the feature list.'),
  features: z.array(PricingFeature).describe('Features of the plan, each an object.'),
  plus: z.array(z.string()).optional().describe('What the plan adds to the tier below.'),
  resources: z
    .array(z.string())
    .optional()
    .describe('Compute, memory and storage allowances as displayed; cloud tiers only.'),
  dataset: PricingDataset.nullable()
    .optional()
    .describe('Demo dataset preloaded for the tier; null when none; cloud tiers only.'),
  [STUDIO_KEY]: PricingStudioPlan.optional().describe(
    'Engram Studio plan (legacy key `workbench`, the tool’s former name); cloud tiers only.',
  ),
  cta: PricingCta,
  computePrice: z.array(PricingComputeRate).optional().describe('Per-node compute rates.'),
  storagePrice: z.array(PricingUnitRate).optional().describe('Storage rates.'),
  transferPrice: z.array(PricingUnitRate).optional().describe('Data transfer rates.'),
};

/** Fields the spec reserves for cloud tiers. */
const CLOUD_ONLY = ['resources', 'dataset', STUDIO_KEY] as const;

export const PricingPlan = z
  .object(planShape)
  .strict()
  .superRefine((plan, ctx) => {
    if (plan.id.startsWith('cloud-')) return;
    for (const key of CLOUD_ONLY) {
      if (plan[key] !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `${key} is for cloud tiers only; plan ${plan.id} must not carry it`,
        });
      }
    }
  })
  .describe('One plan of the catalogue.');

const GROUP_PREFIX = [
  ['cloud', 'cloud-'],
  ['selfHosted', 'self-hosted-'],
  ['support', 'support-'],
] as const;

export const PricingCatalogue = z
  .object({
    cloud: z.array(PricingPlan).describe('Managed cloud tiers.'),
    selfHosted: z.array(PricingPlan).describe('Self-hosted tiers.'),
    support: z.array(PricingPlan).describe('Support tiers, bought alongside a plan.'),
    page: z
      .record(z.string(), z.unknown())
      .describe('Copy used to render the pricing page; not commercial data.'),
    calculator: z
      .record(z.string(), z.unknown())
      .describe('Rates and units behind the pricing-page cost calculator.'),
  })
  .strict()
  .superRefine((catalogue, ctx) => {
    // Each list holds its own family of plans, and an id names one plan only.
    const seen = new Set<string>();
    for (const [group, prefix] of GROUP_PREFIX) {
      catalogue[group].forEach((plan, i) => {
        if (!plan.id.startsWith(prefix)) {
          ctx.addIssue({
            code: 'custom',
            path: [group, i, 'id'],
            message: `${group} holds ${prefix}* plans only, not ${plan.id}`,
          });
        }
        if (seen.has(plan.id)) {
          ctx.addIssue({
            code: 'custom',
            path: [group, i, 'id'],
            message: `plan id ${plan.id} appears twice`,
          });
        }
        seen.add(plan.id);
      });
    }
  })
  .describe('Body of GET /api/cloud/pricing.json.');

export type PricingCatalogue = z.infer<typeof PricingCatalogue>;
export type PricingPlan = z.infer<typeof PricingPlan>;
export type PricingFeature = z.infer<typeof PricingFeature>;
export type PricingCta = z.infer<typeof PricingCta>;
export type PricingComputeRate = z.infer<typeof PricingComputeRate>;
export type PricingUnitRate = z.infer<typeof PricingUnitRate>;
export type PricingStudioPlan = z.infer<typeof PricingStudioPlan>;
export type PricingDataset = z.infer<typeof PricingDataset>;
