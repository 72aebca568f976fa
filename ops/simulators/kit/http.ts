/**
 * Small node:http toolkit shared by the network simulators: a loopback server, body parsing with a
 * size cap, request recording, and the generic `/__sim/*` control surface (failure queue, latency,
 * state, reset) that every simulator exposes both over HTTP and as methods.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';

export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** Parsed body: JSON value, urlencoded fields, multipart {fields, files}, or undefined. */
  body: unknown;
  at: Date;
}

export interface MultipartPart {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

export type ParsedBody =
  | { kind: 'empty' }
  | { kind: 'json'; value: unknown }
  | { kind: 'form'; fields: Record<string, string> }
  | { kind: 'multipart'; fields: Record<string, string>; files: MultipartPart[] }
  | { kind: 'invalid'; reason: string }
  | { kind: 'too_large' }
  | { kind: 'unsupported'; contentType: string }
  /** Any other content type (video chunks, image bytes): the raw bytes, for uploads. */
  | { kind: 'binary'; contentType: string; data: Buffer };

export interface SimRequest {
  method: string;
  url: URL;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: ParsedBody;
}

export interface SimulatorHostOptions<Mode extends string> {
  port?: number;
  /** Body cap; larger bodies reach the handler as `{kind:'too_large'}`. Default 8 MiB. */
  maxBodyBytes?: number;
  failureModes: readonly Mode[];
  /** Network-specific part of `GET /__sim/state`. */
  state(): Record<string, unknown>;
  /** Network-specific part of a reset (stored messages); fixtures stay. */
  reset(): void;
  /**
   * Network-specific control routes, `POST /__sim/<name>` with a JSON body: the answer is the
   * state, or 400 with the message when the handler throws.
   */
  controls?: Record<string, (body: Record<string, unknown>) => void>;
  /**
   * Answers one API request. Called after the latency wait, only if the client is still connected;
   * `failure` is the queued failure mode for this request, if any.
   */
  handle(req: SimRequest, res: ServerResponse, failure: Mode | undefined): void;
}

export interface SimulatorHost<Mode extends string> {
  port: number;
  /** `http://127.0.0.1:PORT` */
  origin: string;
  /** API requests received (control requests excluded), oldest first, capped to the last 1000. */
  readonly requests: RecordedRequest[];
  fail(mode: Mode, times?: number): void;
  setLatency(ms: number): void;
  state(): Record<string, unknown>;
  /** Clears queued failures, latency, recorded requests and the network's stored messages. */
  reset(): void;
  close(): Promise<void>;
}

const MAX_RECORDED = 1000;

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendText(res: ServerResponse, status: number, text: string, contentType = 'text/plain'): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export function sendEmpty(res: ServerResponse, status: number): void {
  res.writeHead(status);
  res.end();
}

/**
 * Deterministic bytes for fixture ids and tokens: the same seed gives the same sequence, so a
 * simulator restarted with the same seed and the same seeding calls hands out the same credentials.
 */
export function createSeededSource(seed: string = randomBytes(16).toString('hex')): (kind: string) => Buffer {
  const counters = new Map<string, number>();
  return (kind) => {
    const n = (counters.get(kind) ?? 0) + 1;
    counters.set(kind, n);
    return createHash('sha512').update(`${seed}:${kind}:${n}`).digest();
  };
}

/** Parses a multipart/form-data body; undefined when malformed. */
export function parseMultipart(buf: Buffer, boundary: string): MultipartPart[] | undefined {
  const delimiter = Buffer.from(`--${boundary}`);
  const nextDelimiter = Buffer.from(`\r\n--${boundary}`);
  const parts: MultipartPart[] = [];
  let pos = buf.indexOf(delimiter);
  if (pos < 0) return undefined;
  for (;;) {
    pos += delimiter.length;
    const after = buf.subarray(pos, pos + 2).toString('latin1');
    if (after === '--') return parts;
    if (after !== '\r\n') return undefined;
    pos += 2;
    const headerEnd = buf.indexOf('\r\n\r\n', pos);
    if (headerEnd < 0) return undefined;
    const dataEnd = buf.indexOf(nextDelimiter, headerEnd + 4);
    if (dataEnd < 0) return undefined;
    const headers = buf.subarray(pos, headerEnd).toString('utf8');
    const disposition = /^content-disposition:(.*)$/im.exec(headers)?.[1] ?? '';
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    if (name === undefined) return undefined;
    const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
    const contentType = /^content-type:\s*(.*)$/im.exec(headers)?.[1]?.trim();
    parts.push({ name, filename, contentType, data: buf.subarray(headerEnd + 4, dataEnd) });
    pos = dataEnd + 2;
  }
}

export function parseBody(contentTypeHeader: string | undefined, buf: Buffer): ParsedBody {
  if (buf.length === 0) return { kind: 'empty' };
  const contentType = (contentTypeHeader ?? '').toLowerCase();
  const mime = contentType.split(';')[0]!.trim();
  if (mime === 'application/json') {
    try {
      return { kind: 'json', value: JSON.parse(buf.toString('utf8')) };
    } catch {
      return { kind: 'invalid', reason: 'invalid JSON' };
    }
  }
  if (mime === 'application/x-www-form-urlencoded') {
    return { kind: 'form', fields: Object.fromEntries(new URLSearchParams(buf.toString('utf8'))) };
  }
  if (mime === 'multipart/form-data') {
    const boundary = /boundary="?([^";]+)"?/i.exec(contentTypeHeader ?? '')?.[1];
    const parts = boundary ? parseMultipart(buf, boundary) : undefined;
    if (!parts) return { kind: 'invalid', reason: 'malformed multipart body' };
    const fields: Record<string, string> = {};
    const files: MultipartPart[] = [];
    for (const part of parts) {
      if (part.filename !== undefined) files.push(part);
      else fields[part.name] = part.data.toString('utf8');
    }
    return { kind: 'multipart', fields, files };
  }
  // Media uploads (PUT/POST of bytes) carry their own or no content type: hand over the bytes.
  if (mime === '' || mime.startsWith('video/') || mime.startsWith('image/') || mime.startsWith('audio/') || mime === 'application/octet-stream') {
    return { kind: 'binary', contentType: mime, data: buf };
  }
  return { kind: 'unsupported', contentType: mime };
}

