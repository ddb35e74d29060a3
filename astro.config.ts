import mdx from '@astrojs/mdx';
import { defineConfig } from 'astro/config';
import { agentReady } from './src/integrations/agent-ready.ts';
import { codeTitle } from './src/integrations/code-title.ts';
import { memoryOpenApi } from './src/integrations/memory-openapi.ts';
import { socialImages } from './src/integrations/social-images.ts';
import { tableAssets } from './src/integrations/table-assets.ts';

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
  markdown: {
    // Both themes are emitted as CSS variables; src/styles/docs.css picks one per colour scheme.
    shikiConfig: {
      themes: { light: 'github-light-high-contrast', dark: 'github-dark-high-contrast' },
      defaultColor: false,
      transformers: [codeTitle()],
    },
  },
  // Never inline a script into the HTML: the Content-Security-Policy allows only external
  // scripts (plus the one hashed theme script, see docs/site-docs-ui.md): functions/site/
  // security-headers.ts, docs/security.md.
  vite: { build: { assetsInlineLimit: 0 } },
  // memoryOpenApi first: the API reference pages read the document it exports.
  // tableAssets last: its files are data for the Worker, not pages the site's checks read.
  integrations: [memoryOpenApi(), mdx(), agentReady(), socialImages(), tableAssets()],
});
