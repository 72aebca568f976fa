import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getEventListeners } from 'node:events';
import { PassThrough } from 'node:stream';
import type { Context } from 'koa';
import { callDeadline, exchangeJson } from '../../adapters/platforms/kit/http';
import { fastUtcIso, graphCreatedAt, isoOf } from '../../adapters/platforms/kit/iso-time';
import { isoTime } from '../../adapters/platforms/instagram/media';
import { cachedOperationOf, operationOf, tracedFetch } from '../../adapters/platforms/kit/traced-fetch';
import { tracingActive } from '../../adapters/telemetry/tracing-active';
import { createAesSecretBox } from '../../adapters/crypto/node-crypto';
import { SEALED_FIELDS } from '../../core/domain/sealed-fields';
import { createPrometheusMetrics } from '../../adapters/telemetry/prometheus';
import { observeHttp } from '../../apps/shared/http-observe';
import { createLogger, registerSecret, scrub, scrubText } from '../../apps/shared/logging';
import { queryIdGuard } from '../../apps/api/ids';
import { parsePrometheus, valueOf } from '../support/prometheus-text';

/**
 * The fast paths of the API's synchronous reads (media list, comments, lookups) answer exactly
 * what the general paths they stand in front of answer.
 */

/** What the mappers answered before the fast path: Date.parse after Graph's offset fix. */
const generalIsoTime = (v: string): string | undefined => {
  const t = Date.parse(v.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isFinite(t) ? new Date(t).toISOString() : undefined;
};
const generalIsoOf = (v: string): string | undefined => (Number.isFinite(Date.parse(v)) ? new Date(v).toISOString() : undefined);

describe('timestamps', () => {
  const edges = [
    '2026-01-01T10:00:00+0000', '2026-01-01T10:00:00+00:00', '2026-01-01T10:00:00Z', '2026-01-01T10:00:00.123Z',
    '2026-01-01T10:00:00.123+0000', '2026-01-01T10:00:00.1Z', '2026-01-01T10:00:00.123456Z', '2026-01-01T10:00:00.Z',
    '2024-02-29T12:00:00+0000', '2026-02-29T12:00:00+0000', '2000-02-29T00:00:00Z', '1900-02-29T00:00:00Z', '2026-02-30T00:00:00Z',
    '2026-04-31T00:00:00+0000', '2026-12-31T23:59:59+0000', '2026-13-01T00:00:00Z', '2026-00-10T00:00:00Z', '2026-01-00T00:00:00Z',
    '2026-01-01T24:00:00+0000', '2026-01-01T23:60:00Z', '2026-01-01T23:59:60Z', '0000-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z',
    '2026-01-01T10:00:00+0200', '2026-01-01T10:00:00-0000', '2026-01-01T10:00:00-05:00', '2026-01-01T10:00:00', '2026-01-01',
    '2026-01-01 10:00:00Z', ' 2026-01-01T10:00:00Z', '2026-01-01T10:00:00Z ', '2026-1-01T10:00:00Z', '+002026-01-01T10:00:00Z',
    'Thu, 01 Jan 2026 10:00:00 GMT', 'not a date', '', '2026-01-01T10:00:00+00000', '٢٠٢٦-01-01T10:00:00Z',
  ];

  it('answers on the fast path exactly what Date.parse answers, and leaves the rest to it', () => {
    for (const text of edges) {
      const fast = fastUtcIso(text);
      if (fast !== undefined) {
        expect([text, fast]).toEqual([text, generalIsoTime(text)]);
        expect([text, fast]).toEqual([text, generalIsoOf(text)]);
      }
      expect([text, isoTime(text)]).toEqual([text, generalIsoTime(text)]);
      expect([text, isoOf(text)]).toEqual([text, text ? generalIsoOf(text) : undefined]);
    }
    expect(fastUtcIso('2026-01-01T10:00:00+0000')).toBe('2026-01-01T10:00:00.000Z');
    expect(fastUtcIso('2026-02-29T12:00:00+0000')).toBeUndefined(); // rolled over to 1 March by Date.parse
    expect(isoTime('2026-02-29T12:00:00+0000')).toBe('2026-03-01T12:00:00.000Z');
    expect(isoTime(42)).toBeUndefined();
    expect(isoOf(undefined)).toBeUndefined();
  });

  it('agrees with Date.parse over every day of four years and random times', () => {
    const pad = (n: number, w = 2) => String(n).padStart(w, '0');
    for (const year of [1999, 2000, 2024, 2100]) {
      for (let month = 1; month <= 12; month++) {
        for (let day = 1; day <= 31; day++) {
          const time = `${pad((day * 7) % 24)}:${pad((day * 13) % 60)}:${pad((month * 17) % 60)}`;
          for (const zone of ['+0000', 'Z', '.042Z']) {
            const text = `${year}-${pad(month)}-${pad(day)}T${time}${zone}`;
            expect([text, isoTime(text)]).toEqual([text, generalIsoTime(text)]);
          }
        }
      }
    }
  });

  it('reads a Graph comment time as before: absent stays absent, an unreadable one still throws', () => {
    expect(graphCreatedAt('2026-01-01T10:00:00+0000')).toBe('2026-01-01T10:00:00.000Z');
    expect(graphCreatedAt('2026-04-31T10:00:00+0000')).toBe(new Date('2026-04-31T10:00:00Z').toISOString());
    expect(graphCreatedAt('2026-01-01T10:00:00+0200')).toBe('2026-01-01T08:00:00.000Z');
    expect(graphCreatedAt(undefined)).toBeUndefined();
    expect(graphCreatedAt('')).toBeUndefined();
    expect(() => graphCreatedAt('garbage')).toThrow(RangeError);
  });
});

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

describe('exchangeJson outcomes', () => {
  let server: Server;
  let base = '';
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/hang') return; // never answers
      if (req.url === '/slow-body') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"a":');
        return; // the body never ends
      }
      res.setHeader('content-type', 'application/json');
      res.end('{"ok":true}');
    });
    base = await listen(server);
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it('answers the body, and leaves no listener on the caller signal', async () => {
    const caller = new AbortController();
    const outcome = await exchangeJson(`${base}/ok`, { method: 'GET' }, { fetch, timeoutMs: 5000, signal: caller.signal });
    expect(outcome).toMatchObject({ kind: 'response', status: 200, body: { ok: true } });
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });

  it('says timeout when the network does not answer in time, headers or body', async () => {
    for (const path of ['/hang', '/slow-body']) {
      const caller = new AbortController();
      const t0 = Date.now();
      const outcome = await exchangeJson(`${base}${path}`, { method: 'GET' }, { fetch, timeoutMs: 150, signal: caller.signal });
      expect(outcome).toMatchObject({ kind: 'no_response', reason: 'timeout' });
      expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
      expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    }
    expect(await exchangeJson(`${base}/hang`, { method: 'GET' }, { fetch, timeoutMs: 100 })).toMatchObject({ kind: 'no_response', reason: 'timeout' });
  });

  it('says aborted when the caller cancels, before or during the call', async () => {
    const before = new AbortController();
    before.abort();
    expect(await exchangeJson(`${base}/ok`, { method: 'GET' }, { fetch, timeoutMs: 5000, signal: before.signal })).toMatchObject({ kind: 'no_response', reason: 'aborted' });
    const during = new AbortController();
    setTimeout(() => during.abort(), 50);
    expect(await exchangeJson(`${base}/hang`, { method: 'GET' }, { fetch, timeoutMs: 5000, signal: during.signal })).toMatchObject({ kind: 'no_response', reason: 'aborted' });
  });

  it('says network, with the cause code, when the connection fails', async () => {
    const closed = createServer();
    const url = await listen(closed);
    await new Promise((resolve) => closed.close(resolve));
    expect(await exchangeJson(`${url}/x`, { method: 'GET' }, { fetch, timeoutMs: 5000 })).toEqual({ kind: 'no_response', reason: 'network', detail: 'ECONNREFUSED' });
  });

  it('gives the fetch one signal, aborted with a TimeoutError when the deadline passes', async () => {
    const deadline = callDeadline(20);
    const reason = await new Promise((resolve) => deadline.signal.addEventListener('abort', () => resolve(deadline.signal.reason)));
    expect(deadline.timedOut).toBe(true);
    expect((reason as DOMException).name).toBe('TimeoutError');
    const done = callDeadline(20);
    done.done();
    await new Promise((r) => setTimeout(r, 40));
    expect(done.signal.aborted).toBe(false);
    expect(done.timedOut).toBe(false);
  });
});

