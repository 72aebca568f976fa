import { z } from 'zod';
import { errorCodeRows } from '../../../core/domain/error-codes';
import { ErrorBody } from './common';
import { documentPath } from './mount';
import type { ErrorStatus, Operation } from './types';

/** The OpenAPI 3.1 document, generated from the catalogue (nothing in it is written by hand). */

type Json = Record<string, unknown>;

const API_VERSION = '1.0.0';

/** A zod schema as a JSON Schema 2020-12 object (OpenAPI 3.1's dialect), as a request is sent (`io: input`). */
export function jsonSchemaOf(schema: z.ZodType): Json {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  return rest;
}

function isOptional(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success;
}

function parameters(op: Operation): Json[] {
  const out: Json[] = [];
  for (const [where, fields] of [['path', op.params], ['query', op.query]] as const) {
    for (const [name, field] of Object.entries(fields?.shape ?? {})) {
      const schema = jsonSchemaOf(field as z.ZodType);
      const description = typeof schema.description === 'string' ? schema.description : undefined;
      out.push({ name, in: where, required: where === 'path' || !isOptional(field as z.ZodType), ...(description ? { description } : {}), schema });
    }
  }
  return out;
}

const BINARY = { type: 'string', contentMediaType: 'application/octet-stream' };

function requestBody(op: Operation): Json | undefined {
  if (!op.body && !op.files) return undefined;
  const body = op.body ? jsonSchemaOf(op.body) : { type: 'object', properties: {} };
  const types = op.bodyTypes ?? (op.files ? ['multipart'] : ['json']);
  const content: Json = {};
  for (const type of types) {
    if (type === 'json') content['application/json'] = { schema: body };
    if (type === 'form') content['application/x-www-form-urlencoded'] = { schema: body };
    if (type === 'multipart') {
      const files = Object.fromEntries(Object.entries(op.files ?? {}).map(([name, part]) => [name, {
        description: part.description,
        ...(part.multiple ? { type: 'array', items: BINARY } : BINARY),
      }]));
      // A multipart field is a file part or a text part (a URL in place of the file): both are documented.
      const properties = { ...(body.properties as Json | undefined) };
      for (const [name, file] of Object.entries(files)) properties[name] = name in properties ? { anyOf: [file, properties[name]] } : file;
      content['multipart/form-data'] = {
        schema: { ...body, properties },
        ...(Object.keys(files).length ? { encoding: Object.fromEntries(Object.entries(op.files ?? {}).filter(([, p]) => p.contentTypes).map(([n, p]) => [n, { contentType: p.contentTypes!.join(', ') }])) } : {}),
      };
    }
  }
  const required = Array.isArray(body.required) && body.required.length > 0;
  return { required, content };
}

const DEFAULT_ERRORS: Partial<Record<ErrorStatus, string>> = {
  401: 'Missing or invalid API key (10 failures block the address for 5 minutes).',
  429: 'Rate limit of the key exceeded (`rate_limited`, Retry-After), or a quota.',
};

