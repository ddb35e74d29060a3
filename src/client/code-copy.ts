/**
 * A copy button on every code block of the docs. Added here, in the browser, so the built HTML
 * (and the markdown twin converted from it) holds only the code. After the first paint: wrapping
 * every block re-lays out the page, and the buttons are not needed to read it. The wrapper adds
 * no box of its own and the button is positioned over the block, so nothing moves.
 */
import { afterPaint } from './after-paint.ts';

function addCopyButton(pre: HTMLPreElement): void {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'code-copy';
  button.textContent = 'Copy';
  button.setAttribute('aria-label', 'Copy code');
  button.addEventListener('click', async () => {
    const code = pre.querySelector('code')?.innerText ?? pre.innerText;
    try {
      await navigator.clipboard.writeText(code.replace(/\n$/, ''));
      button.textContent = 'Copied';
    } catch {
      button.textContent = 'Failed';
    }
    setTimeout(() => (button.textContent = 'Copy'), 1500);
  });
  const wrapper = document.createElement('div');
  wrapper.className = 'code-frame';
  pre.replaceWith(wrapper);
  wrapper.append(pre, button);
}

afterPaint(() => {
  for (const pre of document.querySelectorAll<HTMLPreElement>('.docs-main pre, .prose pre')) {
    addCopyButton(pre);
  }
});