describe('credential memo of the secret box', () => {
  const key = Buffer.alloc(32, 9).toString('base64');
  const at = SEALED_FIELDS.connectionCredentials({ accountId: 'acc-1', profileUsername: 'alice', platform: 'x' });

  it('opens each sealed text to its own plaintext, remembered or not', () => {
    const box = createAesSecretBox(key, { openCacheEntries: 2 });
    const plains = ['{"access_token":"a1"}', '{"access_token":"a2"}', '{"access_token":"a1"}', '{"access_token":"a3"}'];
    const sealed = plains.map((p) => box.seal(p, at));
    expect(new Set(sealed).size).toBe(4); // a fresh IV each time: a rotated secret never shares a key
    for (let round = 0; round < 3; round++) {
      sealed.forEach((s, i) => expect(box.open(s, at)).toBe(plains[i]));
      expect(box.open(sealed[1]!, at)).toBe(plains[1]);
    }
    // Another box (another process) opens the same texts the same way.
    const other = createAesSecretBox(key, { openCacheEntries: 0 });
    sealed.forEach((s, i) => expect(other.open(s, at)).toBe(plains[i]));
  });

  it('never remembers a failure, and never answers for a text it did not open', () => {
    const box = createAesSecretBox(key);
    const good = box.seal('{"access_token":"secret"}', at);
    expect(box.open(good, at)).toBe('{"access_token":"secret"}');
    const [v, iv, tag, body] = good.split('.');
    const flipped = `${body![0] === 'A' ? 'B' : 'A'}${body!.slice(1)}`;
    for (let i = 0; i < 2; i++) expect(() => box.open([v, iv, tag, flipped].join('.'), at)).toThrow();
    expect(() => box.open('v9.x.y.z', at)).toThrow(/unknown format/);
    const otherKey = createAesSecretBox(Buffer.alloc(32, 1).toString('base64'));
    expect(() => otherKey.open(good, at)).toThrow();
  });

  it('gives every opener its own credentials object to change', () => {
    const box = createAesSecretBox(key);
    const sealed = box.seal(JSON.stringify({ access_token: 't', pages: [{ id: 'p1' }] }), at);
    const first = JSON.parse(box.open(sealed, at)) as { access_token: string; pages: Array<{ id: string }> };
    first.access_token = 'changed';
    first.pages[0]!.id = 'changed';
    expect(JSON.parse(box.open(sealed, at))).toEqual({ access_token: 't', pages: [{ id: 'p1' }] });
  });
});

