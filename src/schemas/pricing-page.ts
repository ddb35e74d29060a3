import { z } from 'zod';

/**
 * Inner shapes of the catalogue's `page` and `calculator` objects. The public description
 * (spec section 2) leaves them open ("arbitrary properties"); the site itself renders from them,
 * so the build holds them to these shapes.
 */

export const PricingFaq = z
  .object({
    question: z.string().min(1).describe('Question as shown on the pricing page.'),
    answer: z.string().min(1).describe('Answer, plain text.'),
  })
  .describe('One question and answer of the pricing FAQ.');

export const PricingPageCopy = z
  .object({
    title: z.string().min(1).describe('H1 of the pricing page.'),
    subtitle: z.string().min(1).describe('Lead paragraph under the title.'),
    studioNote: z
      .string()
      .min(1)
      .describe('Explains Engram Studio (formerly Engram Workbench) and the `workbench` key.'),
    faq: z.array(PricingFaq).describe('Frequently asked questions.'),
    featuredPlan: z
      .string()
      .min(1)
      .optional()
      .describe('Id of the plan whose card is marked "Most popular"; a plan id of the catalogue.'),
  })
  .describe('Copy of the pricing page.');

export const CalculatorNode = z
  .object({
    slug: z.string().min(1).describe('Matches a computePrice[].slug of a plan.'),
    displayName: z.string().min(1).describe('Option label in the node select.'),
    hourly: z.number().nonnegative().describe('Price per hour in `currency`.'),
  })
  .describe('One node size the calculator offers.');

export const PricingCalculator = z
  .object({
    currency: z.literal('USD').describe('Currency of every rate.'),
    hoursPerMonth: z.number().positive().describe('Hours billed per month (730).'),
    nodes: z.array(CalculatorNode).min(1).describe('Node sizes, cheapest first.'),
    storagePerGbMonth: z.number().nonnegative().describe('Price per GB-month of storage.'),
    transferPerGb: z.number().nonnegative().describe('Price per GB of data transfer out.'),
    defaults: z
      .object({
        node: z.string().min(1).describe('Slug preselected in the node select.'),
        storageGb: z.number().nonnegative().describe('Initial storage input, GB.'),
        transferGb: z.number().nonnegative().describe('Initial transfer input, GB.'),
      })
      .describe('Initial calculator inputs.'),
  })
  .superRefine((calc, ctx) => {
    if (!calc.nodes.some((n) => n.slug === calc.defaults.node)) {
      ctx.addIssue({
        code: 'custom',
        path: ['defaults', 'node'],
        message: `defaults.node "${calc.defaults.node}" is not one of calculator.nodes[].slug`,
      });
    }
  })
  .describe('Rates and units behind the pricing-page cost calculator.');

export type PricingPageCopy = z.infer<typeof PricingPageCopy>;
export type PricingCalculator = z.infer<typeof PricingCalculator>;
