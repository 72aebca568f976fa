import { openAsBlob } from 'node:fs';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { operationRequest } from '../api/catalogue';
import type { GeneratedTool } from './tools';
import type { UploadHandles } from './uploads';

/**
 * A tool call is a REST call: the arguments are put back where the operation takes them (path,
 * query, JSON body, or a multipart form when a file is passed as bytes), the caller's credential
 * goes in the Authorization header, and the API answers exactly as it answers any client (tenant
 * isolation, plan limits, rate limits). Its answer becomes the tool result; an error answer a tool
 * error carrying the status, `error_code` and message.
 */
export interface RestCallContext {
  /** The API's address, without `/api` (e.g. http://127.0.0.1:8787). */
  apiBaseUrl: string;
  /** The `svc` path segment (HERALD_NAMESPACE). */
  namespace: string;
  /** The header value to forward (`Apikey hk_…` or `Bearer hma_…`). */
  authorization: string;
  /** The account the credential authenticates as: upload handles are only usable by it. */
  accountId: string | null;
  uploads: UploadHandles | null;
  base64MaxBytes: number;
  /** Binary answers up to this size come back embedded; larger ones as a note. */
  inlineMaxBytes?: number;
  signal?: AbortSignal;
}

/** A tool argument the daemon cannot turn into a request: answered like the API's own 400. */
class ArgumentError extends Error {}

function toolError(status: number, body: Record<string, unknown>): CallToolResult {
  const code = typeof body.error_code === 'string' ? body.error_code : 'error';
  const message = typeof body.message === 'string' ? body.message : typeof body.error === 'string' ? body.error : 'The request failed.';
  return {
    isError: true,
    content: [{ type: 'text', text: `HTTP ${status} ${code}: ${message}\n${JSON.stringify(body)}` }],
    structuredContent: { status, ...body, error_code: code, message },
  };
}

type FileArg = string | { data?: string; filename?: string; content_type?: string; upload_id?: string };

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

async function fileBlob(ctx: RestCallContext, field: string, value: FileArg): Promise<{ blob: Blob; filename: string }> {
  if (typeof value !== 'object' || value === null) throw new ArgumentError(`${field}: a file is a URL, {data, filename, content_type} or {upload_id}.`);
  if (value.upload_id !== undefined) {
    const handle = ctx.uploads && ctx.accountId ? await ctx.uploads.find(String(value.upload_id), ctx.accountId) : null;
    if (!handle) throw new ArgumentError(`${field}: no upload "${String(value.upload_id)}" with bytes for this account (unknown, expired, not uploaded yet, or another account's).`);
    const blob = await openAsBlob(handle.path, { type: handle.contentType });
    return { blob, filename: handle.filename };
  }
  if (typeof value.data !== 'string' || !value.data) throw new ArgumentError(`${field}: give base64 \`data\` or an \`upload_id\`.`);
  const compact = value.data.replace(/\s+/g, '');
  if (!BASE64.test(compact)) throw new ArgumentError(`${field}.data is not base64.`);
  const bytes = Buffer.from(compact, compact.includes('-') || compact.includes('_') ? 'base64url' : 'base64');
  if (bytes.length > ctx.base64MaxBytes) {
    throw new ArgumentError(`${field}: ${bytes.length} bytes is over the ${ctx.base64MaxBytes}-byte limit for inline base64: pass a URL or create an upload handle (create_media_upload).`);
  }
  return { blob: new Blob([bytes], { type: value.content_type ?? 'application/octet-stream' }), filename: value.filename ?? field };
}

function appendField(form: FormData, name: string, value: unknown): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) {
    // Repeated form fields; `platform` goes as `platform[]`, as the forms in the spec send it.
    const wire = name.endsWith('[]') ? name : `${name}[]`;
    for (const item of value) form.append(wire, typeof item === 'object' ? JSON.stringify(item) : String(item));
    return;
  }
  form.append(name, typeof value === 'object' ? JSON.stringify(value) : String(value));
}

/**
 * The REST request a tool call stands for: tool argument names back to their wire names, then the
 * catalogue's `operationRequest` splits them into path, query, body and files; file values that
 * are bytes (base64 or an upload handle) make the body multipart, URLs stay body fields.
 */
