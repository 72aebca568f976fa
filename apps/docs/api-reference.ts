import type { z } from 'zod';
import { OPERATIONS, documentPath, jsonSchemaOf, type Operation } from '../api/catalogue';
import { isToolOperation, toolNameOf } from '../mcp/tools';

/**
 * docs/api-reference.md, generated from the operation catalogue (apps/api/catalogue/): the same
 * declarations that mount the routes, validate requests, generate the OpenAPI document and the
 * MCP tools. Nothing here is written by hand but the page's frame.
 */

type Json = Record<string, unknown>;

/** Paths are shown in the default namespace (`HERALD_NAMESPACE`). */
const NAMESPACE = 'herald';

const AUTH: Record<Operation['auth'], string> = {
  apiKey: 'API key (`Authorization: Apikey <key>`, or an agent token `Bearer hma_…`)',
  connectToken: 'connect token (`Authorization: Bearer <token of the connect URL>`)',
  none: 'none',
};

/** The 401 and 429 every API-key operation answers (as the OpenAPI document adds them). */
const DEFAULT_ERRORS: Record<number, string> = {
  401: 'Missing or invalid API key (10 failures block the address for 5 minutes).',
  429: 'Rate limit of the key exceeded (`rate_limited`, Retry-After), or a quota.',
};

/** Table cells: one line, pipes escaped. */
const cell = (text: string): string => text.replace(/\r?\n+/g, ' ').replace(/\|/g, '\\|').trim();

function typeOf(schema: Json): string {
  if (Array.isArray(schema.enum)) return `one of ${(schema.enum as unknown[]).map((v) => `\`${String(v)}\``).join(', ')}`;
  if ('const' in schema) return `\`${JSON.stringify(schema.const)}\``;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options)) {
      const types = [...new Set((options as Json[]).filter((o) => o.type !== 'null' || options.length === 1).map(typeOf))];
      const nullable = (options as Json[]).some((o) => o.type === 'null');
      return `${types.join(' or ')}${nullable ? ' or null' : ''}`;
    }
  }
  const type = schema.type;
  if (Array.isArray(type)) return type.join(' or ');
  if (type === 'array') {
    const items = schema.items as Json | undefined;
    return items && Object.keys(items).length ? `array of ${typeOf(items)}` : 'array';
  }
  if (type === 'string' && typeof schema.format === 'string') return `string (${schema.format})`;
  if (type === 'object' || schema.additionalProperties !== undefined) return 'object';
  if (typeof type === 'string') return type;
  if (schema.contentMediaType) return 'file';
  return 'any';
}

function limitsOf(schema: Json): string {
  const parts: string[] = [];
  // zod's int() bounds every integer by the safe range: not a limit worth showing.
  const bound = (v: unknown): unknown => (typeof v === 'number' && Math.abs(v) >= Number.MAX_SAFE_INTEGER ? undefined : v);
  const range = (rawMin: unknown, rawMax: unknown, unit: string): void => {
    const min = bound(rawMin);
    const max = bound(rawMax);
    if (min !== undefined && max !== undefined) parts.push(`${String(min)}-${String(max)}${unit}`);
    else if (min !== undefined) parts.push(`≥ ${String(min)}${unit}`);
    else if (max !== undefined) parts.push(`≤ ${String(max)}${unit}`);
  };
  range(schema.minLength, schema.maxLength, ' characters');
  range(schema.minimum, schema.maximum, '');
  if (schema.exclusiveMinimum !== undefined) parts.push(`> ${String(schema.exclusiveMinimum)}`);
  if (schema.exclusiveMaximum !== undefined) parts.push(`< ${String(schema.exclusiveMaximum)}`);
  range(schema.minItems, schema.maxItems, ' items');
  if (typeof schema.pattern === 'string' && schema.format === undefined) parts.push(`pattern \`${schema.pattern}\``);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options)) for (const o of options as Json[]) { const l = limitsOf(o); if (l) parts.push(l); }
  }
  if (schema.type === 'array' && schema.items) { const l = limitsOf(schema.items as Json); if (l) parts.push(`each ${l}`); }
  return [...new Set(parts)].join('; ');
}

const isOptional = (schema: z.ZodType): boolean => schema.safeParse(undefined).success;

interface Field { name: string; where: string; type: string; required: boolean; default: string; limits: string; description: string }

function fieldsOf(op: Operation): Field[] {
  const out: Field[] = [];
  const parts = [['path', op.params], ['query', op.query], ['body', op.body]] as const;
  for (const [where, fields] of parts) {
    for (const [name, field] of Object.entries(fields?.shape ?? {})) {
      const schema = jsonSchemaOf(field as z.ZodType);
      const files = where === 'body' ? op.files?.[name] : undefined;
      out.push({
        name, where: files ? 'body or file' : where,
        type: files ? `file or ${typeOf(schema)}` : typeOf(schema),
        required: where === 'path' || !isOptional(field as z.ZodType),
        default: schema.default !== undefined ? `\`${JSON.stringify(schema.default)}\`` : '',
        limits: limitsOf(schema),
        description: typeof schema.description === 'string' ? schema.description : '',
      });
    }
  }
  const inBody = new Set(out.map((f) => f.name));
  for (const [name, part] of Object.entries(op.files ?? {})) {
    if (inBody.has(name)) continue;
    out.push({
      name, where: 'file', type: part.multiple ? 'files' : 'file', required: part.required === true, default: '',
      limits: part.contentTypes ? part.contentTypes.join(', ') : '', description: part.description,
    });
  }
  return out;
}

