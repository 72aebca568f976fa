import { documentPath } from './mount';
import type { Operation } from './types';

/**
 * An operation's request from one flat argument object (the shape `operationInputSchema`
 * describes): path parameters filled in, query parameters, body fields and file parts apart.
 * For clients that take one object per call (the MCP daemon's tools).
 */
export interface OperationRequest {
  method: Uppercase<Operation['method']>;
  /** With the namespace and the path parameters filled in (encoded). */
  path: string;
  query: Record<string, string | string[]>;
  /** JSON body fields (undefined when the operation takes no body). */
  body?: Record<string, unknown>;
  /** Values given for file parts (a URL string, or `{filename, content_type, data}` base64 objects). */
  files: Record<string, unknown>;
}

export function operationRequest(op: Operation, ns: string, args: Record<string, unknown>): OperationRequest {
  const taken = new Set<string>();
  const path = documentPath(op, ns).replace(/\{([^}]+)\}/g, (_all, name: string) => {
    taken.add(name);
    return encodeURIComponent(String(args[name] ?? ''));
  });
  const query: Record<string, string | string[]> = {};
  for (const name of Object.keys(op.query?.shape ?? {})) {
    const value = args[name];
    taken.add(name);
    if (value === undefined || value === null) continue;
    query[name] = Array.isArray(value) ? value.map(String) : typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
  const files: Record<string, unknown> = {};
  for (const name of Object.keys(op.files ?? {})) {
    const value = args[name];
    // A URL goes in the body field of the same name when the operation takes one.
    if (value !== undefined && !(typeof value === 'string' && op.body?.shape[name])) {
      files[name] = value;
      taken.add(name);
    }
  }
  const rest = Object.fromEntries(Object.entries(args).filter(([name, value]) => !taken.has(name) && value !== undefined));
  return { method: op.method.toUpperCase() as OperationRequest['method'], path, query, ...(op.body || op.files ? { body: rest } : {}), files };
}
