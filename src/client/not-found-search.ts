/**
 * The 404 page's search box: filled with the words of the missing path, and answered by the
 * header's search dialog (the same index and ranking) rather than the raw JSON its form
 * action falls back to without script.
 */
const form = document.querySelector<HTMLFormElement>('[data-404-search]');
const input = form?.querySelector<HTMLInputElement>('input[name="q"]');

if (form && input) {
  input.value = (window.location.pathname.toLowerCase().match(/[a-z0-9]+/g) ?? [])
    .filter((w) => w !== 'md' && w !== 'html')
    .join(' ');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    document.dispatchEvent(new CustomEvent('engram:search', { detail: input.value }));
  });
}
