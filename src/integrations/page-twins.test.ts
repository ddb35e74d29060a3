import { describe, expect, it } from 'vitest';
import { authoredBody, checkTwin } from './page-twins.ts';
import type { SitePage } from './site-pages.ts';

const page = { path: '/docs/x', twin: '/docs/x.md' } as SitePage;

describe('authoredBody', () => {
  it('removes the frontmatter and the blank lines after it, keeping the rest byte for byte', () => {
    expect(authoredBody('---\ntitle: A\ntags: [x]\n---\n\n# A\n\nBody  \n')).toBe(
      '# A\n\nBody  \n',
    );
  });
  it('handles CRLF files', () => {
    expect(authoredBody('---\r\ntitle: A\r\n---\r\n# A\r\n')).toBe('# A\r\n');
  });
  it('leaves a file without frontmatter as it is', () => {
    expect(authoredBody('# A\n')).toBe('# A\n');
  });
});

describe('checkTwin', () => {
  it('accepts a twin opening with a level-one heading', () => {
    expect(() => checkTwin(page, '# Title\n')).not.toThrow();
  });
  it.each(['## Title\n', 'Intro\n\n# Title\n', '#Title\n', ''])(
    'fails %j naming the page and the twin',
    (md) => {
      expect(() => checkTwin(page, md)).toThrow(
        /Twin \/docs\/x\.md of page \/docs\/x must begin with a level-one heading/,
      );
    },
  );
});
