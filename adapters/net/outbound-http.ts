/**
 * HTTP requests made for a tenant, over node:http / node:https, every hop resolved, checked and
 * pinned (adapters/net/destination.ts). Redirects are followed here, not by fetch: each Location
 * is a new destination, checked like the first. One fresh connection per request (no keep-alive
 * pool), so every call is checked again: a name that turned private since the last call is
 * refused, not reached over an old socket's decision.
 */
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { DestinationRefused, pinnedLookup, resolveDestination, type Destination, type DestinationRules } from './destination';
import { REDIRECT_STATUSES, redirectHop } from './redirect';

export interface OutboundInit {
  method?: string;
  /** Names in any case; sent in lower case. */
  headers?: Record<string, string>;
  body?: Buffer;
  /** Cancels the request and the reading of its answer. */
  signal?: AbortSignal;
  /** `follow` (the default): up to `maxRedirects` hops, each checked; `manual`: a 3xx is the answer. */
  redirect?: 'follow' | 'manual';
  maxRedirects?: number;
}

export interface OutboundAnswer {
  /** The URL that answered (after redirects). */
  url: URL;
  destination: Destination;
  response: IncomingMessage;
}

/** Headers that are credentials for one origin: not carried to another. */
const ORIGIN_BOUND = ['authorization', 'cookie', 'proxy-authorization'];

function send(url: URL, destination: Destination, method: string, headers: Record<string, string>, body: Buffer | undefined, signal?: AbortSignal): Promise<IncomingMessage> {
  const length = body ? String(body.byteLength) : method === 'POST' || method === 'PUT' ? '0' : undefined;
  return new Promise((resolve, reject) => {
    const req = (url.protocol === 'https:' ? https : http).request(url, {
      method, headers: { ...headers, ...(length ? { 'content-length': length } : {}) }, agent: false, lookup: pinnedLookup(destination.address), signal,
    }, resolve);
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * One request and its redirects as fetch takes them (Fetch standard, HTTP-redirect fetch): 303,
 * and 301/302 after a POST, go on as a GET without the body; 307/308 keep method and body; a
 * different origin loses the credentials. Rejects with DestinationRefused before sending to a
 * refused hop, or with the socket's error.
 */
export async function outboundRequest(start: URL, init: OutboundInit, rules: DestinationRules): Promise<OutboundAnswer> {
  let url = start;
  let method = (init.method ?? 'GET').toUpperCase();
  let body = init.body;
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(init.headers ?? {})) headers[k.toLowerCase()] = v;
  const maxRedirects = init.maxRedirects ?? 5;
  for (let hop = 0; ; hop += 1) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new DestinationRefused(`${url.protocol} URLs are not fetched`, 'EPROTO', url);
    const destination = await resolveDestination(url, rules);
    const response = await send(url, destination, method, headers, body, init.signal);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (init.redirect === 'manual' || !REDIRECT_STATUSES.has(status) || !location) return { url, destination, response };
    response.resume();
    if (hop >= maxRedirects) throw new DestinationRefused(`more than ${maxRedirects} redirects`, 'EREDIRECTS');
    const next = redirectHop(url, status, location, method, headers, ORIGIN_BOUND);
    if (next.asGet) body = undefined;
    method = next.method;
    url = next.url;
  }
}

/** The answer's body as sent before its content coding (gzip, deflate, br). */
export function decodedBody(res: IncomingMessage): Readable {
  const coding = String(res.headers['content-encoding'] ?? '').trim().toLowerCase();
  const decoder = coding === 'gzip' || coding === 'x-gzip' ? createGunzip() : coding === 'deflate' ? createInflate() : coding === 'br' ? createBrotliDecompress() : undefined;
  if (!decoder) return res;
  res.on('error', (err) => decoder.destroy(err));
  return res.pipe(decoder);
}

const NULL_BODY = new Set([101, 204, 205, 304]);

/**
 * A fetch over outboundRequest, for code written against fetch (the platform adapters'
 * exchangeJson and uploads): the body types fetch takes (strings, forms, bytes, FormData, Blob),
 * its default headers, its redirect modes, and its failures (`TypeError('fetch failed')` with the
 * cause, the signal's reason when aborted). A refused destination is a failure whose cause has
 * code EFORBIDDEN.
 */
export function outboundFetch(rules: DestinationRules): typeof fetch {
  return (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const request = new Request(input, init);
    const signal = init?.signal ?? undefined;
    if (signal?.aborted) throw signal.reason;
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const headers: Record<string, string> = { accept: '*/*', 'user-agent': 'node' };
    request.headers.forEach((v, k) => { headers[k] = v; });
    let answer: OutboundAnswer;
    try {
      answer = await outboundRequest(new URL(request.url), { method: request.method, headers, body, signal, redirect: request.redirect === 'follow' ? 'follow' : 'manual', maxRedirects: 20 }, rules);
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      throw Object.assign(new TypeError('fetch failed'), { cause: err });
    }
    const { response: res } = answer;
    const status = res.statusCode ?? 0;
    if (request.redirect === 'error' && REDIRECT_STATUSES.has(status)) {
      res.resume();
      throw Object.assign(new TypeError('fetch failed'), { cause: new Error('unexpected redirect') });
    }
    const out = new Headers();
    for (let i = 0; i < res.rawHeaders.length; i += 2) out.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
    const empty = request.method === 'HEAD' || NULL_BODY.has(status);
    if (empty) res.resume();
    const response = new Response(empty ? null : (Readable.toWeb(decodedBody(res)) as unknown as ReadableStream<Uint8Array>), { status, statusText: res.statusMessage, headers: out });
    Object.defineProperty(response, 'url', { value: answer.url.toString() });
    return response;
  }) as typeof fetch;
}
