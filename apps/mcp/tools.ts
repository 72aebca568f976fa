import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { operationInputSchema, type Operation } from '../api/catalogue';

/**
 * MCP tools generated from the operation catalogue (apps/api/catalogue): one tool per REST
 * operation that takes the caller's credential, its input schema the catalogue's
 * `operationInputSchema` (path, query and body fields side by side), its description the
 * catalogue's agent-oriented one. Two things are the daemon's own: argument names a host would
 * refuse (`platform[]`) get a safe name, and file arguments also take an upload handle (which
 * only this daemon has). Nothing is declared per operation: a new catalogue entry is a new tool.
 */

/** The wire name of a tool argument (its name in the catalogue) and whether it is a file part. */
export interface ArgumentTarget {
  wire: string;
  file?: boolean;
}

export interface GeneratedTool {
  tool: Tool;
  operation: Operation;
  /** Tool argument name → where it goes. */
  targets: Record<string, ArgumentTarget>;
}

/** Property names MCP hosts accept (several reject anything else, such as `platform[]`). */
const SAFE_NAME = /^[a-zA-Z0-9_.-]{1,64}$/;

/** `platform[]` → `platform`; anything else outside the safe set → `_`. */
export function toolArgumentName(wire: string): string {
  if (SAFE_NAME.test(wire)) return wire;
  return wire.replace(/\[\]$/, '').replace(/[^a-zA-Z0-9_.-]/g, '_').slice(0, 64) || 'field';
}

/** `createProfile` → `create_profile`. */
export function toolNameOf(op: Pick<Operation, 'id' | 'mcp'>): string {
  // `OAuth` is one word (startOAuth → start_oauth), as are runs of capitals (getURLInfo → get_url_info).
  return op.mcp?.name ?? op.id.replace(/OAuth/g, 'Oauth').replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2').toLowerCase();
}

/** Operations an agent can call with its credential (API key or access token). */
export function isToolOperation(op: Operation): boolean {
  return op.auth === 'apiKey' && !op.mcp?.exclude;
}

type JsonSchema = Record<string, unknown> & { properties?: Record<string, JsonSchema>; required?: string[] };

/** A file handed to a tool: inline base64 (small files) or an upload handle (apps/mcp/uploads.ts). */
const FILE_OBJECT: JsonSchema = {
  type: 'object',
  description: 'A file: either `data` (base64, small files only) with `filename` and `content_type`, or `upload_id` from an upload handle (large files: PUT the bytes to the handle\'s upload_url first).',
  properties: {
    data: { type: 'string', contentEncoding: 'base64', description: 'The file\'s bytes, base64-encoded.' },
    filename: { type: 'string', description: 'File name with its extension (e.g. clip.mp4).' },
    content_type: { type: 'string', description: 'MIME type (e.g. video/mp4, image/jpeg).' },
    upload_id: { type: 'string', description: 'An upload handle id (create_media_upload).' },
  },
  additionalProperties: false,
};

function fileSchema(op: Operation, name: string, file: NonNullable<Operation['files']>[string]): JsonSchema {
  const ways = op.mcp?.files?.[name] ?? ['base64'];
  const one: JsonSchema = ways.includes('url')
    ? { anyOf: [{ type: 'string', format: 'uri', description: 'A public http(s) URL Herald downloads the file from.' }, FILE_OBJECT] }
    : FILE_OBJECT;
  const how = ways.includes('url') ? 'Pass a public URL, base64 `data` (small files) or an `upload_id`.' : 'Pass base64 `data` (small files) or an `upload_id`.';
  return file.multiple
    ? { type: 'array', items: one, description: `${file.description} ${how}` }
    : { ...one, description: `${file.description} ${how}` };
}

function describe(op: Operation, path: string): string {
  return `${op.description}\n\nREST: ${op.method.toUpperCase()} ${path}. A failed call comes back as a tool error carrying the REST status, \`error_code\` and message.`;
}

/** One operation as a tool; `path` is the operation's path with the configured namespace. */
export function generateTool(op: Operation, path: string): GeneratedTool {
  const base = operationInputSchema(op) as JsonSchema;
  const properties: Record<string, JsonSchema> = {};
  const targets: Record<string, ArgumentTarget> = {};
  for (const [wire, prop] of Object.entries(base.properties ?? {})) {
    const name = toolArgumentName(wire);
    // Two wire names that make one tool name: the first keeps it (path parameters come first).
    if (targets[name]) continue;
    const file = op.files?.[wire];
    targets[name] = file ? { wire, file: true } : { wire };
    properties[name] = file ? fileSchema(op, wire, file) : prop;
  }
  const required = [
    ...(base.required ?? []).map(toolArgumentName),
    ...Object.entries(op.files ?? {}).filter(([, f]) => f.required).map(([wire]) => toolArgumentName(wire)),
  ].filter((name) => properties[name]);
  const readOnly = op.mcp?.readOnly ?? op.method === 'get';
  const tool: Tool = {
    name: toolNameOf(op),
    title: op.summary,
    description: describe(op, path),
    inputSchema: { type: 'object', properties, ...(required.length ? { required: [...new Set(required)] } : {}) } as Tool['inputSchema'],
    annotations: {
      title: op.summary,
      readOnlyHint: readOnly,
      destructiveHint: !readOnly && (op.mcp?.destructive ?? op.method === 'delete'),
      idempotentHint: readOnly || op.method === 'put' || op.method === 'delete',
      // Publishing, connecting and media fetches reach the social networks.
      openWorldHint: true,
    },
  };
  return { tool, operation: op, targets };
}
