/**
 * JSON exchanges over node:http / node:https with keep-alive agents, for `exchangeJson`: a
 * network's answer read whole as text, without the WHATWG fetch machinery (Request, Response and
 * web streams cost the API about three times the CPU of the exchange itself: measured ~330 µs of
 * ~500 µs per call on loopback). Same request on the wire as fetch sends it (its default headers,
 * content type and length of string, form and byte bodies); a body of another type answers
 * `undefined` (nothing sent) and the caller uses fetch; a redirect's further hops are fetch's.
 */
import http from 'node:http';
import https from 'node:https';
import { gunzipSync, inflateSync, brotliDecompressSync } from 'node:zlib';
import { REDIRECT_STATUSES, redirectHop } from '../../net/redirect';

export interface TextAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/** An exchange's init, with the time it may take from being called to its answer read whole. */
export interface TextExchangeInit extends RequestInit {
  timeoutMs?: number;
}

/** What an exchange rejects with when its `timeoutMs` passed first. */
export class ExchangeTimeout extends Error {
  override name = 'TimeoutError';
  constructor(timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
  }
}

const agents = {
  'http:': new http.Agent({ keepAlive: true, scheduling: 'lifo' }),
  'https:': new https.Agent({ keepAlive: true, scheduling: 'lifo' }),
};

type Body = { bytes: Buffer | undefined; type: string | undefined } | undefined;

/** The body as bytes and the content type fetch would give it; undefined for what only fetch sends. */
function bodyOf(body: RequestInit['body']): Body {
  if (body === undefined || body === null) return { bytes: undefined, type: undefined };
  if (typeof body === 'string') return { bytes: Buffer.from(body), type: 'text/plain;charset=UTF-8' };
  if (body instanceof URLSearchParams) return { bytes: Buffer.from(body.toString()), type: 'application/x-www-form-urlencoded;charset=UTF-8' };
  if (body instanceof Uint8Array) return { bytes: Buffer.from(body.buffer, body.byteOffset, body.byteLength), type: undefined };
  if (body instanceof ArrayBuffer) return { bytes: Buffer.from(body), type: undefined };
  return undefined;
}

function headerRecord(given: RequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  if (!given) return out;
  if (given instanceof Headers) given.forEach((v, k) => { out[k] = v; });
  else if (Array.isArray(given)) for (const [k, v] of given) out[k!.toLowerCase()] = v!;
  else for (const [k, v] of Object.entries(given as Record<string, string | readonly string[]>)) out[k.toLowerCase()] = typeof v === 'string' ? v : v.join(', ');
  return out;
}

function decoded(buf: Buffer, encoding: string | undefined): Buffer {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'gzip': case 'x-gzip': return gunzipSync(buf);
    case 'deflate': return inflateSync(buf);
    case 'br': return brotliDecompressSync(buf);
    default: return buf;
  }
}

/** The native fetch, for the hops after a redirect. */
const nativeFetch = globalThis.fetch;

/**
 * A redirect's next hop as fetch takes it (adapters/net/redirect.ts; a different origin loses the
 * Authorization header). Further hops and `redirect: 'error'` are fetch's own.
 */
async function followWithFetch(from: URL, status: number, location: string, init: TextExchangeInit, deadlineAt: number | undefined): Promise<TextAnswer> {
  if (init.redirect === 'error') throw fetchFailed(new Error('unexpected redirect'));
  const headers = headerRecord(init.headers);
  const { url: next, asGet } = redirectHop(from, status, location, (init.method ?? 'GET').toUpperCase(), headers, ['authorization']);
  // The rest of the exchange's time, and the caller's cancellation, as fetch's signal.
  const controller = new AbortController();
  const caller = init.signal ?? undefined;
  const forward = () => controller.abort(caller!.reason);
  caller?.addEventListener('abort', forward, { once: true });
  const timer = deadlineAt === undefined ? undefined
    : setTimeout(() => controller.abort(new ExchangeTimeout(init.timeoutMs!)), Math.max(0, deadlineAt - performance.now()));
  timer?.unref();
  try {
    const { timeoutMs: _omit, ...rest } = init;
    void _omit;
    const res = await nativeFetch(next, { ...rest, headers, signal: controller.signal, ...(asGet ? { method: 'GET', body: null } : {}) });
    return { status: res.status, headers: res.headers, text: await res.text() };
  } finally {
    if (timer) clearTimeout(timer);
    caller?.removeEventListener('abort', forward);
  }
}

