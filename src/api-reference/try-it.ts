import { FILE_BODIES, OPERATION_EXAMPLES, pathValue } from './examples.ts';
import type { OperationView } from './operations.ts';

/** One input of the try-it panel: a path or query parameter, filled with the example value. */
export interface TryField {
  /** `path:<name>` or `query:<name>`: how the browser script puts it into the request. */
  key: string;
  label: string;
  value: string;
  required: boolean;
  description: string;
}

export interface TryItView {
  fields: TryField[];
  /** `json` (a textarea with the example), `file` (a file input), or none. */
  body: 'json' | 'file' | 'none';
  bodyExample: string;
  /** For file bodies: the content type sent, and whether it goes as multipart `file`. */
  fileType: string;
  multipart: boolean;
  needsKey: boolean;
}

/**
 * The try-it panel of a reference page, built from the operation's schema: every path and query
 * parameter as an input, the body as JSON or a file, each filled from examples.ts, so the
 * request it sends is the one the curl example shows.
 */
export function tryItView(op: OperationView): TryItView {
  const example = OPERATION_EXAMPLES[op.operationId];
  const file = FILE_BODIES[op.operationId];
  const fields = op.parameters
    .filter((p) => p.in === 'path' || p.in === 'query')
    .map((p) => ({
      key: `${p.in}:${p.name}`,
      label: p.name,
      value:
        p.in === 'path'
          ? (example?.params?.[p.name] ?? pathValue(op.path, p.name))
          : String(example?.query?.[p.name] ?? ''),
      required: p.required,
      description: p.description,
    }));
  const json = op.requestBody?.mediaType === 'application/json' && !file;
  return {
    fields,
    body: file ? 'file' : json ? 'json' : op.requestBody ? 'file' : 'none',
    bodyExample: json ? (op.requestBody?.example ?? '') : '',
    fileType: file?.type ?? op.requestBody?.mediaType ?? '',
    multipart: file?.form ?? false,
    needsKey: op.api === 'memory',
  };
}
