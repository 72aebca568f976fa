import { randomUUID } from 'node:crypto';
import type { Context, Middleware, Next } from 'koa';
import type { Logger } from 'pino';
import { SpanKind, SpanStatusCode, trace, type Span, type Tracer } from '@opentelemetry/api';
import { tracingActive } from '../../adapters/telemetry/tracing-active';
import type { Metrics } from '../../core/ports/metrics';
import { livenessBody, readiness, readinessBody, type ReadinessCheck } from './ops-server';

/** Paths answered outside any router, with the template they are logged and counted under. */
const FIXED_ROUTES: Array<[RegExp, string]> = [
  [/^\/healthz$/, '/healthz'],
  [/^\/readyz$/, '/readyz'],
  [/^\/media\/[^/]+$/, '/media/:id'],
];

/** The route template of the answered request (@koa/router's matched path), never the raw URL. */
export function routeOf(ctx: Context): string {
  const matched = (ctx as Context & { _matchedRoute?: unknown })._matchedRoute;
  if (typeof matched === 'string') return matched;
  return FIXED_ROUTES.find(([re]) => re.test(ctx.path))?.[1] ?? 'unmatched';
}

/**
 * The first middleware of every HTTP daemon: one log line per request (method, route template,
 * status, latency, operator account, request id), the request metrics, and a server span around
 * the request (trace context taken from a `traceparent` header when the propagator is set).
 * `X-Herald-Req-Id` on the answer is the request's id in the logs. Without a tracer given and no
 * tracer provider registered (tracing off), no span is made: it would record nothing.
 */
export function observeHttp(opts: { logger: Logger; metrics: Metrics; tracer?: Tracer }): Middleware {
  const tracer = opts.tracer ?? trace.getTracer('herald-http');
  const record = (ctx: Context, reqId: string, t0: number, span?: Span) => {
    const route = routeOf(ctx);
    const status = ctx.status;
    const seconds = (performance.now() - t0) / 1000;
    const accountId = (ctx.state as { caller?: { account?: { id?: string } } }).caller?.account?.id;
    let traceId: string | undefined;
    if (span) {
      span.updateName(`${ctx.method} ${route}`);
      span.setAttributes({ 'http.route': route, 'http.response.status_code': status, ...(accountId ? { 'herald.account_id': accountId } : {}) });
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      if (span.isRecording()) traceId = span.spanContext().traceId;
      span.end();
    }
    opts.metrics.inc('herald_http_requests_total', { method: ctx.method, route, status: String(status) });
    opts.metrics.observe('herald_http_request_duration_seconds', { method: ctx.method, route }, seconds);
    // Fields in the order the line has always had them.
    const fields: Record<string, unknown> = { req_id: reqId, method: ctx.method, route, status, latency_ms: Math.round(seconds * 10_000) / 10 };
    if (accountId) fields.account_id = accountId;
    if (traceId !== undefined) fields.trace_id = traceId;
    if (status >= 500) opts.logger.error(fields, 'request');
    else opts.logger.info(fields, 'request');
  };
  return (ctx: Context, next: Next) => {
    const reqId = randomUUID();
    const t0 = performance.now();
    ctx.set('X-Herald-Req-Id', reqId);
    if (!opts.tracer && !tracingActive()) {
      return (async () => {
        try {
          await next();
        } finally {
          record(ctx, reqId, t0);
        }
      })();
    }
    return tracer.startActiveSpan(`${ctx.method}`, { kind: SpanKind.SERVER, attributes: { 'http.request.method': ctx.method, 'herald.req_id': reqId } }, async (span) => {
      try {
        await next();
      } finally {
        record(ctx, reqId, t0, span);
      }
    });
  };
}

/**
 * GET /healthz (liveness) and GET /readyz (the daemon's dependencies), on a daemon's public port.
 * `checks`: a map of checks, or one function answering every check's result.
 */
export function healthRoutes(checks: Record<string, ReadinessCheck> | (() => Promise<Record<string, boolean>>)): Middleware {
  return async (ctx: Context, next: Next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === '/healthz') {
      ctx.body = livenessBody();
      return;
    }
    if (ctx.path !== '/readyz') return next();
    const result = typeof checks === 'function'
      ? await checks().then((c) => ({ ok: Object.values(c).every(Boolean), checks: c }))
      : await readiness(checks);
    ctx.status = result.ok ? 200 : 503;
    ctx.body = readinessBody(result);
  };
}
