import { z } from 'zod';
import {
  PricingCatalogue,
  PricingComputeRate,
  PricingCta,
  PricingDataset,
  PricingFeature,
  PricingPlan,
  PricingStudioPlan,
  PricingUnitRate,
} from '../schemas/pricing.ts';
import { Problem } from '../schemas/problem.ts';

/** The component schemas of /openapi.json, generated from the very zod schemas the build uses. */
const COMPONENTS = {
  PricingCatalogue,
  PricingPlan,
  PricingFeature,
  PricingDataset,
  PricingCta,
  PricingComputeRate,
  PricingUnitRate,
  PricingStudioPlan,
  Problem,
} as const;

export type ComponentName = keyof typeof COMPONENTS;

export function componentSchemas(): Record<string, Record<string, unknown>> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(COMPONENTS)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { uri: (id) => `#/components/schemas/${id}` });
  const out: Record<string, Record<string, unknown>> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    // OpenAPI components are addressed by their place in the document, not by $id.
    const { $schema: _s, $id: _i, ...rest } = schema as Record<string, unknown>;
    out[id] = rest;
  }
  return out;
}
