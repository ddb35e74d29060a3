/**
 * The agent menu: "Copy page" fetches the page's markdown twin and puts it on the clipboard,
 * "Copy MCP server URL" copies the server's address; Esc or a click elsewhere closes the menu.
 */
for (const menu of document.querySelectorAll<HTMLElement>('[data-agent-menu]')) {
  const twin = menu.dataset.twin;
  const details = menu.querySelector('details');
  const summary = details?.querySelector('summary');
  const label = menu.querySelector<HTMLElement>('[data-copy-label]');
  const status = menu.querySelector<HTMLElement>('[data-copy-status]');
  const say = (text: string): void => {
    if (label) label.textContent = text;
    if (status) status.textContent = text;
  };
  const close = (): void => details?.removeAttribute('open');
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
      close();
      setTimeout(() => say('Copy page'), 2000);
    });
  }
  menu.querySelector('[data-copy-mcp]')?.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(menu.dataset.mcpUrl ?? '');
      if (status) status.textContent = 'MCP server URL copied';
    } catch {
      if (status) status.textContent = 'Copy failed';
    }
    close();
  });
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || !details?.open) return;
    close();
    summary?.focus();
  });
  document.addEventListener('click', (event) => {
    if (details?.open && event.target instanceof Node && !details.contains(event.target)) close();
  });
}