function responses(op: Operation): Json {
  const out: Json = {};
  for (const [status, spec] of Object.entries(op.responses)) {
    if (!spec) continue;
    const type = spec.contentType ?? 'application/json';
    out[status] = {
      description: spec.description,
      ...(spec.headers ? { headers: Object.fromEntries(Object.entries(spec.headers).map(([h, d]) => [h, { description: d, schema: { type: 'string' } }])) } : {}),
      ...(spec.schema ? { content: { [type]: { schema: jsonSchemaOf(spec.schema) } } } : spec.contentType ? { content: { [type]: { schema: type.startsWith('text/') ? { type: 'string' } : BINARY } } } : {}),
    };
  }
  const errors = { ...(op.auth === 'apiKey' ? DEFAULT_ERRORS : {}), ...op.errors };
  for (const [status, description] of Object.entries(errors)) {
    out[status] = { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  }
  return out;
}

const SECURITY: Record<Operation['auth'], Json[]> = {
  apiKey: [{ apiKey: [] }, { agentToken: [] }],
  connectToken: [{ connectToken: [] }],
  none: [],
};

export interface DocumentOptions {
  namespace: string;
  /** Herald's public address (the document's server). */
  publicBaseUrl?: string;
}

export function openApiDocument(operations: readonly Operation[], options: DocumentOptions): Json {
  const paths: Record<string, Json> = {};
  const tags = new Set<string>();
  for (const op of operations) {
    const path = documentPath(op, options.namespace);
    op.tags.forEach((t) => tags.add(t));
    const params = parameters(op);
    const body = requestBody(op);
    (paths[path] ??= {})[op.method] = {
      operationId: op.id,
      tags: op.tags,
      summary: op.summary,
      description: op.description,
      security: SECURITY[op.auth],
      ...(params.length ? { parameters: params } : {}),
      ...(body ? { requestBody: body } : {}),
      responses: responses(op),
      ...(op.mcp ? { 'x-mcp': op.mcp } : {}),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Herald API',
      version: API_VERSION,
      description: 'One HTTP API that publishes video, photo and text posts to many social networks; schedules and queues posts; manages profiles and their connected accounts; sends webhook notifications; runs media-processing jobs. Every call carries `Authorization: Apikey <API_KEY>` (or an agent access token from the MCP server’s OAuth flow, `Bearer hma_…`) unless stated. Success bodies carry `success: true`, errors `success: false` with `message` and `error_code`.',
    },
    ...(options.publicBaseUrl ? { servers: [{ url: options.publicBaseUrl }] } : {}),
    tags: [...tags].map((name) => ({ name })),
    paths,
    // The error-code registry: every error_code with the statuses of the answers carrying it, its meaning and extra body fields.
    'x-error-codes': errorCodeRows().map((r) => ({ code: r.code, status: [...r.status], meaning: r.meaning, ...(r.fields.length ? { fields: [...r.fields] } : {}), ...(r.network ? { network: true } : {}) })),
    components: {
      schemas: { Error: jsonSchemaOf(ErrorBody) },
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'The header value is `Apikey <API_KEY>`.' },
        agentToken: { type: 'http', scheme: 'bearer', description: 'An access token issued by the MCP server’s OAuth 2.1 flow (`Bearer hma_…`), acting as the API key it was granted with; `herald:read` tokens may only read.' },
        connectToken: { type: 'http', scheme: 'bearer', description: 'The token inside a connect URL (generateConnectLink), for validateConnectToken only.' },
      },
    },
  };
}

/**
 * One JSON Schema object for an operation's whole input (path, query and body fields side by
 * side; file parts as `{filename, content_type, data}` base64 objects or URLs as the `mcp` hints
 * say), for tools that take one argument object (the MCP daemon).
 */
export function operationInputSchema(op: Operation): Json {
  const properties: Json = {};
  const required = new Set<string>();
  for (const part of [op.params, op.query, op.body]) {
    if (!part) continue;
    const schema = jsonSchemaOf(part);
    Object.assign(properties, schema.properties as Json | undefined);
    for (const r of (schema.required as string[] | undefined) ?? []) required.add(r);
  }
  for (const r of Object.keys(op.params?.shape ?? {})) required.add(r);
  for (const [name, part] of Object.entries(op.files ?? {})) {
    const ways = op.mcp?.files?.[name] ?? ['base64'];
    const base64 = { type: 'object', description: `${part.description} (file content, base64)`, properties: { filename: { type: 'string' }, content_type: { type: 'string' }, data: { type: 'string', contentEncoding: 'base64' } }, required: ['data'] };
    const one = ways.includes('url') && properties[name] ? { anyOf: [properties[name] as Json, base64] } : base64;
    properties[name] = part.multiple ? { anyOf: [{ type: 'array', items: one }, one] } : one;
  }
  return { type: 'object', properties, ...(required.size ? { required: [...required] } : {}) };
}
