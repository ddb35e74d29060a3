import type { ConsentDescription } from '@cloudflare/workers-oauth-provider';

/** The consent page: who asks, where the code goes, and the grants a person chooses to give. */
export interface ConsentPageInput {
  handle: string;
  /** Absent when the page is shown again after a rejected form. */
  description: ConsentDescription | null;
  error: string | null;
  values: { context_id: string; read: string; write: string; forget: string };
}

function esc(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

function clientBlock(d: ConsentDescription): string {
  const loopback = d.redirectIsLoopback
    ? '<p class="warn">The code goes to an app on this computer: any local program could be listening, whatever name the client claims.</p>'
    : '';
  const requested = d.scope.length > 0 ? esc(d.scope.join(' ')) : 'none named';
  return `<p><strong>${esc(d.clientName)}</strong>${d.clientDomain ? ` (${esc(d.clientDomain)})` : ''} asks for access to your memory (over MCP or the REST API).</p>
<p>After you approve, the browser goes to <code>${esc(d.redirectHost)}</code>.</p>${loopback}
<p>Scopes it asked for: <code>${requested}</code>. You choose below what it really gets.</p>`;
}

export function renderConsentPage(input: ConsentPageInput): string {
  const v = input.values;
  const error = input.error ? `<p class="error" role="alert">${esc(input.error)}</p>` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Authorize a client · Engram</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}
label{display:block;margin-top:1rem;font-weight:600}
input{width:100%;padding:.4rem;font:inherit}
.hint{font-weight:400;color:#555;font-size:.9rem}
.error{color:#a40000;border:1px solid #a40000;padding:.5rem}
.warn{color:#7a4b00}
button{margin-top:1.5rem;padding:.5rem 1rem;font:inherit}
</style>
</head>
<body>
<main>
<h1>Authorize a client</h1>
${input.description ? clientBlock(input.description) : ''}
${error}
<form method="post" action="/authorize">
<input type="hidden" name="handle" value="${esc(input.handle)}">
<label for="api_key">Your API key <span class="hint">(its principal is the one granted; the token never exceeds this key’s grants)</span></label>
<input id="api_key" name="api_key" type="password" autocomplete="off" required>
<label for="context_id">Context <span class="hint">(empty: the Context the key is bound to)</span></label>
<input id="context_id" name="context_id" value="${esc(v.context_id)}">
<label for="read">memory:read scopes <span class="hint">(comma-separated paths, * for all; empty grants nothing)</span></label>
<input id="read" name="read" value="${esc(v.read)}">
<label for="write">memory:write scopes</label>
<input id="write" name="write" value="${esc(v.write)}">
<label for="forget">memory:forget scopes</label>
<input id="forget" name="forget" value="${esc(v.forget)}">
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
</form>
</main>
</body>
</html>`;
}