async function buildRequest(generated: GeneratedTool, args: Record<string, unknown>, ctx: RestCallContext): Promise<{ url: string; init: RequestInit }> {
  const { operation: op, targets } = generated;
  const wireArgs: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) if (value !== undefined) wireArgs[targets[name]?.wire ?? name] = value;
  for (const name of Object.keys(op.params?.shape ?? {})) {
    if (wireArgs[name] === undefined || wireArgs[name] === '') throw new ArgumentError(`${name} is required.`);
  }
  const request = operationRequest(op, ctx.namespace, wireArgs);
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(request.query)) for (const item of Array.isArray(value) ? value : [value]) query.append(name, item);
  const body: Record<string, unknown> = { ...(request.body ?? {}) };
  const files: Array<{ wire: string; value: FileArg; multiple: boolean }> = [];
  for (const [wire, value] of Object.entries(request.files)) {
    const multiple = Boolean(op.files?.[wire]?.multiple);
    const urls: string[] = [];
    for (const item of (Array.isArray(value) ? value : [value]) as FileArg[]) {
      // A URL goes as the field itself where the operation takes one: the API downloads it (SSRF-checked).
      if (typeof item === 'string') {
        if (!op.body?.shape[wire]) throw new ArgumentError(`${wire}: this file cannot be given by URL: pass base64 \`data\` or an \`upload_id\`.`);
        urls.push(item);
      } else files.push({ wire, value: item, multiple });
    }
    if (urls.length) body[wire] = multiple ? urls : urls[0];
  }
  const url = `${ctx.apiBaseUrl}${request.path}${query.size ? `?${query}` : ''}`;
  const headers: Record<string, string> = { Authorization: ctx.authorization, Accept: 'application/json' };
  const signal = ctx.signal ? { signal: ctx.signal } : {};
  if (files.length) {
    const form = new FormData();
    for (const [name, value] of Object.entries(body)) appendField(form, name, value);
    for (const file of files) {
      const { blob, filename } = await fileBlob(ctx, file.wire, file.value);
      form.append(file.multiple && !file.wire.endsWith('[]') ? `${file.wire}[]` : file.wire, blob, filename);
    }
    return { url, init: { method: request.method, headers, body: form, ...signal } };
  }
  const hasBody = request.method !== 'GET' && request.body !== undefined;
  return {
    url,
    init: {
      method: request.method,
      headers: hasBody ? { ...headers, 'Content-Type': 'application/json' } : headers,
      ...(hasBody ? { body: JSON.stringify(body) } : {}),
      ...signal,
    },
  };
}

const RATE_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

/** Runs the tool call against the API and turns the answer into a tool result. */
export async function callOperation(generated: GeneratedTool, args: Record<string, unknown>, ctx: RestCallContext): Promise<CallToolResult> {
  let request: { url: string; init: RequestInit };
  try {
    request = await buildRequest(generated, args, ctx);
  } catch (err) {
    if (err instanceof ArgumentError) return toolError(400, { success: false, error_code: 'invalid_request', message: err.message });
    throw err;
  }
  let res: Response;
  try {
    res = await fetch(request.url, request.init);
  } catch (err) {
    return toolError(502, { success: false, error_code: 'api_unreachable', message: `The Herald API did not answer: ${(err as Error).message}` });
  }
  const rate = Object.fromEntries(RATE_HEADERS.map((h) => [h, res.headers.get(h)]).filter(([, v]) => v !== null));
  const meta = Object.keys(rate).length ? { _meta: { 'herald/rate_limit': rate } } : {};
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('json') || !res.ok) {
    const text = await res.text();
    let body: unknown;
    try { body = JSON.parse(text); } catch { body = { success: res.ok, message: text.slice(0, 2000) }; }
    if (!res.ok) return { ...toolError(res.status, (body && typeof body === 'object' ? body : { body }) as Record<string, unknown>), ...meta };
    return {
      content: [{ type: 'text', text: JSON.stringify(body) }],
      ...(body && typeof body === 'object' && !Array.isArray(body) ? { structuredContent: body as Record<string, unknown> } : {}),
      ...meta,
    };
  }
  // A binary answer (a media job's output): embedded when small, described otherwise.
  const size = Number(res.headers.get('content-length') ?? NaN);
  const limit = ctx.inlineMaxBytes ?? 5 * 1024 * 1024;
  if (Number.isFinite(size) && size > limit) {
    await res.body?.cancel();
    return { content: [{ type: 'text', text: `The answer is ${size} bytes of ${type}, over the ${limit}-byte inline limit: download it from ${request.url} with the same Authorization header.` }], ...meta };
  }
  const bytes = Buffer.from(await res.arrayBuffer());
  return {
    content: [{ type: 'resource', resource: { uri: request.url, mimeType: type || 'application/octet-stream', blob: bytes.toString('base64') } }],
    ...meta,
  };
}
