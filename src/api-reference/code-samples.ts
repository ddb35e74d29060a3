import { examplePath, FILE_BODIES } from './examples.ts';
import type { OperationView } from './operations.ts';
import { SDK_CALLS } from './sdk-calls.ts';

/** One tab of an operation's example: a label, the code and its highlighting language. */
export interface CodeSample {
  label: string;
  lang: string;
  code: string;
}

/** The example path of an operation: parameters and query from src/api-reference/examples.ts. */
export function concretePath(op: OperationView): string {
  const required = op.parameters.filter((p) => p.in === 'query' && p.required).map((p) => p.name);
  return examplePath(op.operationId, op.path, required);
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

export function curlSample(op: OperationView): string {
  const lines = [`curl -s -X ${op.method} "$BASE${concretePath(op)}"`];
  if (op.api === 'memory') lines.push(`-H "authorization: Bearer $KEY"`);
  const body = op.requestBody;
  const file = FILE_BODIES[op.operationId];
  if (file?.form) {
    lines.push(`-F 'file=@${file.file};type=${file.type}'`);
  } else if (file) {
    lines.push(`-H 'content-type: ${file.type}'`, `--data-binary @${file.file}`);
  } else if (body?.mediaType === 'application/json') {
    lines.push(`-H 'content-type: application/json'`, `-d ${shellQuote(body.example)}`);
  } else if (body) {
    lines.push(`-H 'content-type: ${body.mediaType}'`, `--data-binary @body`);
  }
  return lines.join(' \\\n  ');
}

const JS_CLIENT = `import { MemoryClient } from '@engram/memory';`;

/**
 * curl for every operation; the two SDKs for the memory API (the origin's documents are plain
 * GETs, so `fetch` and `httpx` stand in for them). Every value comes from examples.ts.
 */
export function codeSamples(op: OperationView): CodeSample[] {
  const samples: CodeSample[] = [{ label: 'curl', lang: 'sh', code: curlSample(op) }];
  if (op.api === 'memory') {
    const sdk = SDK_CALLS[op.operationId];
    if (!sdk)
      throw new Error(
        `No SDK call for ${op.operationId}: add it to src/api-reference/sdk-calls.ts`,
      );
    const jsImports = sdk.jsSetup?.startsWith('import ')
      ? `${JS_CLIENT}\n${sdk.jsSetup}`
      : `${JS_CLIENT}${sdk.jsSetup ? `\n\n${sdk.jsSetup}` : ''}`;
    samples.push(
      {
        label: 'TypeScript',
        lang: 'ts',
        code: `${jsImports}\n\nconst memory = new MemoryClient({\n  baseUrl: process.env.BASE ?? 'http://127.0.0.1:8787',\n  apiKey: process.env.KEY,\n  contextId: 'acme',\n});\n${sdk.jsCall}`,
      },
      {
        label: 'Python',
        lang: 'python',
        code: `import os\nfrom engram_memory import MemoryClient\n${sdk.pySetup ? `\n${sdk.pySetup}\n` : ''}\nmemory = MemoryClient(os.environ["BASE"], os.environ["KEY"], context_id="acme")\n${sdk.pyCall}`,
      },
    );
  } else {
    const path = concretePath(op);
    const json = op.responses[0]?.body?.mediaType.includes('json') ?? false;
    samples.push(
      {
        label: 'TypeScript',
        lang: 'ts',
        code: `const res = await fetch(\`\${process.env.BASE}${path}\`);\nconst body = await res.${json ? 'json' : 'text'}();`,
      },
      {
        label: 'Python',
        lang: 'python',
        code: `import os, httpx\n\nres = httpx.get(f"{os.environ['BASE']}${path}")\nbody = res.${json ? 'json()' : 'text'}`,
      },
    );
  }
  return samples;
}
