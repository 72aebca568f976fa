import { ProxyTracerProvider, trace } from '@opentelemetry/api';

/** What the OpenTelemetry API answers with while no tracer provider is registered. */
const NOOP_PROVIDER = new ProxyTracerProvider().getDelegate();

/**
 * Whether spans are recorded in this process: a tracer provider is registered globally
 * (adapters/telemetry/tracing.ts registers one when an exporter is configured). Off, the hot
 * paths (observeHttp, tracedFetch) skip the span machinery, whose spans would be no-ops anyway.
 * Checked on every call (a global read and a comparison), so tracing started later is seen.
 * A provider registered through another copy of the API package counts as on.
 */
export function tracingActive(): boolean {
  const provider = trace.getTracerProvider();
  return !(provider instanceof ProxyTracerProvider) || provider.getDelegate() !== NOOP_PROVIDER;
}
