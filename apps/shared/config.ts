import type { MediaSandboxConfig } from '../../adapters/media/ffmpeg-processor';
import type { UploadTiming } from '../../core/ports/upload-runner';
import { loadPlatformSettings, type PlatformSettings } from './platforms';
import type { LifecycleSettings } from '../../core/domain/connection-lifecycle';
import type { MediaJobTiming } from '../../core/ports/media-job-runner';
import type { AnalyticsSnapshotSettings } from '../../core/ports/analytics-snapshots';
import { setting, settingFamily, type Env, type SettingName, type SettingValue } from './settings';

/** Every setting of the daemons, read from the environment here (declared in settings.ts). */
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
  mediaUploads: { ttlMs: number; resumableAboveBytes: number; cleanupIntervalMs: number };
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
  /** HERALD_CHECK_RESPONSES: the API checks its answers against the catalogue (test tiers). */
  checkResponses: boolean;
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
  /** Loopback on any port too (the sandbox). */
  allowLoopback: boolean;
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

const DAY_MS = 86_400_000;
const HOUR_MS = 3600_000;

/**
 * The configuration, from the environment. Every variable, its default, meaning and parser is
 * declared once in settings.ts (docs/configuration.md is generated from it); this only arranges
 * the values.
 */
export function loadConfig(env: Env = process.env): HeraldConfig {
  const get = <K extends SettingName>(name: K): SettingValue<K> => setting(env, name);
  const namespace = get('HERALD_NAMESPACE');
  const rateLimitPoints = get('HERALD_RATE_LIMIT_POINTS');
  return {
    namespace,
    api: {
      host: get('HERALD_API_HOST'),
      port: get('HERALD_API_PORT'),
      trustProxy: get('HERALD_TRUST_PROXY'),
      syncTimeoutMs: get('HERALD_SYNC_TIMEOUT_MS'),
      shutdownGraceMs: get('HERALD_SHUTDOWN_GRACE_MS'),
      duplicateWindowMs: get('HERALD_DUPLICATE_WINDOW_MS'),
      statusCacheMs: get('HERALD_STATUS_CACHE_MS'),
      authCacheMs: get('HERALD_AUTH_CACHE_MS'),
      connectionCacheMs: get('HERALD_CONNECTION_CACHE_MS'),
    },
    mongoUri: get('MONGODB_URI'),
    mongoMaxPoolSize: get('HERALD_MONGO_MAX_POOL_SIZE'),
    redisUrl: get('REDIS_URL'),
    analytics: { cacheMs: get('HERALD_ANALYTICS_CACHE_MS') },
    redisKeyPrefix: get('HERALD_REDIS_PREFIX'),
    temporal: {
      address: get('TEMPORAL_ADDRESS'),
      namespace: get('TEMPORAL_NAMESPACE'),
      taskQueue: get('HERALD_TASK_QUEUE'),
    },
    secretKey: get('HERALD_SECRET_KEY'),
    secretsAcceptUnbound: get('HERALD_SECRETS_ACCEPT_UNBOUND'),
    platforms: loadPlatformSettings(env),
    rateLimit: {
      points: rateLimitPoints,
      windowSeconds: get('HERALD_RATE_LIMIT_WINDOW_SECONDS'),
      lease: get('HERALD_RATE_LIMIT_LEASE'),
      authMaxFailures: get('HERALD_AUTH_MAX_FAILURES'),
      authBlockSeconds: get('HERALD_AUTH_BLOCK_SECONDS'),
    },
    uploadTiming: {
      publishTimeoutMs: get('HERALD_PUBLISH_TIMEOUT_MS'),
      heartbeatTimeoutMs: get('HERALD_HEARTBEAT_TIMEOUT_MS'),
      maxPlatformRetries: get('HERALD_PLATFORM_RETRIES'),
      transientBackoffMs: get('HERALD_TRANSIENT_BACKOFF_MS'),
      maxRetryAfterMs: get('HERALD_MAX_RETRY_AFTER_MS'),
    },
    reconciler: {
      intervalMs: get('HERALD_RECONCILE_INTERVAL_MS'),
      pendingAfterMs: get('HERALD_RECONCILE_PENDING_AFTER_MS'),
    },
    checkpointProbe: {
      intervalMs: get('HERALD_CHECKPOINT_PROBE_INTERVAL_MS'),
    },
    lifecycle: {
      refreshFailures: get('HERALD_REFRESH_FAILURE_THRESHOLD'),
      authStrikes: get('HERALD_MAX_AUTH_STRIKES'),
      blockedAfterMs: get('HERALD_REAUTH_BLOCKED_AFTER_MS'),
      refreshMarginMs: get('HERALD_REFRESH_AHEAD_MARGIN_MS'),
      refreshMinPeriodMs: get('HERALD_REFRESH_AHEAD_MIN_PERIOD_MS'),
      refreshRetryMs: get('HERALD_REFRESH_AHEAD_RETRY_MS'),
    },
    media: {
      dir: get('HERALD_MEDIA_DIR'),
      publicBaseUrl: get('HERALD_PUBLIC_BASE_URL'),
      urlTtlSeconds: get('HERALD_MEDIA_URL_TTL_SECONDS'),
      maxBytes: get('HERALD_MEDIA_MAX_BYTES'),
      fetchAllow: get('HERALD_MEDIA_FETCH_ALLOW'),
      fetchTimeoutMs: get('HERALD_MEDIA_FETCH_TIMEOUT_MS'),
    },
    mediaUploads: {
      ttlMs: get('HERALD_MEDIA_UPLOAD_TTL_MS'),
      resumableAboveBytes: get('HERALD_MEDIA_UPLOAD_RESUMABLE_BYTES'),
      cleanupIntervalMs: get('HERALD_MEDIA_UPLOAD_CLEANUP_INTERVAL_MS'),
    },
    mediaJobs: {
      taskQueue: get('HERALD_MEDIA_TASK_QUEUE'),
      scratchDir: get('HERALD_MEDIA_SCRATCH_DIR'),
      maxOutputBytes: get('HERALD_MEDIA_JOB_MAX_OUTPUT_BYTES'),
      progressWriteMs: get('HERALD_MEDIA_JOB_PROGRESS_WRITE_MS'),
      heartbeatEveryMs: get('HERALD_MEDIA_JOB_HEARTBEAT_EVERY_MS'),
      sandbox: {
        mode: get('HERALD_MEDIA_SANDBOX'),
        user: get('HERALD_MEDIA_USER'),
        memoryBytes: get('HERALD_MEDIA_MEMORY_BYTES'),
        openFiles: get('HERALD_MEDIA_OPEN_FILES'),
      },
      timing: {
        timeLimitMs: get('HERALD_MEDIA_JOB_TIME_LIMIT_MS'),
        heartbeatTimeoutMs: get('HERALD_MEDIA_JOB_HEARTBEAT_TIMEOUT_MS'),
        // HERALD_MEDIA_JOB_FILE_RETENTION_HOURS, or the older HERALD_MEDIA_JOB_OUTPUT_TTL_MS, which wins when set.
        outputTtlMs: get('HERALD_MEDIA_JOB_OUTPUT_TTL_MS') ?? get('HERALD_MEDIA_JOB_FILE_RETENTION_HOURS') * HOUR_MS,
        maxAttempts: get('HERALD_MEDIA_JOB_MAX_ATTEMPTS'),
      },
    },
    debugTiming: get('HERALD_DEBUG_TIMING'),
    checkResponses: get('HERALD_CHECK_RESPONSES'),
    observability: loadObservability(env),
    workerPools: { selected: get('HERALD_WORKER_POOLS'), concurrency: settingFamily(env, 'HERALD_POOL_<NAME>_CONCURRENCY') },
    analyticsHistory: {
      taskQueue: get('HERALD_ANALYTICS_TASK_QUEUE'),
      snapshot: {
        periodMs: get('HERALD_ANALYTICS_SNAPSHOT_PERIOD_MS'),
        offsetMs: get('HERALD_ANALYTICS_SNAPSHOT_OFFSET_MS'),
        pageSize: get('HERALD_ANALYTICS_SNAPSHOT_PAGE_SIZE'),
      },
      snapshotConcurrency: get('HERALD_ANALYTICS_SNAPSHOT_CONCURRENCY'),
      snapshotRetentionMs: get('HERALD_ANALYTICS_SNAPSHOT_RETENTION_MS'),
      liveLimit: {
        points: get('HERALD_POST_ANALYTICS_LIMIT'),
        windowSeconds: get('HERALD_POST_ANALYTICS_WINDOW_SECONDS'),
      },
      liveCacheMs: get('HERALD_POST_ANALYTICS_CACHE_MS'),
      captureRetentionMs: get('HERALD_POST_ANALYTICS_RETENTION_MS'),
      snapshotLookbackDays: get('HERALD_ANALYTICS_SNAPSHOT_LOOKBACK_DAYS'),
      readConcurrency: get('HERALD_ANALYTICS_READ_CONCURRENCY'),
    },
    notifications: {
      headerPrefix: get('HERALD_WEBHOOK_HEADER_PREFIX'),
      userAgent: get('HERALD_WEBHOOK_USER_AGENT'),
      receiverTimeoutMs: get('HERALD_WEBHOOK_TIMEOUT_MS'),
      allow: get('HERALD_WEBHOOK_ALLOW'),
      allowLoopback: get('HERALD_WEBHOOK_ALLOW_LOOPBACK'),
      breakerFailures: get('HERALD_WEBHOOK_BREAKER_FAILURES'),
      breakerPauseMs: get('HERALD_WEBHOOK_BREAKER_PAUSE_MS'),
      channelIdleMs: get('HERALD_WEBHOOK_CHANNEL_IDLE_MS'),
      telegram: {
        botToken: get('HERALD_NOTIFY_TELEGRAM_BOT_TOKEN') ?? null,
        apiBase: get('HERALD_NOTIFY_TELEGRAM_API_BASE'),
      },
      pollMs: get('HERALD_NOTIFY_POLL_MS'),
      // HERALD_DELIVERY_LOG_RETENTION_DAYS, or the older HERALD_DELIVERY_LOG_RETENTION_MS, which wins when set (tests use minutes).
      retentionMs: get('HERALD_DELIVERY_LOG_RETENTION_MS') ?? get('HERALD_DELIVERY_LOG_RETENTION_DAYS') * DAY_MS,
      eventRetentionMs: get('HERALD_EVENT_RETENTION_DAYS') * DAY_MS,
      cleanupIntervalMs: get('HERALD_NOTIFY_CLEANUP_INTERVAL_MS'),
      taskQueue: get('HERALD_NOTIFY_TASK_QUEUE'),
    },
    web: {
      host: get('HERALD_WEB_HOST'),
      port: get('HERALD_WEB_PORT'),
      publicBaseUrl: get('HERALD_WEB_PUBLIC_URL'),
      connectLinkTtlMs: get('HERALD_CONNECT_LINK_TTL_MS'),
      shutdownGraceMs: get('HERALD_SHUTDOWN_GRACE_MS'),
    },
    mcp: {
      host: get('HERALD_MCP_HOST'),
      port: get('HERALD_MCP_PORT'),
      publicBaseUrl: get('HERALD_MCP_PUBLIC_URL'),
      apiBaseUrl: get('HERALD_MCP_API_URL'),
      codeTtlMs: get('HERALD_MCP_CODE_TTL_MS'),
      accessTokenTtlMs: get('HERALD_MCP_ACCESS_TOKEN_TTL_MS'),
      refreshTokenTtlMs: get('HERALD_MCP_REFRESH_TOKEN_TTL_MS'),
      base64MaxBytes: get('HERALD_MCP_BASE64_MAX_BYTES'),
      uploadDir: get('HERALD_MCP_UPLOAD_DIR'),
      oauthRateLimit: get('HERALD_MCP_OAUTH_RATE_LIMIT'),
    },
  };
}

