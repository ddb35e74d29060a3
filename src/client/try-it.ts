/**
 * The reference pages' "Try it" panel: builds the request from the form (path and query
 * parameters, JSON or file body), sends it with fetch and shows status, headers and body.
 * The base URL is remembered in localStorage, the key in sessionStorage (this tab only); the
 * key is sent in the Authorization header to the base URL and nowhere else.
 */
const BASE_KEY = 'engram:try-it:base';
const API_KEY = 'engram:try-it:key';

function requestUrl(form: HTMLFormElement, base: string): URL {
  const data = new FormData(form);
  const path = (form.dataset.path ?? '').replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(String(data.get(`path:${name}`) ?? '')),
  );
  const url = new URL(path, base);
  for (const [key, value] of data) {
    if (key.startsWith('query:') && typeof value === 'string' && value !== '') {
      url.searchParams.set(key.slice('query:'.length), value);
    }
  }
  return url;
}

function requestBody(form: HTMLFormElement, headers: Headers): BodyInit | undefined {
  const data = new FormData(form);
  if (form.dataset.body === 'json') {
    headers.set('content-type', 'application/json');
    return String(data.get('body') ?? '');
  }
  const file = data.get('file');
  if (form.dataset.body !== 'file' || !(file instanceof File) || file.size === 0) return undefined;
  if (form.dataset.multipart === 'true') {
    const multipart = new FormData();
    multipart.set('file', file);
    return multipart;
  }
  headers.set('content-type', form.dataset.fileType || file.type || 'application/octet-stream');
  return file;
}

function show(panel: HTMLElement, status: string, headers: string, body: string): void {
  const out = panel.querySelector<HTMLElement>('[data-try-response]');
  const statusLine = panel.querySelector<HTMLElement>('[data-try-status]');
  const headerBox = panel.querySelector<HTMLElement>('[data-try-headers]');
  const bodyBox = panel.querySelector<HTMLElement>('[data-try-body]');
  if (!out || !statusLine || !headerBox || !bodyBox) return;
  out.hidden = false;
  statusLine.textContent = status;
  headerBox.textContent = headers;
  bodyBox.textContent = body;
}

async function readBody(res: Response): Promise<string> {
  const text = await res.text();
  if (!(res.headers.get('content-type') ?? '').includes('json')) return text;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

for (const panel of document.querySelectorAll<HTMLElement>('[data-try-it]')) {
  const form = panel.querySelector('form');
  const base = panel.querySelector<HTMLInputElement>('[data-try-base]');
  const key = panel.querySelector<HTMLInputElement>('[data-try-key]');
  const shown = panel.querySelector<HTMLElement>('[data-try-url]');
  if (!form || !base) continue;
  base.value = localStorage.getItem(BASE_KEY) ?? window.location.origin;
  if (key) key.value = sessionStorage.getItem(API_KEY) ?? '';
  const preview = (): void => {
    try {
      if (shown) shown.textContent = requestUrl(form, base.value).href;
    } catch {
      if (shown) shown.textContent = form.dataset.path ?? '';
    }
  };
  form.addEventListener('input', preview);
  preview();

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    localStorage.setItem(BASE_KEY, base.value);
    if (key) sessionStorage.setItem(API_KEY, key.value);
    const headers = new Headers({ accept: 'application/json' });
    if (key?.value) headers.set('authorization', `Bearer ${key.value}`);
    let url: URL;
    try {
      url = requestUrl(form, base.value);
    } catch {
      show(panel, 'The base URL is not a valid URL.', '', '');
      return;
    }
    const method = form.dataset.method ?? 'GET';
    const body = method === 'GET' || method === 'HEAD' ? undefined : requestBody(form, headers);
    show(panel, 'Sending…', '', '');
    try {
      const res = await fetch(url, { method, headers, body });
      const lines = [...res.headers].map(([name, value]) => `${name}: ${value}`).join('\n');
      show(panel, `${res.status} ${res.statusText}`.trim(), lines, await readBody(res));
    } catch {
      // The CSP lets this page connect to its own origin only; any other host is refused here.
      show(
        panel,
        url.origin === window.location.origin
          ? 'The request failed: is the server running?'
          : `The request was not sent: this page may only connect to ${window.location.origin}. Use the curl example for other hosts.`,
        '',
        '',
      );
    }
  });
}
