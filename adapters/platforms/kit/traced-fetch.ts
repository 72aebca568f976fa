/**
 * Every HTTP call to a network as a span (`<network> <operation>`) and a latency observation:
 * the fetch each adapter is built with (CommonOptions.fetch), so calls that do not go through
 * exchangeJson (byte uploads, redirects) are covered too. The operation is the method and the
 * URL path with ids and tokens replaced (`POST /v2/post/publish/:id/`): no credential or id
 * reaches a span or a label.
 */
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Metrics } from '../../../core/ports/metrics';
import { OVER_TRANSPORT, TEXT_EXCHANGE, type OverTransport, type TextExchange } from './http';
import { nodeTextExchange } from './node-http';
import { BoundedMemo } from '../../bounded-memo';
import { tracingActive } from '../../telemetry/tracing-active';

/** A path segment that is an id, a token or a handle, not part of the route. */
function isVariable(segment: string): boolean {
  if (/^v\d+(\.\d+)?$/.test(segment)) return false;
  if (/\d/.test(segment) || /[:@.=~%]/.test(segment) || segment.length >= 24 || /^[A-Za-z0-9_-]{16,}$/.test(segment)) return true;
  // Mixed case with a separator (`AbCd_ef-GH`) is a token; route words are lower_snake, kebab or camelCase.
  return /[A-Z]/.test(segment) && /[a-z]/.test(segment) && /[-_]/.test(segment);
}

export function operationOf(method: string, url: string): string {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    path = '/';
  }
  const template = path.split('/').map((s) => (s && isVariable(decodeURIComponent(s)) ? ':id' : s)).join('/');
  return `${method.toUpperCase()} ${template || '/'}`;
}

/** Operations already named, by method and URL without its query: most calls repeat a recent one. */
const operations = new BoundedMemo<string>(1000);

/** operationOf, remembered for the last 1,000 (method, URL without query) pairs. */
export function cachedOperationOf(method: string, url: string): string {
  const q = url.search(/[?#]/);
  return operations.get(`${method} ${q < 0 ? url : url.slice(0, q)}`, () => operationOf(method, url));
}

const methodOf = (input: Parameters<typeof fetch>[0], init?: RequestInit): string =>
  init?.method ?? (typeof input === 'object' && 'method' in input ? input.method : 'GET');

const urlOf = (input: Parameters<typeof fetch>[0]): string =>
  typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url;

/**
 * Spans are recorded while a tracer provider is registered (asked on each call); without one,
 * only the latency is observed: a no-op span would record nothing. Over the native fetch, the
 * returned function also carries the node:http JSON exchange (`TEXT_EXCHANGE`, used by
 * exchangeJson), observed the same way; a call it hands back to fetch is observed there; and
 * `OVER_TRANSPORT`, the same observation over another transport (self-hosted instances).
 */
export function tracedFetch(network: string, opts: { metrics?: Metrics; fetch?: typeof fetch } = {}): typeof fetch {
  const inner = opts.fetch ?? fetch;
  const tracer = trace.getTracer('herald-platforms');
  const observe = (operation: string, outcome: string, t0: number) =>
    opts.metrics?.observe('herald_network_call_duration_seconds', { network, operation, outcome }, (performance.now() - t0) / 1000);

  /** One call observed; `call` answering undefined (handed to fetch) is observed by that fetch. */
  async function observed<R extends { status: number } | undefined>(method: string, url: string, call: () => Promise<R>): Promise<R> {
    const operation = cachedOperationOf(method, url);
    const t0 = performance.now();
    if (!tracingActive()) {
      let outcome: string | undefined = 'no_response';
      try {
        const res = await call();
        outcome = res ? `${Math.floor(res.status / 100)}xx` : undefined;
        return res;
      } finally {
        if (outcome) observe(operation, outcome, t0);
      }
    }
    return tracer.startActiveSpan(`${network} ${operation}`, {
      kind: SpanKind.CLIENT,
      attributes: { 'herald.network': network, 'herald.operation': operation, 'http.request.method': method },
    }, async (span) => {
      let outcome: string | undefined = 'no_response';
      try {
        const res = await call();
        if (!res) {
          outcome = undefined;
          return res;
        }
        outcome = `${Math.floor(res.status / 100)}xx`;
        span.setAttribute('http.response.status_code', res.status);
        if (res.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        return res;
      } catch (err) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).name });
        throw err;
      } finally {
        // A call handed back to fetch (a body only fetch sends) is observed there; its span here
        // ends at once, marked so.
        if (!outcome) span.setAttribute('herald.handed_to_fetch', true);
        span.end();
        if (outcome) observe(operation, outcome, t0);
      }
    });
  }

  const traced = ((input: Parameters<typeof fetch>[0], init?: RequestInit) =>
    observed(methodOf(input, init), urlOf(input), () => inner(input, init))) as typeof fetch & { [TEXT_EXCHANGE]?: TextExchange; [OVER_TRANSPORT]?: OverTransport };
  if (!opts.fetch) {
    traced[TEXT_EXCHANGE] = (url, init) => observed((init.method ?? 'GET').toUpperCase(), url, () => nodeTextExchange(url, init));
    traced[OVER_TRANSPORT] = (transport) => tracedFetch(network, { ...opts, fetch: transport });
  }
  return traced;
}
