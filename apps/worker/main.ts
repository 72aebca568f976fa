import { DefaultLogger, NativeConnection, Runtime, makeTelemetryFilterString, type LogLevel } from '@temporalio/worker';
import { OpenTelemetryActivityInboundInterceptor, makeWorkflowExporter } from '@temporalio/interceptors-opentelemetry';
import { loadConfig, requireSecretKey } from '../shared/config';
import { buildMedia, buildPlatforms, buildSecretBox, connectMongo, connectRecordChanges, connectTemporal, log, logMongoCommands } from '../shared/compose';
import { startObservability } from '../shared/observability';
import { mongoReady, temporalReady } from '../shared/readiness';
import { freeLoopbackPort } from '../shared/ports';
import { POOLS, concurrencyOf, selectPools, type PoolContext, type RunningPool } from './pools';

async function main(): Promise<void> {
  const config = loadConfig();
  const secretKey = requireSecretKey(config);
  const pools = selectPools(config);
  const observability = startObservability(config, 'worker', { base: { pools: pools.map((p) => p.name) } });
  const { logger, tracing } = observability;

  // The Temporal SDK's own metrics (poll latencies, task slots, schedule-to-start…) on a loopback
  // port of its Rust core, appended to this daemon's /metrics; its log lines go through pino.
  let sdkMetricsPort = config.observability.temporalSdkMetrics ? await freeLoopbackPort() : undefined;
  const levels: Record<LogLevel, 'trace' | 'debug' | 'info' | 'warn' | 'error'> = { TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' };
  const install = (metricsPort: number | undefined) => Runtime.install({
    logger: new DefaultLogger('INFO', (entry) => logger[levels[entry.level]]({ sdk: 'temporal', ...entry.meta }, entry.message)),
    telemetryOptions: {
      logging: { filter: makeTelemetryFilterString({ core: 'WARN' }), forward: {} },
      ...(metricsPort ? { metrics: { prometheus: { bindAddress: `127.0.0.1:${metricsPort}` } } } : {}),
    },
  });
  try {
    install(sdkMetricsPort);
  } catch (err) {
    // The port was taken between choosing and binding it: the worker runs, without the SDK's metrics.
    if (!sdkMetricsPort) throw err;
    log('temporal sdk metrics unavailable', { warning: (err as Error).message });
    sdkMetricsPort = undefined;
    install(undefined);
  }
  if (sdkMetricsPort) {
    observability.addMetricsSource(async () => (await fetch(`http://127.0.0.1:${sdkMetricsPort}/metrics`)).text());
  }

  const secrets = buildSecretBox(config);
  const media = buildMedia(config, secretKey);
  // Connection state the worker writes (refreshes, reauth marks, pauses) reaches the API's caches at once.
  const changes = connectRecordChanges(config);
  const mongo = await connectMongo(config, { announce: changes.publisher, stamps: changes.stamps });
  const stopCommandLog = config.debugTiming ? logMongoCommands(mongo.client) : undefined;
  const temporal = await connectTemporal(config);
  const platforms = buildPlatforms(config, observability.fetchOf);
  const connection = await NativeConnection.connect({ address: config.temporal.address });

  const ctx: PoolContext = {
    config, mongo, temporal: temporal.client, connection, platforms, secrets, media, metrics: observability.metrics, log,
    workerOptions: (pool) => ({
      connection,
      namespace: config.temporal.namespace,
      taskQueue: pool.taskQueue(config),
      maxConcurrentActivityTaskExecutions: concurrencyOf(config, pool),
      // On SIGTERM running activities get this long to finish; what remains is handed back to Temporal.
      shutdownGraceTime: config.api.shutdownGraceMs,
      // Traces: each workflow and activity as a span, children of the API request that started it.
      ...(tracing.enabled && tracing.spanProcessor ? {
        interceptors: {
          workflowModules: [require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors')],
          activity: [(actx) => ({ inbound: new OpenTelemetryActivityInboundInterceptor(actx) })],
        },
        sinks: { exporter: makeWorkflowExporter(tracing.spanProcessor, tracing.resource) },
      } : {}),
    }),
  };

  const running: Array<RunningPool & { name: string }> = [];
  for (const pool of pools) {
    running.push({ name: pool.name, ...(await pool.start(ctx)) });
    observability.metrics.set('herald_workflow_task_queue_info', { pool: pool.name, task_queue: pool.taskQueue(config) }, 1);
  }

  await observability.serveOps({
    mongodb: mongoReady(mongo.db),
    temporal: temporalReady(temporal.connection),
    // Every pool's worker has started polling its task queue.
    polling: async () => running.every((r) => r.worker.getState() === 'RUNNING'),
  });

  log('herald worker running', {
    pools: pools.map((p) => ({ pool: p.name, task_queue: p.taskQueue(config), concurrency: concurrencyOf(config, p) })),
    known_pools: POOLS.map((p) => p.name),
    temporal: config.temporal.address,
    tracing: tracing.enabled,
  });
  // Worker.run resolves after SIGTERM/SIGINT once in-flight work is finished or handed back.
  await Promise.all(running.map((r) => r.worker.run()));
  for (const r of running) await r.stop?.();
  stopCommandLog?.();
  await Promise.allSettled([connection.close(), temporal.connection.close(), mongo.client.close(), changes.close(), observability.shutdown()]);
  log('herald worker stopped', {});
}

main().catch((err) => {
  log('herald worker failed', { error: (err as Error).stack ?? String(err) });
  process.exit(1);
});
