/**
 * A Context for the console's browser tests, written through the public API as any client would:
 * two teams' facts (one with a second version, so it has history), a session and a document per
 * team, and an agent key that may read, write and forget `team:eng` only.
 */
export interface ConsoleSeed {
  contextId: string;
  /** The agent key scoped to `team:eng`. */
  engKey: string;
  /** The current version of Alice's fact, and the one it replaced. */
  aliceId: string;
  aliceOldId: string;
  /** Words that appear only in `team:sales` memory: none may show up for the eng key. */
  salesWords: string[];
}

/** One call of the public API as `key`; the parsed JSON answer (null when empty). */
export async function send(
  base: string,
  key: string,
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/json',
): Promise<unknown> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': contentType },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text === '' ? null : JSON.parse(text);
}

interface Written {
  facts: { id: string }[];
}

export async function seedConsole(
  base: string,
  rootKey: string,
  contextId: string,
): Promise<ConsoleSeed> {
  const ctx = `/api/v1/${contextId}`;
  await send(base, rootKey, 'POST', '/api/v1/contexts', { id: contextId });
  const fact = async (content: string, scope: string) =>
    ((await send(base, rootKey, 'POST', `${ctx}/facts`, { content, scopes: [scope] })) as Written)
      .facts[0]?.id ?? '';
  const aliceOldId = await fact('Alice leads the Platform team in Berlin', 'team:eng');
  await fact('Bob deploys the Platform services every Friday', 'team:eng');
  await fact('The Platform team keeps billing data in Postgres', 'team:eng');
  await fact('Carol closed the Initech deal in Paris for the Sales team', 'team:sales');
  await fact('Initech renews its Zanzibar contract every January', 'team:sales');
  // A second version of Alice's fact: PATCH supersedes the first, which stays as history.
  const edited = (await send(base, rootKey, 'PATCH', `${ctx}/facts/${aliceOldId}`, {
    content: 'Alice leads the Platform team in Munich',
  })) as { fact: { id: string } };
  const aliceId = edited.fact.id;
  for (const [id, scope, line] of [
    ['standup-eng', 'team:eng', 'Bob: the Friday deploy of the Platform services went fine'],
    ['call-sales', 'team:sales', 'Carol: Initech wants the Zanzibar discount again'],
  ] as const) {
    await send(base, rootKey, 'POST', `${ctx}/sessions`, { id, scopes: [scope] });
    await send(base, rootKey, 'POST', `${ctx}/sessions/${id}/turns`, {
      role: 'user',
      content: line,
    });
  }
  await send(
    base,
    rootKey,
    'POST',
    `${ctx}/documents?scopes=team:sales&filename=initech-terms.txt`,
    'Initech terms: the Zanzibar discount applies to renewals signed in January.',
    'text/plain',
  );
  const principal = (await send(base, rootKey, 'POST', '/api/v1/principals', {
    kind: 'agent',
    display_name: `${contextId}-eng-bot`,
  })) as { id: string };
  const grant = ['team:eng'];
  const key = (await send(base, rootKey, 'POST', '/api/v1/keys', {
    principal_id: principal.id,
    context_id: contextId,
    grants: { 'memory:read': grant, 'memory:write': grant, 'memory:forget': grant },
  })) as { key: string };
  return {
    contextId,
    engKey: key.key,
    aliceId,
    aliceOldId,
    salesWords: ['Initech', 'Carol', 'Zanzibar', 'call-sales'],
  };
}

/** Waits (up to a minute) until the Context's documents are processed, so their chunks exist. */
export async function documentsReady(base: string, key: string, contextId: string): Promise<void> {
  // A document is processed by a queue job after the upload has been answered.
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const res = await fetch(`${base}/api/v1/${contextId}/documents`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const body = (await res.json()) as { documents: { status: string }[] };
    if (body.documents.every((d) => d.status === 'ready' || d.status === 'failed')) return;
    await new Promise((r) => setTimeout(r, 500));
  }
}
