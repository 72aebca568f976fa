import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import Koa from 'koa';
import Router from '@koa/router';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { SpanKind } from '@opentelemetry/api';
import { createLogger, registerSecret } from '../../apps/shared/logging';
import { createPrometheusMetrics } from '../../adapters/telemetry/prometheus';
import { operationOf, tracedFetch } from '../../adapters/platforms/kit/traced-fetch';
import { startTracing } from '../../adapters/telemetry/tracing';
import { observeHttp, healthRoutes } from '../../apps/shared/http-observe';
import { startOpsServer } from '../../apps/shared/ops-server';
import { loadConfig } from '../../apps/shared/config';
import { selectPools, concurrencyOf, POOLS } from '../../apps/worker/pools';
import { parsePrometheus, valueOf } from '../support/prometheus-text';

function capture(level = 'info') {
  const stream = new PassThrough();
  const chunks: string[] = [];
  stream.on('data', (b: Buffer) => chunks.push(b.toString()));
  const logger = createLogger({ level, pretty: false, daemon: 'test', destination: stream });
  return { logger, lines: () => chunks.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>), raw: () => chunks.join('') };
}

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

describe('logs', () => {
  it('redacts secrets by key, inside free text and by registered value', () => {
    const { logger, raw, lines } = capture();
    registerSecret('s3cr3t-registered-value');
    logger.info({
      authorization: 'Apikey hk_abcdef123456',
      nested: { access_token: 'ya29.tokenvalue', refresh_token: 'rt-1234567890', client_secret: 'cs-abcdefgh', webhook_url: 'https://discord.com/api/webhooks/1/abc' },
      error: 'GET https://api.telegram.org/bot123456:AAbbCCddEEffGGhh/sendMessage failed; callback ?code=authcode123&state=s1 with Bearer eyJhbGciOi and hk_zzzzzzzzzzzz',
      note: 'the key is s3cr3t-registered-value',
      status: 401, reauth_required: true,
    }, 'call failed for hk_messagekey999 via https://discord.com/api/webhooks/123/tok-en_value');
    const out = raw();
    for (const secret of ['hk_abcdef123456', 'ya29.tokenvalue', 'rt-1234567890', 'cs-abcdefgh', 'AAbbCCddEEffGGhh', 'authcode123', 'eyJhbGciOi', 'hk_zzzzzzzzzzzz', 's3cr3t-registered-value', 'hk_messagekey999', 'tok-en_value', '/webhooks/1/abc']) {
      expect(out).not.toContain(secret);
    }
    const [line] = lines();
    expect(line).toMatchObject({ level: 'info', daemon: 'test', status: 401, reauth_required: true, authorization: '[redacted]', nested: { access_token: '[redacted]' } });
    expect(line!.msg).toBe('call failed for hk_[redacted] via https://discord.com/api/webhooks/123/[redacted]');
    expect(line!.error).toContain('state=s1');
  });

  it('writes human-readable lines when pretty, still scrubbed', async () => {
    const stream = new PassThrough();
    const chunks: string[] = [];
    stream.on('data', (b: Buffer) => chunks.push(b.toString()));
    const logger = createLogger({ level: 'info', pretty: true, daemon: 'test', destination: stream });
    logger.info({ route: '/x', authorization: 'Apikey hk_prettysecret1' }, 'pretty line');
    // pino-pretty may write on a later tick: wait for the line, not for a fixed time.
    for (const deadline = Date.now() + 60_000; !chunks.join('').includes('pretty line') && Date.now() < deadline;) await new Promise((r) => setImmediate(r));
    const out = chunks.join('');
    expect(out).toContain('pretty line');
    expect(out).toContain('route: "/x"');
    expect(() => JSON.parse(out.trim().split('\n')[0]!)).toThrow();
    expect(out).not.toContain('hk_prettysecret1');
  });

  it('honours the level', () => {
    const { logger, lines } = capture('warn');
    logger.info('hidden');
    logger.warn('shown');
    expect(lines().map((l) => l.msg)).toEqual(['shown']);
  });

  it('reads HERALD_LOG_LEVEL and HERALD_LOG_PRETTY, refusing unknown levels', () => {
    expect(loadConfig({ HERALD_LOG_LEVEL: 'debug', HERALD_LOG_PRETTY: 'true' }).observability).toMatchObject({ logLevel: 'debug', logPretty: true });
    expect(loadConfig({}).observability).toMatchObject({ logLevel: 'info', logPretty: undefined, opsHost: '127.0.0.1', opsPorts: {} });
    expect(() => loadConfig({ HERALD_LOG_LEVEL: 'loud' })).toThrow(/HERALD_LOG_LEVEL/);
    expect(loadConfig({ HERALD_OPS_PORT: '9100', HERALD_WORKER_OPS_PORT: '9101' }).observability.opsPorts).toEqual({ '*': 9100, worker: 9101 });
  });
});

