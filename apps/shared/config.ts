import { DEFAULT_MEDIA_SANDBOX, type MediaSandboxConfig } from '../../adapters/media/ffmpeg-processor';
import { DEFAULT_UPLOAD_TIMING, type UploadTiming } from '../../core/ports/upload-runner';
import { DEFAULT_CHECKPOINT_PROBE_INTERVAL_MS } from '../../core/ports/checkpoint-probes';
import { loadPlatformSettings, type PlatformSettings } from './platforms';
import { DEFAULT_LIFECYCLE_SETTINGS, type LifecycleSettings } from '../../core/domain/connection-lifecycle';
import { DEFAULT_MEDIA_JOB_TIMING, type MediaJobTiming } from '../../core/ports/media-job-runner';
import { DEFAULT_SNAPSHOT_SETTINGS, type AnalyticsSnapshotSettings } from '../../core/ports/analytics-snapshots';
import { DEFAULT_CONNECTION_CACHE_MS } from '../../core/usecases/connection-read-cache';
import { defaultRateLimitLease } from '../../core/ports/rate-limit';

/** Every setting of the daemons, read from the environment here and nowhere else. */
export interface HeraldConfig {
  namespace: string;
  api: { host: string; port: number; trustProxy: number; syncTimeoutMs: number; shutdownGraceMs: number; duplicateWindowMs: number; statusCacheMs: number; authCacheMs: number; connectionCacheMs: number };
  mongoUri: string;
  /** Concurrent database operations per process (the MongoDB driver's maxPoolSize). */
  mongoMaxPoolSize: number;
  redisUrl: string;
  /** Prefix of every Redis key, so several Herald installations (or test stacks) can share one Redis. */
  redisKeyPrefix: string;
  temporal: { address: string; namespace: string; taskQueue: string };
  secretKey: string | undefined;
  /**
   * HERALD_SECRETS_ACCEPT_UNBOUND (default true): open values sealed before they were bound to
   * their record; `false` once `herald secrets reseal` ran (docs/security/at-rest.md).
   */
  secretsAcceptUnbound: boolean;
  /** Per network: base URLs, OAuth client credentials, timeout (apps/shared/platforms.ts lists the variables). */
  platforms: PlatformSettings;
  rateLimit: { points: number; windowSeconds: number; lease: number; authMaxFailures: number; authBlockSeconds: number };
  uploadTiming: UploadTiming;
  reconciler: { intervalMs: number; pendingAfterMs: number };
  /** How often a checkpointed Instagram or Threads account is asked whether the checkpoint is gone. */
  checkpointProbe: { intervalMs: number };
  /** Connected-account lifecycle thresholds and refresh-ahead timing (core/domain/connection-lifecycle.ts). */
  lifecycle: LifecycleSettings;
  media: { dir: string; publicBaseUrl: string; urlTtlSeconds: number; maxBytes: number; fetchAllow: string[]; fetchTimeoutMs: number };
  /**
   * Media-processing jobs: their task queue (served by a worker of its own), where each run's
   * scratch directory goes, the output size limit, run timing, and whether this worker daemon
   * serves the media queue at all.
   */
  mediaJobs: { taskQueue: string; scratchDir: string; maxOutputBytes: number; progressWriteMs: number; heartbeatEveryMs: number; sandbox: MediaSandboxConfig; timing: MediaJobTiming };
  /**
   * Benchmarks and profiling: the API answers with a Server-Timing header (where each request's
   * time went) and the worker logs the database commands it sends. Off in production.
   */
  debugTiming: boolean;
  /** Logs, metrics, traces and the operator port (apps/shared/observability.ts). */
  observability: ObservabilityConfig;
  /** Which worker pools (task queues) this worker process runs, with their concurrency (apps/worker/pools.ts). */
  workerPools: { selected: string[] | undefined; concurrency: Record<string, number> };
  /** Webhook and chat notifications (apps/shared/notifications.ts builds them). */
  notifications: NotificationConfig;
  /**
   * The hosted connect page daemon (apps/web): where it listens, its address as browsers reach it
   * (the API's access_url points there) and how long a connect link works.
   */
  web: { host: string; port: number; publicBaseUrl: string; connectLinkTtlMs: number; shutdownGraceMs: number };
  /**
   * The MCP daemon (apps/mcp): where it listens, its address as agents reach it (the OAuth issuer
   * and the protected resource `{publicBaseUrl}/mcp`), the API it forwards tool calls to, and the
   * lifetimes of its OAuth codes and tokens.
   */
  mcp: { host: string; port: number; publicBaseUrl: string; apiBaseUrl: string; codeTtlMs: number; accessTokenTtlMs: number; refreshTokenTtlMs: number; base64MaxBytes: number; uploadDir: string; oauthRateLimit: boolean };
  /** Live analytics answers (GET /analytics, post metrics, audience, suggestions) are reused this long (HERALD_ANALYTICS_CACHE_MS). */
  analytics: { cacheMs: number };
  /** Stored analytics history and post metrics (apps/shared/analytics.ts builds them). */
  analyticsHistory: AnalyticsConfig;
}