function loadObservability(env: Env): ObservabilityConfig {
  const logLevel = setting(env, 'HERALD_LOG_LEVEL');
  const common = setting(env, 'HERALD_OPS_PORT');
  const opsPorts: Record<string, number> = {
    ...(common !== undefined ? { '*': common } : {}),
    ...settingFamily(env, 'HERALD_<DAEMON>_OPS_PORT'),
  };
  const otlpHeaders = setting(env, 'HERALD_OTLP_HEADERS');
  return {
    logLevel,
    logPretty: setting(env, 'HERALD_LOG_PRETTY'),
    opsHost: setting(env, 'HERALD_OPS_HOST'),
    opsPorts,
    opsToken: setting(env, 'HERALD_OPS_TOKEN'),
    otlpTracesUrl: setting(env, 'HERALD_OTLP_TRACES_URL'),
    otlpHeaders,
    temporalSdkMetrics: setting(env, 'HERALD_TEMPORAL_SDK_METRICS'),
    temporalUiUrl: setting(env, 'HERALD_TEMPORAL_UI_URL'),
  };
}

export function requireSecretKey(config: HeraldConfig): string {
  if (!config.secretKey) {
    throw new Error('HERALD_SECRET_KEY is not set: credentials are encrypted at rest with it. Generate one with `openssl rand -base64 32` (ops/start.sh does this for local runs).');
  }
  return config.secretKey;
}
