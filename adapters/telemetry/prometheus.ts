import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { METRICS, type MetricName, type Metrics } from '../../core/ports/metrics';

export interface PrometheusMetrics extends Metrics {
  registry: Registry;
  /** The exposition text (Prometheus text format 0.0.4). */
  text(): Promise<string>;
  contentType: string;
}

/**
 * The Metrics port over prom-client: one registry per process holding every metric of
 * core/ports/metrics.ts (so a scrape lists them all, at 0 until they move) and Node's own
 * process metrics. `defaultLabels` go on every series (e.g. the daemon or pool).
 */
export function createPrometheusMetrics(opts: { defaultLabels?: Record<string, string>; processMetrics?: boolean } = {}): PrometheusMetrics {
  const registry = new Registry();
  if (opts.defaultLabels) registry.setDefaultLabels(opts.defaultLabels);
  if (opts.processMetrics !== false) collectDefaultMetrics({ register: registry, prefix: 'herald_' });
  const series = new Map<MetricName, Counter | Histogram | Gauge>();
  for (const [name, def] of Object.entries(METRICS) as [MetricName, (typeof METRICS)[MetricName]][]) {
    const common = { name, help: def.help, labelNames: [...def.labels], registers: [registry] };
    series.set(name, def.kind === 'counter' ? new Counter(common)
      : def.kind === 'gauge' ? new Gauge(common)
      : new Histogram({ ...common, buckets: [...(def as { buckets: readonly number[] }).buckets] }));
  }
  return {
    registry,
    contentType: registry.contentType,
    text: () => registry.metrics(),
    inc: (name, labels, by = 1) => (series.get(name) as Counter).inc(labels as Record<string, string>, by),
    observe: (name, labels, value) => (series.get(name) as Histogram).observe(labels as Record<string, string>, value),
    set: (name, labels, value) => (series.get(name) as Gauge).set(labels as Record<string, string>, value),
  };
}