export interface AnalyticsConfig {
  /** The analytics worker pool's task queue (HERALD_ANALYTICS_TASK_QUEUE, default `<HERALD_TASK_QUEUE>-analytics`). */
  taskQueue: string;
  /** The snapshot workflow's settings (core/ports/analytics-snapshots.ts). */
  snapshot: AnalyticsSnapshotSettings;
  /** Accounts measured at once per activity. */
  snapshotConcurrency: number;
  snapshotRetentionMs: number;
  /** Live post metrics: limit per operator account and window, cache time, how long fetches stay listed. */
  liveLimit: { points: number; windowSeconds: number };
  liveCacheMs: number;
  captureRetentionMs: number;
  /** How far back profile_snapshot_* look. */
  snapshotLookbackDays: number;
  /** Series documents read at once per request (a year of one series is one document). */
  readConcurrency: number;
}

export interface ObservabilityConfig {
  /** HERALD_LOG_LEVEL: trace, debug, info (default), warn, error, fatal, silent. */
  logLevel: string;
  /** HERALD_LOG_PRETTY: true/false; unset = pretty only when stdout is a terminal. */
  logPretty: boolean | undefined;
  /** HERALD_OPS_HOST: where the operator port (/metrics, /healthz, /readyz) listens; loopback by default. */
  opsHost: string;
  /** HERALD_OPS_PORT, or HERALD_<DAEMON>_OPS_PORT per daemon (API, WORKER, WEB, MCP, SANDBOX); unset = any free port (logged). */
  opsPorts: Record<string, number>;
  /** HERALD_OPS_TOKEN: when set, /metrics on the operator port asks for `Authorization: Bearer <token>`. */
  opsToken: string | undefined;
  /** HERALD_OTLP_TRACES_URL (e.g. http://collector:4318/v1/traces): traces exported there; unset = tracing off. */
  otlpTracesUrl: string | undefined;
  /** HERALD_OTLP_HEADERS: `name=value,name=value` sent with each export (collector auth). */
  otlpHeaders: Record<string, string>;
  /** HERALD_TEMPORAL_SDK_METRICS=false turns off the Temporal worker's own metrics on /metrics. */
  temporalSdkMetrics: boolean;
  /** HERALD_TEMPORAL_UI_URL: the Temporal Web UI, for links the CLI prints. */
  temporalUiUrl: string;
}

export interface NotificationConfig {
  headerPrefix: string;
  userAgent: string;
  receiverTimeoutMs: number;
  /** Hosts or host:port pairs webhook and Slack URLs may use although private (tests, sandbox). */
  allow: string[];
  breakerFailures: number;
  breakerPauseMs: number;
  /** A closed, idle channel workflow ends after this long. */
  channelIdleMs: number;
  telegram: { botToken: string | null; apiBase: string };
  /** How often the worker reads the outbox. */
  pollMs: number;
  /** How long delivery attempts are kept (HERALD_DELIVERY_LOG_RETENTION_DAYS, 30 days). */
  retentionMs: number;
  /** How long handed events are kept (HERALD_EVENT_RETENTION_DAYS, 30 days). */
  eventRetentionMs: number;
  cleanupIntervalMs: number;
  /** The task queue of the notification channel workflows (the `notify` worker pool). */
  taskQueue: string;
}

type Env = Record<string, string | undefined>;

const DAY_MS = 86_400_000;
/** The delivery log's and the handed events' default retention, in days. */
const DEFAULT_RETENTION_DAYS = 30;

