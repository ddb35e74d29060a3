/** "Copy page": fetches the page's markdown twin and puts it on the clipboard. */
for (const menu of document.querySelectorAll<HTMLElement>('[data-agent-menu]')) {
  const twin = menu.dataset.twin;
  const label = menu.querySelector<HTMLElement>('[data-copy-label]');
  const status = menu.querySelector<HTMLElement>('[data-copy-status]');
  const say = (text: string): void => {
    if (label) label.textContent = text;
    if (status) status.textContent = text;
  };
  for (const button of menu.querySelectorAll<HTMLButtonElement>('[data-copy-page]')) {
    button.addEventListener('click', async () => {
      if (!twin) return;
      try {
        const res = await fetch(twin, { headers: { accept: 'text/markdown' } });
        if (!res.ok) throw new Error(`${twin} answered ${res.status}`);
        await navigator.clipboard.writeText(await res.text());
        say('Copied');
      } catch {
        say('Copy failed');
      }
      menu.querySelector('details')?.removeAttribute('open');
      setTimeout(() => say('Copy page'), 2000);
    });
  }
}
