/**
 * Security headers on every response of the origin (issue 11 item 6, issue 15 item 7): one
 * wrapper at the Worker entry, so pages, twins, the site's `/api`, the memory API, problem bodies,
 * MCP and the OAuth endpoints get them whichever handler answered. The policy is documented in
 * docs/security.md; keep the two in step.
 */

/**
 * `sha256-...` sources of inline scripts the site may emit: only the theme script. Astro writes
 * every other script to a file (`vite.build.assetsInlineLimit: 0` in astro.config.ts). A page
 * that needs another inline script adds its hash here; the build-output test
 * test/build/csp.test.ts prints the hash of any inline script it finds that is not listed.
 */
export const INLINE_SCRIPT_HASHES: readonly string[] = [
  // The theme script in the head of every page (src/layouts/Base.astro): it sets the colour scheme
  // before first paint, so it cannot wait for an external file (docs/site-docs-ui.md).
  'sha256-pkWM35YxspPrlxssimdiCJF75IcMmjRAs7H7KcC9M78=',
];

/**
 * The Content-Security-Policy of the site's HTML pages. Scripts and stylesheets come from this
 * origin only; `style-src-attr 'unsafe-inline'` lets the `style="color:..."` attributes of
 * Shiki's highlighted code through (attributes cannot run script); nothing may frame a page.
 */
export function siteCsp(scriptHashes: readonly string[] = INLINE_SCRIPT_HASHES): string {
  const scripts = ["'self'", ...scriptHashes.map((h) => `'${h}'`)].join(' ');
  return [
    "default-src 'self'",
    `script-src ${scripts}`,
    "style-src 'self'",
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const PERMISSIONS_POLICY =
  'accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=()';
export const REFERRER_POLICY = 'strict-origin-when-cross-origin';
/** Two years, the preload lists' minimum; sent over HTTPS only (RFC 6797 ignores it on http). */
export const HSTS = 'max-age=63072000; includeSubDomains';

function isHtml(headers: Headers): boolean {
  return (headers.get('content-type') ?? '').toLowerCase().startsWith('text/html');
}

/** Sets a header unless the handler chose its own value (the consent page has a stricter CSP). */
function setDefault(headers: Headers, name: string, value: string): void {
  if (!headers.has(name)) headers.set(name, value);
}

/** Adds the headers in place: `nosniff` on everything, the page set on HTML, HSTS on https. */
export function applySecurityHeaders(headers: Headers, url: URL): void {
  headers.set('x-content-type-options', 'nosniff');
  setDefault(headers, 'referrer-policy', REFERRER_POLICY);
  if (url.protocol === 'https:') setDefault(headers, 'strict-transport-security', HSTS);
  if (!isHtml(headers)) return;
  setDefault(headers, 'content-security-policy', siteCsp());
  setDefault(headers, 'permissions-policy', PERMISSIONS_POLICY);
  setDefault(headers, 'x-frame-options', 'DENY');
  setDefault(headers, 'cross-origin-opener-policy', 'same-origin');
}

type FetchHandler = (request: Request, env: Env, ctx: ExecutionContext) => Promise<Response>;

/** Wraps the Worker's fetch so that no response leaves without the headers above. */
export function withSecurityHeaders(handler: FetchHandler): FetchHandler {
  return async function securedFetch(request, env, ctx) {
    const res = await handler(request, env, ctx);
    // A WebSocket upgrade carries no document and its headers are not ours to add to.
    if (res.status === 101) return res;
    const url = new URL(request.url);
    try {
      applySecurityHeaders(res.headers, url);
      return res;
    } catch {
      // Responses passed through from a binding (ASSETS, fetch) have immutable headers.
      const copy = new Response(res.body, res);
      applySecurityHeaders(copy.headers, url);
      return copy;
    }
  };
}
