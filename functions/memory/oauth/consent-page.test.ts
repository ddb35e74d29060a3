import { describe, expect, it } from 'vitest';
import { renderConsentPage } from './consent-page.ts';

const values = { context_id: '', read: '*', write: '', forget: '' };

describe('consent page', () => {
  it('escapes everything the client chose (name, redirect host, scopes)', () => {
    const html = renderConsentPage({
      handle: 'h"1',
      description: {
        clientId: 'c1',
        clientName: '<script>alert(1)</script>',
        redirectUri: 'http://127.0.0.1:9/cb',
        redirectHost: '127.0.0.1',
        redirectIsLoopback: true,
        scope: ['memory:read', '"><img>'],
      },
      error: null,
      values,
    });
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('"><img>');
    expect(html).toContain('value="h&quot;1"');
    expect(html).toContain('any local program could be listening');
  });

  it('shows a rejected form again with its error and the values entered', () => {
    const html = renderConsentPage({
      handle: 'h2',
      description: null,
      error: 'scope "team:z" is outside this key\'s memory:read grant',
      values: { ...values, context_id: 'ctx<1>', read: 'team:z' },
    });
    expect(html).toContain('role="alert"');
    expect(html).toContain('value="ctx&lt;1&gt;"');
    expect(html).toContain('value="team:z"');
    expect(html).toContain('type="password"');
  });
});
