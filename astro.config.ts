import mdx from '@astrojs/mdx';
import { defineConfig } from 'astro/config';
import { agentReady } from './src/integrations/agent-ready.ts';

// Absolute origin written into sitemaps, llms.txt and discovery documents.
const site = process.env.SITE_URL ?? 'https://engram.example';

export default defineConfig({
  site,
  output: 'static',
  trailingSlash: 'never',
  // Astro's compressor drops the space between text and an inline element that starts a new
  // source line ("with<code>"), which corrupts both the page and its markdown twin.
  compressHTML: false,
  // `/pricing` is written as dist/pricing.html so its twin dist/pricing.md sits beside it; one
  // cached stylesheet instead of CSS inlined into every page (and into its token count).
  build: { format: 'file', inlineStylesheets: 'never' },
  // Scripts are always files, never inlined into the page: the CSP (functions/site/
  // security-headers.ts, docs/security.md) allows scripts from this origin only.
  vite: { build: { assetsInlineLimit: 0 } },
  integrations: [mdx(), agentReady()],
});