const SANDBOX_MODES = ['auto', 'bwrap', 'unshare', 'userns', 'none'] as const;
function sandboxMode(raw: string | undefined): MediaSandboxConfig['mode'] {
  if (!raw) return 'auto';
  if (!(SANDBOX_MODES as readonly string[]).includes(raw)) throw new Error(`HERALD_MEDIA_SANDBOX must be one of ${SANDBOX_MODES.join(', ')} (got "${raw}")`);
  return raw as MediaSandboxConfig['mode'];
}

function int(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

/**
 * `HERALD_TRUST_PROXY`: how many reverse proxies stand in front of the daemons, each appending the
 * address it received the request from to `X-Forwarded-For`. The client address is the entry that
 * many places from the end: the one the outermost trusted proxy wrote. Entries before it are the
 * client's own to write and never trusted. `true` is one proxy; unset or `false`, none (the socket's
 * address is the client's). See docs/security/auth-block.md.
 */
function trustProxyOf(env: Env): number {
  const raw = env.HERALD_TRUST_PROXY;
  if (raw === 'true') return 1;
  if (raw === 'false') return 0;
  return int(env, 'HERALD_TRUST_PROXY', 0);
}

/** A period: 0 would probe in a tight loop. */
function positive(env: Env, name: string, fallback: number): number {
  const value = int(env, name, fallback);
  if (value === 0) throw new Error(`${name} must be a positive integer`);
  return value;
}

/** `HERALD_NAMESPACE`: the `svc` path segment of every route. */
function namespaceOf(env: Env): string {
  const namespace = env.HERALD_NAMESPACE ?? 'herald';
  if (!/^[a-z0-9][a-z0-9_-]*$/.test(namespace)) throw new Error(`HERALD_NAMESPACE must be a lower-case path segment, got "${namespace}"`);
  return namespace;
}

/**
 * Herald's address as networks and browsers reach it (media URLs, OAuth callbacks):
 * `HERALD_PUBLIC_BASE_URL`, else the API's own listen address. No trailing slash.
 */
function publicBaseUrlOf(env: Env): string {
  const raw = env.HERALD_PUBLIC_BASE_URL || `http://${env.HERALD_API_HOST ?? '127.0.0.1'}:${int(env, 'HERALD_API_PORT', 8787)}`;
  return raw.replace(/\/+$/, '');
}

export function loadConfig(env: Env = process.env): HeraldConfig {
  const namespace = namespaceOf(env);
  const rateLimitPoints = int(env, 'HERALD_RATE_LIMIT_POINTS', 300);
  return {
    namespace,
    api: {
      host: env.HERALD_API_HOST ?? '127.0.0.1',
      port: int(env, 'HERALD_API_PORT', 8787),
      trustProxy: trustProxyOf(env),
      syncTimeoutMs: int(env, 'HERALD_SYNC_TIMEOUT_MS', 59_000),
      shutdownGraceMs: int(env, 'HERALD_SHUTDOWN_GRACE_MS', 30_000),
      // Identical uploads (same profile, platforms, content) within this window return the first one.
      duplicateWindowMs: int(env, 'HERALD_DUPLICATE_WINDOW_MS', 5 * 60_000),
      // Status reads are cached this long (the spec: 2-5 s).
      statusCacheMs: int(env, 'HERALD_STATUS_CACHE_MS', 2_000),
      // Verified API keys are remembered this long per API process: a key revoked (or a plan
      // changed) with the CLI is honoured within this bound. 0 reads the database on every request.
      authCacheMs: int(env, 'HERALD_AUTH_CACHE_MS', 5_000),
      // Connected-account records are reused this long by the synchronous read routes of one API
      // process (media list, comments, lookups, live analytics); other processes' writes are seen
      // within this bound. 0 reads the database on every request.
      connectionCacheMs: int(env, 'HERALD_CONNECTION_CACHE_MS', DEFAULT_CONNECTION_CACHE_MS),
    },
    mongoUri: env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017/herald',
    // FerretDB 1.x holds one PostgreSQL connection for an update's query while it takes a second
    // for the write: when every pool connection is held that way it deadlocks. Keeping each
    // process's concurrent operations small keeps the sum below FerretDB's pool (ops: 40).
    mongoMaxPoolSize: int(env, 'HERALD_MONGO_MAX_POOL_SIZE', 10),
    redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    analytics: { cacheMs: int(env, 'HERALD_ANALYTICS_CACHE_MS', 5 * 60_000) },
    redisKeyPrefix: env.HERALD_REDIS_PREFIX ?? 'herald',
    temporal: {
      address: env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233',
      namespace: env.TEMPORAL_NAMESPACE ?? 'default',
      taskQueue: env.HERALD_TASK_QUEUE ?? 'herald',
    },
    secretKey: env.HERALD_SECRET_KEY,
    secretsAcceptUnbound: env.HERALD_SECRETS_ACCEPT_UNBOUND !== 'false',
    platforms: loadPlatformSettings(env),
    rateLimit: {
      points: rateLimitPoints,
      windowSeconds: int(env, 'HERALD_RATE_LIMIT_WINDOW_SECONDS', 60),
      lease: int(env, 'HERALD_RATE_LIMIT_LEASE', defaultRateLimitLease(rateLimitPoints)),
      authMaxFailures: int(env, 'HERALD_AUTH_MAX_FAILURES', 10),
      authBlockSeconds: int(env, 'HERALD_AUTH_BLOCK_SECONDS', 300),
    },
    uploadTiming: {
      publishTimeoutMs: int(env, 'HERALD_PUBLISH_TIMEOUT_MS', DEFAULT_UPLOAD_TIMING.publishTimeoutMs),
      heartbeatTimeoutMs: int(env, 'HERALD_HEARTBEAT_TIMEOUT_MS', DEFAULT_UPLOAD_TIMING.heartbeatTimeoutMs),
      maxPlatformRetries: int(env, 'HERALD_PLATFORM_RETRIES', DEFAULT_UPLOAD_TIMING.maxPlatformRetries),
      transientBackoffMs: int(env, 'HERALD_TRANSIENT_BACKOFF_MS', DEFAULT_UPLOAD_TIMING.transientBackoffMs),
      maxRetryAfterMs: int(env, 'HERALD_MAX_RETRY_AFTER_MS', DEFAULT_UPLOAD_TIMING.maxRetryAfterMs),
    },
    reconciler: {
      intervalMs: int(env, 'HERALD_RECONCILE_INTERVAL_MS', 30_000),
      pendingAfterMs: int(env, 'HERALD_RECONCILE_PENDING_AFTER_MS', 30_000),
    },
    checkpointProbe: {
      intervalMs: positive(env, 'HERALD_CHECKPOINT_PROBE_INTERVAL_MS', DEFAULT_CHECKPOINT_PROBE_INTERVAL_MS),
    },
    lifecycle: {
      refreshFailures: positive(env, 'HERALD_REFRESH_FAILURE_THRESHOLD', DEFAULT_LIFECYCLE_SETTINGS.refreshFailures),
      authStrikes: positive(env, 'HERALD_MAX_AUTH_STRIKES', DEFAULT_LIFECYCLE_SETTINGS.authStrikes),
      blockedAfterMs: positive(env, 'HERALD_REAUTH_BLOCKED_AFTER_MS', DEFAULT_LIFECYCLE_SETTINGS.blockedAfterMs),
      refreshMarginMs: int(env, 'HERALD_REFRESH_AHEAD_MARGIN_MS', DEFAULT_LIFECYCLE_SETTINGS.refreshMarginMs),
      refreshMinPeriodMs: positive(env, 'HERALD_REFRESH_AHEAD_MIN_PERIOD_MS', DEFAULT_LIFECYCLE_SETTINGS.refreshMinPeriodMs),
      refreshRetryMs: positive(env, 'HERALD_REFRESH_AHEAD_RETRY_MS', DEFAULT_LIFECYCLE_SETTINGS.refreshRetryMs),
    },
    media: {
      dir: env.HERALD_MEDIA_DIR ?? `${process.cwd()}/.herald/media`,
      // Where networks fetch stored media from: the API's own address unless a public one is set.
      publicBaseUrl: publicBaseUrlOf(env),
      urlTtlSeconds: int(env, 'HERALD_MEDIA_URL_TTL_SECONDS', 24 * 3600),
      // Files over 1 GB are routine for video: the default cap is 10 GB, streamed to disk.
      maxBytes: int(env, 'HERALD_MEDIA_MAX_BYTES', 10 * 1024 ** 3),
      // host:port pairs media URLs may use although they are private (the sandbox simulators).
      fetchAllow: (env.HERALD_MEDIA_FETCH_ALLOW ?? '').split(',').map((s) => s.trim()).filter(Boolean),
      fetchTimeoutMs: int(env, 'HERALD_MEDIA_FETCH_TIMEOUT_MS', 10 * 60_000),
    },
    mediaJobs: {
      taskQueue: env.HERALD_MEDIA_TASK_QUEUE || `${env.HERALD_TASK_QUEUE ?? 'herald'}-media`,
      scratchDir: env.HERALD_MEDIA_SCRATCH_DIR ?? `${process.cwd()}/.herald/media-scratch`,
      maxOutputBytes: int(env, 'HERALD_MEDIA_JOB_MAX_OUTPUT_BYTES', 4 * 1024 ** 3),
      progressWriteMs: int(env, 'HERALD_MEDIA_JOB_PROGRESS_WRITE_MS', 1_000),
      heartbeatEveryMs: positive(env, 'HERALD_MEDIA_JOB_HEARTBEAT_EVERY_MS', 2_000),
      sandbox: {
        mode: sandboxMode(env.HERALD_MEDIA_SANDBOX),
        user: env.HERALD_MEDIA_USER || DEFAULT_MEDIA_SANDBOX.user,
        memoryBytes: positive(env, 'HERALD_MEDIA_MEMORY_BYTES', DEFAULT_MEDIA_SANDBOX.memoryBytes),
        openFiles: positive(env, 'HERALD_MEDIA_OPEN_FILES', DEFAULT_MEDIA_SANDBOX.openFiles),
      },
      timing: {
        timeLimitMs: positive(env, 'HERALD_MEDIA_JOB_TIME_LIMIT_MS', DEFAULT_MEDIA_JOB_TIMING.timeLimitMs),
        heartbeatTimeoutMs: positive(env, 'HERALD_MEDIA_JOB_HEARTBEAT_TIMEOUT_MS', DEFAULT_MEDIA_JOB_TIMING.heartbeatTimeoutMs),
        // How long a finished job's files (output and inputs) stay in the media store before the job's
        // workflow deletes them: HERALD_MEDIA_JOB_FILE_RETENTION_HOURS (default 24), or the older
        // HERALD_MEDIA_JOB_OUTPUT_TTL_MS in milliseconds, which wins when set.
        outputTtlMs: env.HERALD_MEDIA_JOB_OUTPUT_TTL_MS
          ? positive(env, 'HERALD_MEDIA_JOB_OUTPUT_TTL_MS', DEFAULT_MEDIA_JOB_TIMING.outputTtlMs)
          : positive(env, 'HERALD_MEDIA_JOB_FILE_RETENTION_HOURS', DEFAULT_MEDIA_JOB_TIMING.outputTtlMs / 3600_000) * 3600_000,
        maxAttempts: positive(env, 'HERALD_MEDIA_JOB_MAX_ATTEMPTS', DEFAULT_MEDIA_JOB_TIMING.maxAttempts),
      },
    },
    debugTiming: env.HERALD_DEBUG_TIMING === 'true',
    observability: loadObservability(env),
    workerPools: loadWorkerPools(env),
    analyticsHistory: {
      taskQueue: env.HERALD_ANALYTICS_TASK_QUEUE || `${env.HERALD_TASK_QUEUE ?? 'herald'}-analytics`,
      snapshot: {
        periodMs: positive(env, 'HERALD_ANALYTICS_SNAPSHOT_PERIOD_MS', DEFAULT_SNAPSHOT_SETTINGS.periodMs),
        offsetMs: int(env, 'HERALD_ANALYTICS_SNAPSHOT_OFFSET_MS', DEFAULT_SNAPSHOT_SETTINGS.offsetMs),
        pageSize: positive(env, 'HERALD_ANALYTICS_SNAPSHOT_PAGE_SIZE', DEFAULT_SNAPSHOT_SETTINGS.pageSize),
      },
      snapshotConcurrency: positive(env, 'HERALD_ANALYTICS_SNAPSHOT_CONCURRENCY', 4),
      snapshotRetentionMs: positive(env, 'HERALD_ANALYTICS_SNAPSHOT_RETENTION_MS', 400 * 86_400_000),
      liveLimit: {
        points: positive(env, 'HERALD_POST_ANALYTICS_LIMIT', 100),
        windowSeconds: positive(env, 'HERALD_POST_ANALYTICS_WINDOW_SECONDS', 300),
      },
      liveCacheMs: positive(env, 'HERALD_POST_ANALYTICS_CACHE_MS', 60_000),
      captureRetentionMs: positive(env, 'HERALD_POST_ANALYTICS_RETENTION_MS', 90 * 86_400_000),
      snapshotLookbackDays: positive(env, 'HERALD_ANALYTICS_SNAPSHOT_LOOKBACK_DAYS', 30),
      readConcurrency: positive(env, 'HERALD_ANALYTICS_READ_CONCURRENCY', 8),
    },
    notifications: {
      headerPrefix: env.HERALD_WEBHOOK_HEADER_PREFIX ?? 'X-Herald-',
      userAgent: env.HERALD_WEBHOOK_USER_AGENT ?? 'Herald-Webhooks/1.0',
      receiverTimeoutMs: positive(env, 'HERALD_WEBHOOK_TIMEOUT_MS', 10_000),
      allow: (env.HERALD_WEBHOOK_ALLOW ?? '').split(',').map((s) => s.trim()).filter(Boolean),
      breakerFailures: positive(env, 'HERALD_WEBHOOK_BREAKER_FAILURES', 5),
      breakerPauseMs: positive(env, 'HERALD_WEBHOOK_BREAKER_PAUSE_MS', 30 * 60_000),
      channelIdleMs: positive(env, 'HERALD_WEBHOOK_CHANNEL_IDLE_MS', 60 * 60_000),
      telegram: {
        botToken: env.HERALD_NOTIFY_TELEGRAM_BOT_TOKEN || null,
        apiBase: env.HERALD_NOTIFY_TELEGRAM_API_BASE ?? 'https://api.telegram.org',
      },
      pollMs: positive(env, 'HERALD_NOTIFY_POLL_MS', 1_000),
      // Delivery attempts: HERALD_DELIVERY_LOG_RETENTION_DAYS (default 30), or the older
      // HERALD_DELIVERY_LOG_RETENTION_MS, which wins when set (tests use minutes).
      retentionMs: env.HERALD_DELIVERY_LOG_RETENTION_MS
        ? positive(env, 'HERALD_DELIVERY_LOG_RETENTION_MS', DEFAULT_RETENTION_DAYS * DAY_MS)
        : positive(env, 'HERALD_DELIVERY_LOG_RETENTION_DAYS', DEFAULT_RETENTION_DAYS) * DAY_MS,
      // Events handed to their channels (a redelivery needs its event): HERALD_EVENT_RETENTION_DAYS, default 30.
      eventRetentionMs: positive(env, 'HERALD_EVENT_RETENTION_DAYS', DEFAULT_RETENTION_DAYS) * DAY_MS,
      cleanupIntervalMs: positive(env, 'HERALD_NOTIFY_CLEANUP_INTERVAL_MS', 3600_000),
      taskQueue: env.HERALD_NOTIFY_TASK_QUEUE || `${env.HERALD_TASK_QUEUE ?? 'herald'}-notify`,
    },
    web: {
      host: env.HERALD_WEB_HOST ?? '127.0.0.1',
      port: int(env, 'HERALD_WEB_PORT', 8788),
      publicBaseUrl: (env.HERALD_WEB_PUBLIC_URL || `http://${env.HERALD_WEB_HOST ?? '127.0.0.1'}:${int(env, 'HERALD_WEB_PORT', 8788)}`).replace(/\/+$/, ''),
      // The spec's 48 hours; tests shorten it.
      connectLinkTtlMs: positive(env, 'HERALD_CONNECT_LINK_TTL_MS', 48 * 3600_000),
      shutdownGraceMs: int(env, 'HERALD_SHUTDOWN_GRACE_MS', 30_000),
    },
    mcp: {
      host: env.HERALD_MCP_HOST ?? '127.0.0.1',
      port: int(env, 'HERALD_MCP_PORT', 8789),
      publicBaseUrl: (env.HERALD_MCP_PUBLIC_URL || `http://${env.HERALD_MCP_HOST ?? '127.0.0.1'}:${int(env, 'HERALD_MCP_PORT', 8789)}`).replace(/\/+$/, ''),
      // Tool calls are REST calls to this API (its own listen address unless set).
      apiBaseUrl: (env.HERALD_MCP_API_URL || `http://${env.HERALD_API_HOST ?? '127.0.0.1'}:${int(env, 'HERALD_API_PORT', 8787)}`).replace(/\/+$/, ''),
      codeTtlMs: positive(env, 'HERALD_MCP_CODE_TTL_MS', 5 * 60_000),
      accessTokenTtlMs: positive(env, 'HERALD_MCP_ACCESS_TOKEN_TTL_MS', 3600_000),
      refreshTokenTtlMs: positive(env, 'HERALD_MCP_REFRESH_TOKEN_TTL_MS', 30 * 24 * 3600_000),
      // Files passed inline as base64 (decoded into a multipart request); larger ones go by URL or upload handle.
      base64MaxBytes: positive(env, 'HERALD_MCP_BASE64_MAX_BYTES', 10 * 1024 * 1024),
      // Upload handles' files (an hour each); one daemon's, or a volume its replicas share.
      uploadDir: env.HERALD_MCP_UPLOAD_DIR ?? `${process.cwd()}/.herald/mcp-uploads`,
      // The SDK's per-address limits on the OAuth endpoints; tests that register many clients turn them off.
      oauthRateLimit: env.HERALD_MCP_OAUTH_RATE_LIMIT !== 'false',
    },
  };
}

function loadObservability(env: Env): ObservabilityConfig {
  const logLevel = env.HERALD_LOG_LEVEL || 'info';
  if (!['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'].includes(logLevel)) {
    throw new Error(`HERALD_LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent; got "${logLevel}"`);
  }
  const opsPorts: Record<string, number> = {};
  if (env.HERALD_OPS_PORT) opsPorts['*'] = int(env, 'HERALD_OPS_PORT', 0);
  for (const name of Object.keys(env)) {
    const daemon = /^HERALD_([A-Z0-9]+)_OPS_PORT$/.exec(name)?.[1];
    if (daemon && env[name]) opsPorts[daemon.toLowerCase()] = int(env, name, 0);
  }
  const otlpHeaders: Record<string, string> = {};
  for (const pair of (env.HERALD_OTLP_HEADERS ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new Error('HERALD_OTLP_HEADERS must be name=value pairs separated by commas');
    otlpHeaders[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
  }
  return {
    logLevel,
    logPretty: env.HERALD_LOG_PRETTY === 'true' ? true : env.HERALD_LOG_PRETTY === 'false' ? false : undefined,
    opsHost: env.HERALD_OPS_HOST || '127.0.0.1',
    opsPorts,
    opsToken: env.HERALD_OPS_TOKEN || undefined,
    otlpTracesUrl: env.HERALD_OTLP_TRACES_URL || undefined,
    otlpHeaders,
    temporalSdkMetrics: env.HERALD_TEMPORAL_SDK_METRICS !== 'false',
    temporalUiUrl: (env.HERALD_TEMPORAL_UI_URL || 'http://127.0.0.1:8233').replace(/\/+$/, ''),
  };
}

/** HERALD_WORKER_POOLS=publish,media (unset: every pool); HERALD_POOL_<NAME>_CONCURRENCY=<activities at once>. */
function loadWorkerPools(env: Env): HeraldConfig['workerPools'] {
  const raw = env.HERALD_WORKER_POOLS?.trim();
  const selected = raw && raw !== 'all' ? raw.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean) : undefined;
  const concurrency: Record<string, number> = {};
  for (const name of Object.keys(env)) {
    const pool = /^HERALD_POOL_([A-Z0-9_]+)_CONCURRENCY$/.exec(name)?.[1];
    if (pool && env[name]) concurrency[pool.toLowerCase()] = positive(env, name, 1);
  }
  return { selected, concurrency };
}

export function requireSecretKey(config: HeraldConfig): string {
  if (!config.secretKey) {
    throw new Error('HERALD_SECRET_KEY is not set: credentials are encrypted at rest with it. Generate one with `openssl rand -base64 32` (ops/start.sh does this for local runs).');
  }
  return config.secretKey;
}