/** The failure fetch would throw: `TypeError('fetch failed')` with the socket error as its cause. */
function fetchFailed(cause: unknown): TypeError {
  return Object.assign(new TypeError('fetch failed'), { cause });
}

/**
 * One exchange; `undefined` when fetch must do it (a body type this path does not send). A
 * redirect is followed by fetch from the hop it names. Rejects like fetch: the signal's reason
 * when aborted, `fetch failed` with a cause; `ExchangeTimeout` when `timeoutMs` passed before the
 * answer was read whole (a timer of its own: no AbortController per call).
 */
export function nodeTextExchange(url: string, init: TextExchangeInit = {}): Promise<TextAnswer | undefined> {
  const body = bodyOf(init.body);
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve(undefined);
  }
  const agent = agents[target.protocol as keyof typeof agents];
  if (!body || !agent) return Promise.resolve(undefined);
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(signal.reason);
  const headers = headerRecord(init.headers);
  headers.accept ??= '*/*';
  headers['user-agent'] ??= 'node';
  if (body.bytes) {
    if (body.type && headers['content-type'] === undefined) headers['content-type'] = body.type;
    headers['content-length'] = String(body.bytes.byteLength);
  } else if (init.method && ['POST', 'PUT'].includes(init.method.toUpperCase())) {
    // Fetch's rule: a POST or PUT without a body says Content-Length: 0.
    headers['content-length'] = '0';
  }
  const deadlineAt = init.timeoutMs === undefined ? undefined : performance.now() + init.timeoutMs;
  return new Promise<TextAnswer | undefined>((resolve, reject) => {
    let timedOut: ExchangeTimeout | undefined;
    const failure = (err: unknown) => timedOut ?? (signal?.aborted ? signal.reason : fetchFailed(err));
    const req = (target.protocol === 'https:' ? https : http).request(target, { method: (init.method ?? 'GET').toUpperCase(), headers, agent }, (res) => {
      const status = res.statusCode ?? 0;
      if (REDIRECT_STATUSES.has(status) && res.headers.location && init.redirect !== 'manual') {
        // The request has been sent and answered: the rest of the way is fetch's, from this hop on
        // (never the first request again, which may have taken effect).
        res.resume();
        cleanup();
        followWithFetch(target, status, res.headers.location, init, deadlineAt).then(resolve, reject);
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', (err) => { cleanup(); reject(failure(err)); });
      res.on('end', () => {
        cleanup();
        try {
          const out = new Headers();
          const raw = res.rawHeaders;
          for (let i = 0; i < raw.length; i += 2) out.append(raw[i]!, raw[i + 1]!);
          resolve({ status, headers: out, text: decoded(Buffer.concat(chunks), res.headers['content-encoding']).toString('utf8') });
        } catch (err) {
          reject(fetchFailed(err));
        }
      });
    });
    const onAbort = () => req.destroy(signal!.reason instanceof Error ? signal!.reason : new Error('aborted'));
    const timer = init.timeoutMs === undefined ? undefined : setTimeout(() => {
      timedOut = new ExchangeTimeout(init.timeoutMs!);
      req.destroy(timedOut);
    }, init.timeoutMs);
    timer?.unref();
    const cleanup = () => {
      if (timer) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (err) => { cleanup(); reject(failure(err)); });
    req.end(body.bytes);
  });
}