/** The networks' own fields start with the networks that take them (apps/api/catalogue/settings.ts). */
const NETWORK_FIELD = /^[a-z_]+(, [a-z_]+)*: /;

function fieldTable(fields: Field[]): string[] {
  const lines = ['| Field | In | Type | Required | Default | Limits | Description |', '|---|---|---|---|---|---|---|'];
  for (const f of fields) {
    lines.push(`| \`${cell(f.name)}\` | ${f.where} | ${cell(f.type)} | ${f.required ? 'yes' : 'no'} | ${cell(f.default)} | ${cell(f.limits)} | ${cell(f.description)} |`);
  }
  return lines;
}

function renderOperation(op: Operation): string[] {
  const path = documentPath(op, NAMESPACE);
  const lines = [`### ${op.id}`, '', `\`${op.method.toUpperCase()} ${path}\` — ${op.summary}`, ''];
  const meta = [`Auth: ${AUTH[op.auth]}.`];
  if (isToolOperation(op)) meta.push(`MCP tool: \`${toolNameOf(op)}\`.`);
  if (op.bodyTypes?.length) meta.push(`Body: ${op.bodyTypes.join(', ')}.`);
  lines.push(meta.join(' '), '', cell(op.description), '');
  const fields = fieldsOf(op);
  const own = fields.filter((f) => !NETWORK_FIELD.test(f.description));
  const networks = fields.filter((f) => NETWORK_FIELD.test(f.description));
  if (own.length) lines.push(...fieldTable(own), '');
  if (networks.length) {
    lines.push(`Network fields (${networks.length}; each names the networks that take it, checked against that network's descriptor):`, '', ...fieldTable(networks), '');
  }
  const responses = Object.entries(op.responses).filter(([, spec]) => spec);
  if (responses.length) {
    lines.push('| Answer | When |', '|---|---|');
    for (const [status, spec] of responses) lines.push(`| ${status} | ${cell(spec!.description)} |`);
    const errors: Record<string, string> = { ...(op.auth === 'apiKey' ? DEFAULT_ERRORS : {}), ...op.errors };
    for (const status of Object.keys(errors).sort()) lines.push(`| ${status} | ${cell(errors[status]!)} |`);
    lines.push('');
  }
  return lines;
}

const slug = (heading: string): string => heading.toLowerCase().replace(/[^a-z0-9 _-]/g, '').replace(/ /g, '-');

export function renderApiReference(operations: readonly Operation[] = OPERATIONS): string {
  const byTag = new Map<string, Operation[]>();
  for (const op of operations) {
    const tag = op.tags[0] ?? 'other';
    byTag.set(tag, [...(byTag.get(tag) ?? []), op]);
  }
  const lines = [
    '<!-- Generated by `npm run docs` from apps/api/catalogue/ (apps/docs/api-reference.ts): do not edit by hand. -->',
    '',
    '# API reference',
    '',
    `Every REST operation of the API, one section each, generated from the operation catalogue (\`apps/api/catalogue/\`), which also mounts the routes, validates requests, and generates \`GET /api/openapi.json\` and the MCP tools (${operations.length} operations). Paths are shown in the default namespace \`${NAMESPACE}\` (\`HERALD_NAMESPACE\`); \`/healthz\`, \`/readyz\` and \`/media/{id}\` are outside the catalogue (see [operating.md](operating.md)).`,
    '',
    'Conventions: success bodies carry `success: true`; every error body is `{success: false, message, error_code}` (plus `violations[]` naming each offending field); [error-codes.md](error-codes.md) lists every `error_code` with its status, meaning and fields. A field of a type the edge checks answers 400 `invalid_request` before the handler; fields marked in the catalogue as checked by the core are checked there, with the messages described. Unknown fields are never refused. Behaviour beyond the schemas: [publishing.md](publishing.md), [connecting-accounts.md](connecting-accounts.md), [engagement.md](engagement.md), [media-library.md](media-library.md), [analytics.md](analytics.md), [notifications.md](notifications.md).',
    '',
    '## Contents',
    '',
  ];
  for (const [tag, ops] of byTag) lines.push(`- ${tag}: ${ops.map((op) => `[${op.id}](#${slug(op.id)})`).join(', ')}`);
  lines.push('');
  for (const [tag, ops] of byTag) {
    lines.push(`## ${tag[0]!.toUpperCase()}${tag.slice(1)}`, '');
    for (const op of ops) lines.push(...renderOperation(op));
  }
  return `${lines.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}
