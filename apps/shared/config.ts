import { DEFAULT_UPLOAD_TIMING, type UploadTiming } from '../../core/ports/upload-runner';
import { DEFAULT_CHECKPOINT_PROBE_INTERVAL_MS } from '../../core/ports/checkpoint-probes';
import { loadPlatformSettings, type PlatformSettings } from './platforms';

/** Every setting of the daemons, read from the environment here and nowhere else. */
export interface HeraldConfig {
  namespace: string;
  api: { host: string; port: number; trustProxy: boolean; syncTimeoutMs: number; shutdownGraceMs: number; duplicateWindowMs: number; statusCacheMs: number; authCacheMs: number };
  mongoUri: string;
  /** Concurrent database operations per process (the MongoDB driver's maxPoolSize). */
  mongoMaxPoolSize: number;
  redisUrl: string;
  /** Prefix of every Redis key, so several Herald installations (or test stacks) can share one Redis. */
  redisKeyPrefix: string;
  temporal: { address: string; namespace: string; taskQueue: string };
  secretKey: string | undefined;
  /** Per network: base URLs, OAuth client credentials, timeout (apps/shared/platforms.ts lists the variables). */
  platforms: PlatformSettings;
  rateLimit: { points: number; windowSeconds: number; authMaxFailures: number; authBlockSeconds: number };
  uploadTiming: UploadTiming;
  reconciler: { intervalMs: number; pendingAfterMs: number };
  /** How often a checkpointed Instagram or Threads account is asked whether the checkpoint is gone. */
  checkpointProbe: { intervalMs: number };
  media: { dir: string; publicBaseUrl: string; urlTtlSeconds: number; maxBytes: number; fetchAllow: string[]; fetchTimeoutMs: number };
  /**
   * Benchmarks and profiling: the API answers with a Server-Timing header (where each request's
   * time went) and the worker logs the database commands it sends. Off in production.
   */
  debugTiming: boolean;
  /**
   * The hosted connect page daemon (apps/web): where it listens, its address as browsers reach it
   * (the API's access_url points there) and how long a connect link works.
   */
  web: { host: string; port: number; publicBaseUrl: string; connectLinkTtlMs: number; shutdownGraceMs: number };
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
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
  return {
    namespace,
    api: {
      host: env.HERALD_API_HOST ?? '127.0.0.1',
      port: int(env, 'HERALD_API_PORT', 8787),
      trustProxy: env.HERALD_TRUST_PROXY === 'true',
      syncTimeoutMs: int(env, 'HERALD_SYNC_TIMEOUT_MS', 59_000),
      shutdownGraceMs: int(env, 'HERALD_SHUTDOWN_GRACE_MS', 30_000),
      // Identical uploads (same profile, platforms, content) within this window return the first one.
      duplicateWindowMs: int(env, 'HERALD_DUPLICATE_WINDOW_MS', 5 * 60_000),
      // Status reads are cached this long (the spec: 2-5 s).
      statusCacheMs: int(env, 'HERALD_STATUS_CACHE_MS', 2_000),
      // Verified API keys are remembered this long per API process: a key revoked (or a plan
      // changed) with the CLI is honoured within this bound. 0 reads the database on every request.
      authCacheMs: int(env, 'HERALD_AUTH_CACHE_MS', 5_000),
    },
    mongoUri: env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017/herald',
    // FerretDB 1.x holds one PostgreSQL connection for an update's query while it takes a second
    // for the write: when every pool connection is held that way it deadlocks. Keeping each
    // process's concurrent operations small keeps the sum below FerretDB's pool (ops: 40).
    mongoMaxPoolSize: int(env, 'HERALD_MONGO_MAX_POOL_SIZE', 10),
    redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    redisKeyPrefix: env.HERALD_REDIS_PREFIX ?? 'herald',
    temporal: {
      address: env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233',
      namespace: env.TEMPORAL_NAMESPACE ?? 'default',
      taskQueue: env.HERALD_TASK_QUEUE ?? 'herald',
    },
    secretKey: env.HERALD_SECRET_KEY,
    platforms: loadPlatformSettings(env),
    rateLimit: {
      points: int(env, 'HERALD_RATE_LIMIT_POINTS', 300),
      windowSeconds: int(env, 'HERALD_RATE_LIMIT_WINDOW_SECONDS', 60),
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
    debugTiming: env.HERALD_DEBUG_TIMING === 'true',
    web: {
      host: env.HERALD_WEB_HOST ?? '127.0.0.1',
      port: int(env, 'HERALD_WEB_PORT', 8788),
      publicBaseUrl: (env.HERALD_WEB_PUBLIC_URL || `http://${env.HERALD_WEB_HOST ?? '127.0.0.1'}:${int(env, 'HERALD_WEB_PORT', 8788)}`).replace(/\/+$/, ''),
      // The spec's 48 hours; tests shorten it.
      connectLinkTtlMs: positive(env, 'HERALD_CONNECT_LINK_TTL_MS', 48 * 3600_000),
      shutdownGraceMs: int(env, 'HERALD_SHUTDOWN_GRACE_MS', 30_000),
    },
  };
}

export function requireSecretKey(config: HeraldConfig): string {
  if (!config.secretKey) {
    throw new Error('HERALD_SECRET_KEY is not set: credentials are encrypted at rest with it. Generate one with `openssl rand -base64 32` (ops/start.sh does this for local runs).');
  }
  return config.secretKey;
}
