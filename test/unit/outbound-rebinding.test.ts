import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createLocalMediaStore } from '../../adapters/media/local-store';
import { createUrlMediaFetcher } from '../../adapters/media/url-fetcher';
import { AllowList, type Resolver } from '../../adapters/net/destination';
import { outboundFetch } from '../../adapters/net/outbound-http';
import { createNotificationSenders } from '../../adapters/notifications/senders';
import { exchangeJson } from '../../adapters/platforms/kit/http';
import { instanceFetch } from '../../adapters/platforms/kit/instance';
import { tracedFetch } from '../../adapters/platforms/kit/traced-fetch';
import { createMastodonPlatform } from '../../adapters/platforms/mastodon';
import { createPrometheusMetrics } from '../../adapters/telemetry/prometheus';
import { parsePrometheus } from '../support/prometheus-text';
import { createWsRelayIO } from '../../adapters/platforms/nostr/relay';

/**
 * DNS rebinding and redirects on every outbound call made for a tenant. The system DNS is replaced
 * by a script (`mockDns`): a name answers a public address on its first lookup and 127.0.0.1 on
 * every later one. Code that checks one answer and lets the connection resolve again reaches
 * the loopback server; code that connects to the address it checked never does. `localhost` is
 * the name: whatever resolves it behind the script's back gets the loopback address for real.
 */
const PUBLIC = '93.184.216.34';
const mockDns = { lookups: 0, answer: (n: number) => (n === 1 ? PUBLIC : '127.0.0.1') };
jest.mock('node:dns/promises', () => ({
  ...jest.requireActual('node:dns/promises'),
  lookup: async (_host: string, opts?: { all?: boolean }) => {
    mockDns.lookups += 1;
    const found = { address: mockDns.answer(mockDns.lookups), family: 4 };
    return opts?.all ? [found] : found;
  },
}));

/** A loopback server counting the TCP connections it gets (TLS or not, a connection is a reach). */
async function loopback(handler: Parameters<typeof createServer>[1] = (_req, res) => { res.writeHead(200, { 'content-type': 'video/mp4' }); res.end('internal'); }) {
  const server: Server = createServer(handler);
  let connections = 0;
  server.on('connection', () => { connections += 1; });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { port, get connections() { return connections; }, close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

/** A fake DNS answering the addresses listed, one lookup after another (the last one from then on). */
const scripted = (...answers: string[]): Resolver & { calls: number } => {
  const fake = Object.assign(async () => [{ address: answers[Math.min(fake.calls++, answers.length - 1)]!, family: 4 }], { calls: 0 });
  return fake;
};

beforeEach(() => { mockDns.lookups = 0; });

describe('DNS rebinding: the address checked is the address connected to', () => {
  it('media URL: a public first answer and 127.0.0.1 after never reaches 127.0.0.1', async () => {
    const target = await loopback();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'herald-rebind-'));
    try {
      const fetcher = createUrlMediaFetcher(createLocalMediaStore(dir), { allow: [], maxBytes: 1024, timeoutMs: 500 });
      await expect(fetcher.fetchInto(`http://localhost:${target.port}/clip.mp4`, () => true, 'video')).rejects.toMatchObject({ errorCode: 'media_url_unreachable' });
      expect(target.connections).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await target.close();
    }
  });

  it('self-hosted instance: checked at connect AND at the call; a name turned loopback since is not reached', async () => {
    const target = await loopback();
    try {
      const mastodon = createMastodonPlatform({ timeoutMs: 500 });
      await expect(mastodon.credentials!.verify({ instance_url: `https://localhost:${target.port}`, access_token: 'token-0123456789' })).rejects.toMatchObject({ failure: { kind: 'transient' } });
      expect(mockDns.lookups).toBe(2);
      expect(target.connections).toBe(0);
    } finally {
      await target.close();
    }
  });

  it('webhook: each delivery resolves once and connects to what it checked; a later loopback answer is refused', async () => {
    const target = await loopback();
    try {
      const resolve = scripted(PUBLIC, '127.0.0.1');
      const senders = createNotificationSenders({ headerPrefix: 'X-Herald-', userAgent: 'Herald-Webhooks/1.0', timeoutMs: 300, allow: [], resolve, telegram: { botToken: null, apiBase: '' } });
      const send = () => senders.webhook({ url: `http://hooks.example.test:${target.port}/h`, secret: null, event: 'test', deliveryId: 'dlv_1', payload: {} });
      expect(await send()).toMatchObject({ ok: false });
      expect(await send()).toMatchObject({ ok: false, error: expect.stringContaining('private or reserved address (127.0.0.1)') });
      expect(resolve.calls).toBe(2);
      expect(target.connections).toBe(0);
    } finally {
      await target.close();
    }
  });

  it('Nostr relay: a relay name resolving to loopback is refused at every connection', async () => {
    const target = await loopback();
    try {
      const io = createWsRelayIO({ resolve: scripted('127.0.0.1') });
      await expect(io.query(`wss://relay.example.test:${target.port}`, { kinds: [0] }, 500)).resolves.toBeUndefined();
      expect(target.connections).toBe(0);
    } finally {
      await target.close();
    }
  });
});

