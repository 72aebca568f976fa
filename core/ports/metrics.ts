/**
 * What Herald counts, written once: the metric names, their help text and label names. Use cases
 * and adapters count through the `Metrics` port; the daemons export it (Prometheus, adapters/
 * telemetry/prometheus.ts). Adding a metric is one entry here; label values must come from small
 * sets (network ids, error codes, outcomes), never ids of accounts, posts or requests.
 */
export const METRICS = {
  herald_http_requests_total: { kind: 'counter', help: 'HTTP requests answered, by method, route template and status', labels: ['method', 'route', 'status'] },
  herald_http_request_duration_seconds: {
    kind: 'histogram', help: 'HTTP request latency, by method and route template', labels: ['method', 'route'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  },
  herald_uploads_accepted_total: { kind: 'counter', help: 'Upload targets accepted at intake (stored, to be published), by network', labels: ['network'] },
  herald_uploads_completed_total: { kind: 'counter', help: 'Upload targets published successfully, by network', labels: ['network'] },
  herald_uploads_failed_total: { kind: 'counter', help: 'Upload targets that failed for good (intake prechecks included), by network and error code', labels: ['network', 'error_code'] },
  herald_publish_latency_seconds: {
    kind: 'histogram', help: 'From when a target was due (accepted, or its scheduled time) to its published result, by network', labels: ['network'],
    buckets: [0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900, 3600],
  },
  herald_network_call_duration_seconds: {
    kind: 'histogram', help: 'HTTP calls to the networks, by network, operation and outcome (HTTP status class, or no_response)', labels: ['network', 'operation', 'outcome'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  },
  herald_token_refreshes_total: { kind: 'counter', help: 'OAuth token refreshes, by network and outcome (ok, failed)', labels: ['network', 'outcome'] },
  herald_account_pauses_total: { kind: 'counter', help: 'Connected accounts paused by a network verdict, by network and reason', labels: ['network', 'reason'] },
  herald_accounts_reauth_required_total: { kind: 'counter', help: 'Connected accounts marked reauth_required (the network refused renewed credentials), by network', labels: ['network'] },
  // Hooks for the notification and media work (counted by their use cases through this port).
  herald_webhook_deliveries_total: { kind: 'counter', help: 'Webhook delivery attempts, by event and outcome (delivered, failed, dropped)', labels: ['event', 'outcome'] },
  herald_webhook_breaker_state: { kind: 'gauge', help: 'Webhook endpoints per circuit-breaker state (closed, open, half_open)', labels: ['state'] },
  herald_media_job_minutes_total: { kind: 'counter', help: 'Media-job minutes processed, by job kind and plan', labels: ['kind', 'plan'] },
  herald_workflow_task_queue_info: { kind: 'gauge', help: 'Worker pools this process runs (1 per pool and task queue)', labels: ['pool', 'task_queue'] },
} as const;

export type MetricName = keyof typeof METRICS;
type Def<N extends MetricName> = (typeof METRICS)[N];
export type CounterName = { [N in MetricName]: Def<N>['kind'] extends 'counter' ? N : never }[MetricName];
export type HistogramName = { [N in MetricName]: Def<N>['kind'] extends 'histogram' ? N : never }[MetricName];
export type GaugeName = { [N in MetricName]: Def<N>['kind'] extends 'gauge' ? N : never }[MetricName];
export type MetricLabels<N extends MetricName> = Record<Def<N>['labels'][number], string>;

export interface Metrics {
  inc<N extends CounterName>(name: N, labels: MetricLabels<N>, by?: number): void;
  /** A value in the metric's unit (seconds for durations). */
  observe<N extends HistogramName>(name: N, labels: MetricLabels<N>, value: number): void;
  set<N extends GaugeName>(name: N, labels: MetricLabels<N>, value: number): void;
}

/** Counts nothing: the default where no exporter is wired (tests, the CLI). */
export const noMetrics: Metrics = { inc: () => undefined, observe: () => undefined, set: () => undefined };
