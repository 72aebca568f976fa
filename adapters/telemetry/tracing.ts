import { trace, type Tracer } from '@opentelemetry/api';
import { Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, SimpleSpanProcessor, type SpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';

/** Tracing of one process: off (the OpenTelemetry API's no-op tracer) unless an exporter is configured. */
export interface Tracing {
  enabled: boolean;
  tracer: Tracer;
  /** For the Temporal worker's workflow-span sink (makeWorkflowExporter); undefined when off. */
  spanProcessor?: SpanProcessor;
  resource: Resource;
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  serviceName: string;
  /** Extra resource attributes (pool, version). */
  attributes?: Record<string, string>;
  /** OTLP/HTTP traces endpoint (…/v1/traces) and its headers. */
  otlp?: { url: string; headers?: Record<string, string> };
  /** Any exporter (tests: InMemorySpanExporter, exported synchronously). */
  exporter?: SpanExporter;
}

/**
 * Starts tracing when an exporter is configured: a Node tracer provider (async context
 * propagation) registered globally, so the HTTP middleware, the Temporal interceptors and the
 * platform kit's calls all record into it. Off, nothing is recorded and nothing is exported.
 */
export function startTracing(opts: TracingOptions): Tracing {
  const resource = new Resource({ 'service.name': opts.serviceName, ...opts.attributes });
  const processor = opts.exporter ? new SimpleSpanProcessor(opts.exporter)
    : opts.otlp ? new BatchSpanProcessor(new OTLPTraceExporter({ url: opts.otlp.url, headers: opts.otlp.headers ?? {} }))
    : undefined;
  if (!processor) {
    return { enabled: false, tracer: trace.getTracer('herald'), resource, shutdown: async () => undefined };
  }
  const provider = new NodeTracerProvider({ resource, spanProcessors: [processor] });
  provider.register();
  return {
    enabled: true,
    tracer: provider.getTracer('herald'),
    spanProcessor: processor,
    resource,
    shutdown: () => provider.shutdown(),
  };
}