function recordedBody(body: ParsedBody): unknown {
  switch (body.kind) {
    case 'json': return body.value;
    case 'form': return body.fields;
    case 'multipart':
      return { fields: body.fields, files: body.files.map((f) => ({ name: f.name, filename: f.filename, size: f.data.length })) };
    case 'binary': return { contentType: body.contentType, size: body.data.length };
    default: return undefined;
  }
}

/** Resolves true after `ms`, or false as soon as the client's connection closes. */
function waitWhileConnected(ms: number, res: ServerResponse): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false);
  if (ms <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onClose = () => { clearTimeout(timer); resolve(false); };
    const timer = setTimeout(() => { res.off('close', onClose); resolve(!res.destroyed); }, ms);
    res.once('close', onClose);
  });
}

async function readJsonControl(req: import('node:http').IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const parsed = parseBody(req.headers['content-type'] ?? 'application/json', Buffer.concat(chunks));
  if (parsed.kind === 'json' && parsed.value && typeof parsed.value === 'object') return parsed.value as Record<string, unknown>;
  if (parsed.kind === 'form') return parsed.fields;
  return {};
}

/**
 * Starts a loopback server. Every API request is recorded, then waits for the configured latency
 * *before* the handler runs: if the client hangs up during that wait the request is dropped and
 * nothing is stored, like a request that never reached the network's processing.
 */
export async function startSimulatorHost<Mode extends string>(opts: SimulatorHostOptions<Mode>): Promise<SimulatorHost<Mode>> {
  const maxBodyBytes = opts.maxBodyBytes ?? 8 * 1024 * 1024;
  const requests: RecordedRequest[] = [];
  const failures: Mode[] = [];
  let latencyMs = 0;

  const isMode = (value: unknown): value is Mode => typeof value === 'string' && (opts.failureModes as readonly string[]).includes(value);

  const host = {
    requests,
    fail(mode: Mode, times = 1) {
      if (!isMode(mode)) throw new Error(`unknown failure mode ${String(mode)}; known: ${opts.failureModes.join(', ')}`);
      for (let i = 0; i < times; i++) failures.push(mode);
    },
    setLatency(ms: number) {
      latencyMs = Math.max(0, ms);
    },
    state() {
      return { failures: [...failures], latencyMs, requestCount: requests.length, ...opts.state() };
    },
    reset() {
      failures.length = 0;
      latencyMs = 0;
      requests.length = 0;
      opts.reset();
    },
  };

  async function control(path: string, method: string, req: import('node:http').IncomingMessage, res: ServerResponse) {
    if (method === 'GET' && path === '/__sim/state') return sendJson(res, 200, host.state());
    if (method !== 'POST') return sendJson(res, 405, { error: 'method not allowed' });
    const body = await readJsonControl(req);
    if (path === '/__sim/failures') {
      const times = body.times === undefined ? 1 : Number(body.times);
      if (!isMode(body.mode) || !Number.isInteger(times) || times < 1) {
        return sendJson(res, 400, { error: `body must be {mode, times?}; modes: ${opts.failureModes.join(', ')}` });
      }
      host.fail(body.mode, times);
      return sendJson(res, 200, host.state());
    }
    if (path === '/__sim/latency') {
      const ms = Number(body.ms);
      if (!Number.isFinite(ms) || ms < 0) return sendJson(res, 400, { error: 'body must be {ms}' });
      host.setLatency(ms);
      return sendJson(res, 200, host.state());
    }
    if (path === '/__sim/reset') {
      host.reset();
      return sendJson(res, 200, host.state());
    }
    const name = path.slice('/__sim/'.length);
    const own = opts.controls && Object.hasOwn(opts.controls, name) ? opts.controls[name] : undefined;
    if (own) {
      try {
        own(body);
      } catch (err) {
        return sendJson(res, 400, { error: (err as Error).message });
      }
      return sendJson(res, 200, host.state());
    }
    return sendJson(res, 404, { error: 'unknown control route' });
  }

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const method = (req.method ?? 'GET').toUpperCase();
      if (url.pathname.startsWith('/__sim/')) return control(url.pathname, method, req, res);

      const chunks: Buffer[] = [];
      let size = 0;
      let tooLarge = false;
      for await (const chunk of req) {
        size += (chunk as Buffer).length;
        if (size > maxBodyBytes) tooLarge = true;
        else chunks.push(chunk as Buffer);
      }
      const body: ParsedBody = tooLarge ? { kind: 'too_large' } : parseBody(req.headers['content-type'], Buffer.concat(chunks));
      const query = Object.fromEntries(url.searchParams);
      requests.push({ method, path: url.pathname, query, headers: req.headers, body: recordedBody(body), at: new Date() });
      if (requests.length > MAX_RECORDED) requests.splice(0, requests.length - MAX_RECORDED);

      if (!(await waitWhileConnected(latencyMs, res))) return;
      opts.handle({ method, url, path: url.pathname, query, headers: req.headers, body }, res, failures.shift());
    })().catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: 'simulator failure', detail: String(err) });
      else res.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => { server.off('error', reject); resolve(); });
  });
  const port = (server.address() as AddressInfo).port;

  return Object.assign(host, {
    port,
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  });
}
