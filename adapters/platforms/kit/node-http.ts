/**
 * JSON exchanges over node:http / node:https with keep-alive agents, for `exchangeJson`: a
 * network's answer read whole as text, without the WHATWG fetch machinery (Request, Response and
 * web streams cost the API about three times the CPU of the exchange itself: measured ~330 µs of
 * ~500 µs per call on loopback). Same request on the wire as fetch sends it (its default headers,
 * content type and length of string, form and byte bodies); what this path does not handle itself
 * (other body types, a redirect to follow) answers `undefined` and the caller uses fetch.
 */
import http from 'node:http';
import https from 'node:https';
import { gunzipSync, inflateSync, brotliDecompressSync } from 'node:zlib';

export interface TextAnswer {
  status: number;
  headers: Headers;
  text: string;
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

/** The failure fetch would throw: `TypeError('fetch failed')` with the socket error as its cause. */
function fetchFailed(cause: unknown): TypeError {
  return Object.assign(new TypeError('fetch failed'), { cause });
}

/**
 * One exchange; `undefined` when fetch must do it (a body type or a redirect this path does not
 * handle). Rejects like fetch: the signal's reason when aborted, `fetch failed` with a cause.
 */
export function nodeTextExchange(url: string, init: RequestInit = {}): Promise<TextAnswer | undefined> {
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
  return new Promise<TextAnswer | undefined>((resolve, reject) => {
    const req = (target.protocol === 'https:' ? https : http).request(target, { method: (init.method ?? 'GET').toUpperCase(), headers, agent }, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location && init.redirect !== 'manual') {
        // Following redirects is fetch's business.
        res.resume();
        cleanup();
        resolve(undefined);
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', (err) => { cleanup(); reject(signal?.aborted ? signal.reason : fetchFailed(err)); });
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
    const cleanup = () => signal?.removeEventListener('abort', onAbort);
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (err) => { cleanup(); reject(signal?.aborted ? signal.reason : fetchFailed(err)); });
    req.end(body.bytes);
  });
}
