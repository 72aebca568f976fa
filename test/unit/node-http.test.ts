import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { exchangeJson, TEXT_EXCHANGE } from '../../adapters/platforms/kit/http';
import { ExchangeTimeout, nodeTextExchange } from '../../adapters/platforms/kit/node-http';
import { tracedFetch } from '../../adapters/platforms/kit/traced-fetch';
import { createPrometheusMetrics } from '../../adapters/telemetry/prometheus';
import { parsePrometheus } from '../support/prometheus-text';

/**
 * The node:http path of exchangeJson puts on the wire what fetch puts there, reads what fetch
 * reads, and hands fetch what it does not do itself.
 */
interface Seen { method: string; url: string; headers: Record<string, string | string[] | undefined>; body: string }

let server: Server;
let base = '';
const seen: Seen[] = [];

function record(req: IncomingMessage): Promise<Seen> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString() }));
  });
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const s = await record(req);
    seen.push(s);
    if (req.url === '/gzip') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'x-rate-limit-remaining': '7' });
      res.end(gzipSync(JSON.stringify({ zipped: true })));
      return;
    }
    if (req.url === '/moved') {
      res.writeHead(302, { location: '/landed' });
      res.end();
      return;
    }
    if (req.url === '/moved-to-hang') {
      res.writeHead(302, { location: '/hang' });
      res.end();
      return;
    }
    // Never answers (the server's connections are closed at the end).
    if (req.url === '/hang') return;
    res.writeHead(req.url === '/teapot' ? 418 : 200, { 'content-type': 'application/json', 'set-cookie': ['a=1', 'b=2'] });
    res.end(JSON.stringify({ path: req.url, method: req.method }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

/** The request as the server saw it, through fetch and through node:http. */
async function both(path: string, init: RequestInit): Promise<[Seen, Seen]> {
  seen.length = 0;
  await (await fetch(`${base}${path}`, init)).text();
  const answer = await nodeTextExchange(`${base}${path}`, init);
  // The server answers every request with its path and method: node:http read that answer.
  expect(answer).toMatchObject({ status: 200, text: JSON.stringify({ path, method: (init.method ?? 'GET').toUpperCase() }) });
  expect(seen).toHaveLength(2);
  return [seen[0]!, seen[1]!];
}

const comparable = (s: Seen) => {
  const { host, connection, 'accept-encoding': _enc, 'accept-language': _lang, 'sec-fetch-mode': _mode, ...headers } = s.headers;
  return { method: s.method, url: s.url, body: s.body, headers };
};

describe('the node:http exchange', () => {
  it.each<[string, RequestInit]>([
    ['a GET with headers', { method: 'GET', headers: { Authorization: 'Bearer t', 'X-Custom': 'v' } }],
    ['a JSON POST', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ a: 1, b: 'é' }) }],
    ['a text POST without a content type', { method: 'POST', body: 'plain ü' }],
    ['a form POST', { method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'r t' }) }],
    ['a byte PUT', { method: 'PUT', headers: { 'content-type': 'image/jpeg' }, body: new Uint8Array([1, 2, 3, 250]) }],
    ['a DELETE without a body', { method: 'DELETE' }],
    ['a POST without a body', { method: 'POST' }],
    ['headers as a Headers object', { headers: new Headers({ 'X-One': '1' }) }],
    ['headers as pairs', { headers: [['X-Two', '2']] }],
  ])('sends %s as fetch does', async (_name, init) => {
    const [viaFetch, viaNode] = await both('/echo?q=1', init);
    expect(comparable(viaNode)).toEqual(comparable(viaFetch));
  });

  it('reads status, every header and a gzip body', async () => {
    const answer = (await nodeTextExchange(`${base}/gzip`, {}))!;
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-rate-limit-remaining')).toBe('7');
    expect(JSON.parse(answer.text)).toEqual({ zipped: true });
    const teapot = (await nodeTextExchange(`${base}/teapot`, {}))!;
    expect(teapot.status).toBe(418);
    expect(teapot.headers.get('set-cookie')).toBe((await fetch(`${base}/teapot`)).headers.get('set-cookie'));
  });

  it('hands fetch what it does not do: a body only fetch sends, a redirect\'s next hop', async () => {
    seen.length = 0;
    expect(await nodeTextExchange(`${base}/echo`, { method: 'POST', body: new Blob(['x']) })).toBeUndefined();
    expect(seen).toHaveLength(0);
    expect(await nodeTextExchange(`${base}/moved`, { redirect: 'manual' })).toMatchObject({ status: 302 });
    const followed = (await nodeTextExchange(`${base}/moved`, {}))!;
    expect(followed.status).toBe(200);
    expect(JSON.parse(followed.text)).toEqual({ path: '/landed', method: 'GET' });
    const outcome = await exchangeJson(`${base}/moved`, {}, { fetch, timeoutMs: 5000 });
    expect(outcome).toMatchObject({ kind: 'response', status: 200, body: { path: '/landed' } });
  });

  it('never sends a redirected POST twice: the next hop is a GET, as fetch makes it', async () => {
    seen.length = 0;
    const answer = (await nodeTextExchange(`${base}/moved`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer t' }, body: '{"a":1}' }))!;
    expect(JSON.parse(answer.text)).toEqual({ path: '/landed', method: 'GET' });
    expect(seen.map((x) => `${x.method} ${x.url}`)).toEqual(['POST /moved', 'GET /landed']);
    expect(seen[1]!.body).toBe('');
    expect(seen[1]!.headers['content-type']).toBeUndefined();
    // Same origin: the credentials go along, as with fetch.
    expect(seen[1]!.headers.authorization).toBe('Bearer t');
    seen.length = 0;
    await fetch(`${base}/moved`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer t' }, body: '{"a":1}' });
    expect(seen.map((x) => `${x.method} ${x.url}`)).toEqual(['POST /moved', 'GET /landed']);
  });

  it('keeps its own deadline over node:http, and the rest of it across a redirect followed by fetch', async () => {
    await expect(nodeTextExchange(`${base}/hang`, { timeoutMs: 150 })).rejects.toBeInstanceOf(ExchangeTimeout);
    await expect(nodeTextExchange(`${base}/moved-to-hang`, { timeoutMs: 150 })).rejects.toBeInstanceOf(ExchangeTimeout);
    expect(await exchangeJson(`${base}/moved-to-hang`, {}, { fetch, timeoutMs: 150 })).toMatchObject({ kind: 'no_response', reason: 'timeout' });
    // The caller's cancellation reaches the redirected hop too.
    const caller = new AbortController();
    const pending = exchangeJson(`${base}/moved-to-hang`, {}, { fetch, timeoutMs: 60_000, signal: caller.signal });
    setTimeout(() => caller.abort(), 100);
    expect(await pending).toMatchObject({ kind: 'no_response', reason: 'aborted' });
    expect(await nodeTextExchange(`${base}/landed`, { timeoutMs: 5000 })).toMatchObject({ status: 200 });
  });

  it('fails as fetch fails: the socket error as the cause, outcome network with its code', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/x`;
    await new Promise<void>((r) => closed.close(() => r()));
    await expect(nodeTextExchange(url, {})).rejects.toMatchObject({ message: 'fetch failed', cause: { code: 'ECONNREFUSED' } });
    expect(await exchangeJson(url, {}, { fetch, timeoutMs: 5000 })).toEqual({ kind: 'no_response', reason: 'network', detail: 'ECONNREFUSED' });
  });

  it('a traced fetch over the native one carries it, observed once per call', async () => {
    const metrics = createPrometheusMetrics();
    const traced = tracedFetch('x', { metrics });
    expect(typeof (traced as unknown as Record<symbol, unknown>)[TEXT_EXCHANGE]).toBe('function');
    expect(await exchangeJson(`${base}/teapot`, {}, { fetch: traced, timeoutMs: 5000 })).toMatchObject({ status: 418 });
    expect(await exchangeJson(`${base}/moved`, {}, { fetch: traced, timeoutMs: 5000 })).toMatchObject({ status: 200 });
    const samples = parsePrometheus(await metrics.text()).filter((x) => x.name === 'herald_network_call_duration_seconds_count');
    expect(samples.map((x) => [x.labels.outcome, x.value]).sort()).toEqual([['2xx', 1], ['4xx', 1]]);
    // A fetch of the caller's own is used as given.
    const own = tracedFetch('x', { fetch: async () => new Response('{}') });
    expect((own as unknown as Record<symbol, unknown>)[TEXT_EXCHANGE]).toBeUndefined();
  });
});
