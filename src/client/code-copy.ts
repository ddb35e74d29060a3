/**
 * A copy button on every code block of the docs. Added here, in the browser, so the built HTML
 * (and the markdown twin converted from it) holds only the code.
 */
for (const pre of document.querySelectorAll<HTMLPreElement>('.docs-main pre, .prose pre')) {
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