describe('metrics', () => {
  it('exports every metric of the port with its labels', async () => {
    const metrics = createPrometheusMetrics({ defaultLabels: { daemon: 'worker' }, processMetrics: false });
    metrics.inc('herald_uploads_completed_total', { network: 'discord' });
    metrics.inc('herald_uploads_failed_total', { network: 'x', error_code: 'duplicate_content' }, 2);
    metrics.observe('herald_publish_latency_seconds', { network: 'discord' }, 1.5);
    metrics.set('herald_webhook_breaker_state', { state: 'open' }, 3);
    const samples = parsePrometheus(await metrics.text());
    expect(valueOf(samples, 'herald_uploads_completed_total', { daemon: 'worker', network: 'discord' })).toBe(1);
    expect(valueOf(samples, 'herald_uploads_failed_total', { network: 'x', error_code: 'duplicate_content' })).toBe(2);
    expect(valueOf(samples, 'herald_publish_latency_seconds_count', { network: 'discord' })).toBe(1);
    expect(valueOf(samples, 'herald_publish_latency_seconds_bucket', { network: 'discord', le: '2.5' })).toBe(1);
    expect(valueOf(samples, 'herald_publish_latency_seconds_bucket', { network: 'discord', le: '1' })).toBe(0);
    expect(valueOf(samples, 'herald_webhook_breaker_state', { state: 'open' })).toBe(3);
    // Metrics that did not move are still described.
    expect(await metrics.text()).toContain('# TYPE herald_token_refreshes_total counter');
  });

  it('names network operations by route template, never by ids or tokens', () => {
    expect(operationOf('post', 'https://discord.com/api/v10/webhooks/1234567890/AbCdEf_gh-IJ?wait=true')).toBe('POST /api/v10/webhooks/:id/:id');
    expect(operationOf('GET', 'https://api.telegram.org/bot123:ABCdef/getChat')).toBe('GET /:id/getChat');
    expect(operationOf('POST', 'https://graph.facebook.com/v21.0/17841400000000/media_publish')).toBe('POST /v21.0/:id/media_publish');
    expect(operationOf('POST', 'https://open.tiktokapis.com/v2/post/publish/video/init/')).toBe('POST /v2/post/publish/video/init/');
  });
});

