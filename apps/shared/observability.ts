import type { Logger } from 'pino';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import { createPrometheusMetrics, type PrometheusMetrics } from '../../adapters/telemetry/prometheus';
import { startTracing, type Tracing } from '../../adapters/telemetry/tracing';
import { tracedFetch } from '../../adapters/platforms/kit/traced-fetch';
import type { HeraldConfig } from './config';
import { createLogger, logWith, registerSecret, setRootLogger } from './logging';
import { startOpsServer, type OpsServer, type ReadinessCheck } from './ops-server';

/**
 * Logs, metrics and traces of one daemon, built from the configuration in its composition root:
 * `startObservability(config, 'api')` first thing, `serveOps(...)` once its dependencies are up.
 * Future daemons (web, MCP) call the same two functions and `observeHttp` for their Koa app.
 */
export interface Observability {
  daemon: string;
  logger: Logger;
  log: (message: string, fields?: Record<string, unknown>) => void;
  metrics: PrometheusMetrics;
  tracing: Tracing;
  /** The instrumented fetch each network adapter is built with (a span and a latency per call). */
  fetchOf: (network: string) => typeof fetch;
  /** More exposition text for /metrics (the Temporal SDK's own metrics in the worker). */
  addMetricsSource(source: () => Promise<string>): void;
  /** Starts the operator port (/healthz, /readyz, /metrics) with this daemon's readiness checks. */
  serveOps(checks: Record<string, ReadinessCheck>): Promise<OpsServer>;
  shutdown(): Promise<void>;
}

/** Every secret of the configuration, so no log line can print it even inside free text. */
function registerConfigSecrets(config: HeraldConfig): void {
  registerSecret(config.secretKey);
  registerSecret(config.observability.opsToken);
  for (const value of Object.values(config.observability.otlpHeaders)) registerSecret(value);
  for (const options of Object.values(config.platforms.networks)) {
    for (const [key, value] of Object.entries(options ?? {})) {
      if (typeof value === 'string' && /secret|token|password|key/i.test(key)) registerSecret(value);
    }
  }
  for (const uri of [config.mongoUri, config.redisUrl]) {
    try {
      registerSecret(decodeURIComponent(new URL(uri).password));
    } catch {
      // not a URL: nothing to register
    }
  }
}

export function startObservability(config: HeraldConfig, daemon: string, opts: { base?: Record<string, unknown>; spanExporter?: SpanExporter } = {}): Observability {
  const o = config.observability;
  registerConfigSecrets(config);
  const logger = setRootLogger(createLogger({
    level: o.logLevel, pretty: o.logPretty ?? Boolean(process.stdout.isTTY), daemon, ...(opts.base ? { base: opts.base } : {}),
  }));
  const metrics = createPrometheusMetrics({ defaultLabels: { daemon } });
  const tracing = startTracing({
    serviceName: `herald-${daemon}`,
    ...(opts.spanExporter ? { exporter: opts.spanExporter } : {}),
    ...(o.otlpTracesUrl ? { otlp: { url: o.otlpTracesUrl, headers: o.otlpHeaders } } : {}),
  });
  const sources: Array<() => Promise<string>> = [];
  let ops: OpsServer | undefined;
  const log = logWith(() => logger);
  return {
    daemon,
    logger,
    log,
    metrics,
    tracing,
    fetchOf: (network) => tracedFetch(network, { metrics }),
    addMetricsSource: (source) => { sources.push(source); },
    async serveOps(checks) {
      const port = o.opsPorts[daemon] ?? o.opsPorts['*'] ?? 0;
      ops = await startOpsServer({
        host: o.opsHost, port, checks, ...(o.opsToken ? { token: o.opsToken } : {}),
        metrics: async () => {
          const extra = await Promise.all(sources.map((s) => s().catch((err: Error) => `# source unavailable: ${err.message.replace(/\n/g, ' ')}\n`)));
          return { contentType: metrics.contentType, text: [await metrics.text(), ...extra].join('\n') };
        },
      });
      log('ops port listening', { url: ops.url, paths: ['/healthz', '/readyz', '/metrics'], metrics_token: Boolean(o.opsToken) });
      return ops;
    },
    async shutdown() {
      await Promise.allSettled([ops?.close(), tracing.shutdown()]);
      logger.flush();
    },
  };
}