describe('redirects are followed by Herald, every hop resolved, checked and pinned', () => {
  it('an allow-listed first hop redirecting to another loopback port, or to the metadata address, is refused before connecting', async () => {
    const inner = await loopback();
    const first = await loopback((req, res) => {
      res.writeHead(302, { location: req.url === '/meta' ? 'http://169.254.169.254/latest/meta-data/' : `http://127.0.0.1:${inner.port}/` });
      res.end();
    });
    try {
      const guarded = outboundFetch({ allow: new AllowList([`127.0.0.1:${first.port}`]) });
      await expect(guarded(`http://127.0.0.1:${first.port}/inner`)).rejects.toMatchObject({ message: 'fetch failed', cause: { code: 'EFORBIDDEN' } });
      await expect(guarded(`http://127.0.0.1:${first.port}/meta`)).rejects.toMatchObject({ cause: { code: 'EFORBIDDEN' } });
      expect(inner.connections).toBe(0);
      const manual = await guarded(`http://127.0.0.1:${first.port}/inner`, { redirect: 'manual' });
      expect(manual.status).toBe(302);
    } finally {
      await first.close();
      await inner.close();
    }
  });

  it('an allowed redirect keeps the Host of the name and drops credentials across origins', async () => {
    const seen: { host?: string; authorization?: string; url?: string }[] = [];
    const second = await loopback((req, res) => { seen.push({ host: req.headers.host, authorization: req.headers.authorization, url: req.url }); res.writeHead(200); res.end('done'); });
    const first = await loopback((_req, res) => { res.writeHead(307, { location: `http://second.test:${second.port}/next` }); res.end(); });
    try {
      const guarded = outboundFetch({ allow: new AllowList([`first.test:${first.port}`, `second.test:${second.port}`]), resolve: scripted('127.0.0.1') });
      const res = await guarded(`http://first.test:${first.port}/start`, { method: 'POST', body: 'x', headers: { authorization: 'Bearer t' } });
      expect({ status: res.status, text: await res.text(), url: res.url }).toEqual({ status: 200, text: 'done', url: `http://second.test:${second.port}/next` });
      expect(seen).toEqual([{ host: `second.test:${second.port}`, authorization: undefined, url: '/next' }]);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('a self-hosted network\'s calls keep being observed over the checked transport, redirects included', async () => {
    const inner = await loopback();
    const instance = await loopback((req, res) => {
      if (req.url === '/moved') return void res.writeHead(302, { location: `http://127.0.0.1:${inner.port}/` }).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"1"}');
    });
    try {
      const metrics = createPrometheusMetrics();
      const calls = instanceFetch(tracedFetch('mastodon', { metrics }), { allow: new AllowList([`127.0.0.1:${instance.port}`]) });
      expect(await exchangeJson(`http://127.0.0.1:${instance.port}/api/v1/x`, {}, { fetch: calls, timeoutMs: 2000 })).toMatchObject({ kind: 'response', status: 200, body: { id: '1' } });
      expect(await exchangeJson(`http://127.0.0.1:${instance.port}/moved`, {}, { fetch: calls, timeoutMs: 2000 })).toEqual({ kind: 'no_response', reason: 'network', detail: 'EFORBIDDEN' });
      expect(inner.connections).toBe(0);
      const samples = parsePrometheus(await metrics.text()).filter((x) => x.name === 'herald_network_call_duration_seconds_count');
      expect(samples.map((x) => [x.labels.outcome, x.value]).sort()).toEqual([['2xx', 1], ['no_response', 1]]);
    } finally {
      await instance.close();
      await inner.close();
    }
  });
});
