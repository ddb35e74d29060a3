import type { ShikiTransformer } from 'shiki';

/**
 * A code fence's title: ```ts title="client.ts" puts `data-title` on the `<pre>`, which the docs
 * stylesheet shows as a caption. An attribute, not an element, so the markdown twin keeps the
 * fence as authored.
 */
export function codeTitle(): ShikiTransformer {
  return {
    name: 'engram:code-title',
    pre(node) {
      const raw = this.options.meta?.__raw ?? '';
      const title = /title=(?:"([^"]*)"|'([^']*)')/.exec(raw);
      const text = title?.[1] ?? title?.[2];
      if (text) node.properties['data-title'] = text;
    },
  };
}
