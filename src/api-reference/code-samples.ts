import type { OperationView } from './operations.ts';
import { SDK_CALLS } from './sdk-calls.ts';

/** One tab of an operation's example: a label, the code and its highlighting language. */
export interface CodeSample {
  label: string;
  lang: string;
  code: string;
}

/** Path parameters filled with the values the guides use, so samples read like the quickstart. */
const PATH_VALUES: Record<string, string> = {
  context_id: 'acme',
  id: 'acme',
  session_id: 'session_…',
  page: 'pricing',
  section: 'docs',
  subsection: 'api',
  subsubsection: 'facts',
};

function concretePath(op: OperationView): string {
  const filled = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => PATH_VALUES[name] ?? name);
  const query = op.parameters
    .filter((p) => p.in === 'query' && p.required)
    .map((p) => `${p.name}=…`)
    .join('&');
  return query ? `${filled}?${query}` : filled;
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

export function curlSample(op: OperationView): string {
  const lines = [`curl -s -X ${op.method} "$BASE${concretePath(op)}"`];
  if (op.api === 'memory') lines.push(`-H "authorization: Bearer $KEY"`);
  const body = op.requestBody;
  if (body?.mediaType === 'application/json') {
    lines.push(`-H 'content-type: application/json'`, `-d ${shellQuote(body.example)}`);
  } else if (body?.mediaType === 'multipart/form-data') {
    lines.push(`-F file=@handbook.pdf`);
  } else if (body) {
    lines.push(`-H 'content-type: ${body.mediaType}'`, `--data-binary @body`);
  }
  return lines.join(' \\\n  ');
}

/**
 * curl for every operation; the two SDKs for the memory API (the origin's documents are plain
 * GETs, so `fetch` and `httpx` stand in for them).
 */
export function codeSamples(op: OperationView): CodeSample[] {
  const samples: CodeSample[] = [{ label: 'curl', lang: 'sh', code: curlSample(op) }];
  if (op.api === 'memory') {
    const sdk = SDK_CALLS[op.operationId];
    if (!sdk)
      throw new Error(
        `No SDK call for ${op.operationId}: add it to src/api-reference/sdk-calls.ts`,
      );
    samples.push(
      {
        label: 'TypeScript',
        lang: 'ts',
        code: `import { MemoryClient } from '@engram/memory';\n\nconst memory = new MemoryClient({\n  baseUrl: process.env.BASE ?? 'http://127.0.0.1:8787',\n  apiKey: process.env.KEY,\n  contextId: 'acme',\n});\n${sdk.jsCall}`,
      },
      {
        label: 'Python',
        lang: 'python',
        code: `import os\nfrom engram_memory import MemoryClient\n\nmemory = MemoryClient(os.environ["BASE"], os.environ["KEY"], context_id="acme")\n${sdk.pyCall}`,
      },
    );
  } else {
    const path = concretePath(op);
    samples.push(
      {
        label: 'TypeScript',
        lang: 'ts',
        code: `const res = await fetch(\`\${process.env.BASE}${path}\`);\nconst body = await res.${op.responses[0]?.body?.mediaType.includes('json') ? 'json' : 'text'}();`,
      },
      {
        label: 'Python',
        lang: 'python',
        code: `import os, httpx\n\nres = httpx.get(f"{os.environ['BASE']}${path}")\nbody = res.${op.responses[0]?.body?.mediaType.includes('json') ? 'json()' : 'text'}`,
      },
    );
  }
  return samples;
}