function capture() {
  const stream = new PassThrough();
  const chunks: string[] = [];
  stream.on('data', (b: Buffer) => chunks.push(b.toString()));
  const logger = createLogger({ level: 'info', pretty: false, daemon: 'test', destination: stream });
  return { logger, lines: () => chunks.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe('observation with tracing off', () => {
  it('has no tracer provider registered in this file', () => {
    expect(tracingActive()).toBe(false);
  });

  it('still observes every network call by operation and outcome', async () => {
    const metrics = createPrometheusMetrics({ processMetrics: false });
    const answers = [200, 503];
    const call = tracedFetch('threads', { metrics, fetch: async () => new Response('{}', { status: answers.shift() ?? 200 }) });
    await call('https://graph.threads.net/v1.0/17841400000000/threads?access_token=secret', { method: 'GET' });
    await call('https://graph.threads.net/v1.0/17841400000001/threads?access_token=other', { method: 'GET' });
    const failing = tracedFetch('threads', { metrics, fetch: async () => { throw new TypeError('fetch failed'); } });
    await expect(failing('https://graph.threads.net/v1.0/1/threads')).rejects.toThrow('fetch failed');
    const samples = parsePrometheus(await metrics.text());
    const operation = 'GET /v1.0/:id/threads';
    expect(valueOf(samples, 'herald_network_call_duration_seconds_count', { network: 'threads', operation, outcome: '2xx' })).toBe(1);
    expect(valueOf(samples, 'herald_network_call_duration_seconds_count', { network: 'threads', operation, outcome: '5xx' })).toBe(1);
    expect(valueOf(samples, 'herald_network_call_duration_seconds_count', { network: 'threads', operation, outcome: 'no_response' })).toBe(1);
  });

  it('names operations as operationOf does, whatever the query', () => {
    const urls = [
      'https://discord.com/api/v10/webhooks/1234567890/AbCdEf_gh-IJ?wait=true', 'https://api.telegram.org/bot123:ABCdef/getChat',
      'https://graph.facebook.com/v21.0/17841400000000/media_publish?x=1#frag', 'https://open.tiktokapis.com/v2/post/publish/video/init/',
      'not a url', 'https://host/a%2Fb/c?d', 'https://host/path#frag?no',
    ];
    for (const method of ['GET', 'post']) {
      for (const url of urls) {
        for (let i = 0; i < 2; i++) expect(cachedOperationOf(method, url)).toBe(operationOf(method, url));
      }
    }
  });

  it('logs and counts each request without a span, trace_id left out', async () => {
    const { logger, lines } = capture();
    const metrics = createPrometheusMetrics({ processMetrics: false });
    const mw = observeHttp({ logger, metrics });
    const headers: Record<string, string> = {};
    const ctx = {
      method: 'GET', path: '/api/herald/media', status: 200, _matchedRoute: '/api/herald/media',
      state: { caller: { account: { id: 'acc_1' } } }, set: (k: string, v: string) => { headers[k] = v; },
    } as unknown as Context;
    await mw(ctx, async () => undefined);
    const reqId = headers['X-Herald-Req-Id'];
    const failing = { ...ctx, status: 500, state: {} } as unknown as Context;
    await expect(mw(failing, async () => { throw new Error('boom'); })).rejects.toThrow('boom');
    const [ok, error] = lines().filter((l) => l.msg === 'request');
    expect(Object.keys(ok!)).toEqual(['level', 'time', 'daemon', 'pid', 'req_id', 'method', 'route', 'status', 'latency_ms', 'account_id', 'msg']);
    expect(ok).toMatchObject({ level: 'info', req_id: reqId, method: 'GET', route: '/api/herald/media', status: 200, account_id: 'acc_1' });
    expect(error).toMatchObject({ level: 'error', status: 500 });
    expect(error).not.toHaveProperty('account_id');
    expect(error).not.toHaveProperty('trace_id');
    const samples = parsePrometheus(await metrics.text());
    expect(valueOf(samples, 'herald_http_requests_total', { method: 'GET', route: '/api/herald/media', status: '200' })).toBe(1);
    expect(valueOf(samples, 'herald_http_request_duration_seconds_count', { method: 'GET', route: '/api/herald/media' })).toBe(2);
  });
});

describe('log scrubbing short cuts', () => {
  it('still scrubs every pattern, and leaves plain values as they are', () => {
    registerSecret('registered-secret-value');
    expect(scrubText('key hk_abcdefgh and Bearer abc.def and bot123:ABCDEFGHIJKL')).toBe('key hk_[redacted] and Bearer [redacted] and bot[redacted]');
    expect(scrubText('https://x/api/webhooks/1/tok?access_token=zzz&a=1')).toBe('https://x/api/webhooks/1/[redacted]?access_token=[redacted]&a=1');
    expect(scrubText('/api/herald/media')).toBe('/api/herald/media');
    expect(scrubText('x-registered-secret-value-y')).toBe('x-[redacted]-y');
    expect(scrub({ route: '/media', status: 200, token: 'abc', nested: { api_key: 'k', count: 3, Authorization: 'Basic x' } }))
      .toEqual({ route: '/media', status: 200, token: '[redacted]', nested: { api_key: '[redacted]', count: 3, Authorization: '[redacted]' } });
    // The remembered verdict is the same on the second line.
    expect(scrub({ token: 'abc', route: 'r' })).toEqual({ token: '[redacted]', route: 'r' });
  });
});

describe('query id guard', () => {
  const run = async (querystring: string, query: Record<string, unknown>) => {
    let called = false;
    await queryIdGuard({ querystring, query } as unknown as Context, async () => { called = true; });
    return called;
  };

  it('passes plain queries and refuses NULs and over-long ids, single or repeated', async () => {
    expect(await run('', {})).toBe(true);
    expect(await run('platform=threads&user=mia&limit=25', { platform: 'threads', user: 'mia', limit: '25' })).toBe(true);
    await expect(run('x', { cursor: 'a\u0000b' })).rejects.toMatchObject({ errorCode: 'invalid_character' });
    await expect(run('x', { cursor: ['a', 'b\u0000'] })).rejects.toMatchObject({ errorCode: 'invalid_character' });
    await expect(run('x', { 'a\u0000': 'b' })).rejects.toMatchObject({ errorCode: 'invalid_field_name' });
    await expect(run('x', { user: 'x'.repeat(500) })).rejects.toMatchObject({ errorCode: 'invalid_id' });
    await expect(run('x', { user: ['ok', 'a\u0001'] })).rejects.toMatchObject({ errorCode: 'invalid_id' });
  });
});