describe('operator port', () => {
  it('serves liveness, readiness naming what is down (a hanging check included) and metrics behind the token', async () => {
    const ops = await startOpsServer({
      host: '127.0.0.1', port: 0, token: 'ops-token-123',
      checks: { mongodb: async () => true, redis: async () => { throw new Error('down'); }, temporal: () => new Promise<boolean>(() => undefined) },
      metrics: async () => ({ contentType: 'text/plain; version=0.0.4', text: 'herald_x 1\n' }),
    });
    try {
      expect((await fetch(`${ops.url}/healthz`)).status).toBe(200);
      const ready = await fetch(`${ops.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ success: false, error_code: 'not_ready', checks: { mongodb: true, redis: false, temporal: false }, message: 'Not ready: redis, temporal unreachable.' });
      expect((await fetch(`${ops.url}/metrics`)).status).toBe(401);
      expect((await fetch(`${ops.url}/metrics`, { headers: { Authorization: 'Bearer wrong-token-12' } })).status).toBe(401);
      const metrics = await fetch(`${ops.url}/metrics`, { headers: { Authorization: 'Bearer ops-token-123' } });
      expect(await metrics.text()).toBe('herald_x 1\n');
      expect((await fetch(`${ops.url}/other`)).status).toBe(404);
    } finally {
      await ops.close();
    }
  });
});

describe('worker pools', () => {
  it('selects the configured pools with their concurrency, refusing unknown names', () => {
    expect(selectPools(loadConfig({})).map((p) => p.name)).toEqual(POOLS.map((p) => p.name));
    const config = loadConfig({ HERALD_WORKER_POOLS: 'publish', HERALD_POOL_PUBLISH_CONCURRENCY: '25' });
    const [publish] = selectPools(config);
    expect(publish!.name).toBe('publish');
    expect(publish!.taskQueue(config)).toBe('herald');
    expect(concurrencyOf(config, publish!)).toBe(25);
    expect(concurrencyOf(loadConfig({}), publish!)).toBe(publish!.defaultConcurrency);
    expect(() => selectPools(loadConfig({ HERALD_WORKER_POOLS: 'publish,nope' }))).toThrow(/unknown pools: nope; known: publish/);
    expect(() => loadConfig({ HERALD_POOL_MEDIA_CONCURRENCY: '0' })).toThrow(/HERALD_POOL_MEDIA_CONCURRENCY/);
  });
});

describe('traces', () => {
  it('records the API request as a server span and each network call as its child, with network and operation', async () => {
    const exporter = new InMemorySpanExporter();
    const tracing = startTracing({ serviceName: 'herald-test', exporter });
    const network = createServer((_req, res) => res.end(JSON.stringify({ ok: true })));
    const networkUrl = await listen(network);
    const app = new Koa();
    const { logger, lines } = capture();
    const metrics = createPrometheusMetrics({ processMetrics: false });
    const call = tracedFetch('discord', { metrics });
    app.use(observeHttp({ logger, metrics }));
    app.use(healthRoutes({ ok: async () => true }));
    const router = new Router();
    router.post('/things/:id', async (ctx) => {
      ctx.body = await (await call(`${networkUrl}/api/v10/webhooks/42/secret-token-value`, { method: 'POST' })).json();
    });
    app.use(router.routes());
    const server = createServer(app.callback());
    const base = await listen(server);
    try {
      expect(tracing.enabled).toBe(true);
      const res = await fetch(`${base}/things/abc`, { method: 'POST' });
      expect(res.status).toBe(200);
      const spans = exporter.getFinishedSpans();
      const serverSpan = spans.find((s) => s.kind === SpanKind.SERVER)!;
      const clientSpan = spans.find((s) => s.kind === SpanKind.CLIENT)!;
      expect(serverSpan.name).toBe('POST /things/:id');
      expect(serverSpan.attributes).toMatchObject({ 'http.route': '/things/:id', 'http.response.status_code': 200 });
      expect(clientSpan.name).toBe('discord POST /api/v10/webhooks/:id/:id');
      expect(clientSpan.attributes).toMatchObject({ 'herald.network': 'discord', 'herald.operation': 'POST /api/v10/webhooks/:id/:id', 'http.response.status_code': 200 });
      expect(clientSpan.spanContext().traceId).toBe(serverSpan.spanContext().traceId);
      expect(clientSpan.parentSpanId).toBe(serverSpan.spanContext().spanId);
      expect(JSON.stringify(spans.map((s) => [s.name, s.attributes]))).not.toContain('secret-token-value');
      const [line] = lines().filter((l) => l.msg === 'request');
      expect(line).toMatchObject({ method: 'POST', route: '/things/:id', status: 200, trace_id: serverSpan.spanContext().traceId, req_id: res.headers.get('x-herald-req-id') });
      const samples = parsePrometheus(await metrics.text());
      expect(valueOf(samples, 'herald_network_call_duration_seconds_count', { network: 'discord', outcome: '2xx' })).toBe(1);
      expect(valueOf(samples, 'herald_http_requests_total', { method: 'POST', route: '/things/:id', status: '200' })).toBe(1);
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
      expect((await fetch(`${base}/nothing/here`)).status).toBe(404);
      expect(valueOf(parsePrometheus(await metrics.text()), 'herald_http_requests_total', { route: 'unmatched', status: '404' })).toBe(1);
    } finally {
      server.close();
      network.close();
      await tracing.shutdown();
    }
  });
});
