import { DEFAULT_MEDIA_SANDBOX, type MediaSandboxConfig } from '../../adapters/media/ffmpeg-processor';
import { DEFAULT_UPLOAD_TIMING } from '../../core/ports/upload-runner';
import { DEFAULT_CHECKPOINT_PROBE_INTERVAL_MS } from '../../core/ports/checkpoint-probes';
import { DEFAULT_LIFECYCLE_SETTINGS } from '../../core/domain/connection-lifecycle';
import { DEFAULT_MEDIA_JOB_TIMING } from '../../core/ports/media-job-runner';
import { DEFAULT_SNAPSHOT_SETTINGS } from '../../core/ports/analytics-snapshots';
import { DEFAULT_CONNECTION_CACHE_MS } from '../../core/usecases/connection-read-cache';
import { defaultRateLimitLease } from '../../core/ports/rate-limit';

/**
 * Every environment variable of the daemons, declared once: its name, default, one-line meaning
 * and parser. The loader (config.ts) reads each value through `setting(env, NAME)`, and
 * docs/configuration.md is generated from this table (`npm run docs`, apps/docs/). The networks'
 * own variables are declared in each network's record (adapters/platforms/<net>/index.ts, its
 * `env` map) and read by platforms.ts; a few variables are read by the ops scripts or the tests
 * themselves (`readBy`): they are declared here so that one page lists them all.
 */

export type Env = Record<string, string | undefined>;

/** A default: a value, or computed from other settings (derived task queues, listen addresses). */
type Fallback<T> = T | ((env: Env) => T);

export interface Setting<T = unknown> {
  /** Set by `declare` from the table's key. */
  name: string;
  /** The section of docs/configuration.md. */
  group: string;
  /** One line: what the value changes. */
  meaning: string;
  /** The accepted values, as the docs show them. */
  type: string;
  /** The default, as the docs show it. */
  defaultText: string;
  /** Not read by the loader but by this file (an ops script, a test, another entry point). */
  readBy?: string;
  /** A family of variables (`HERALD_<DAEMON>_OPS_PORT`): the name is a pattern, this matches each member and captures its key. */
  pattern?: RegExp;
  read(env: Env, name?: string): T;
}

const fallbackOf = <T>(fallback: Fallback<T>, env: Env): T => (typeof fallback === 'function' ? (fallback as (env: Env) => T)(env) : fallback);

// ---------------------------------------------------------------------------------------------
// Parsers. Their error messages are the loader's: tests and operators match on them.

function intOf(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

/** A period or a count where 0 would mean a tight loop or nothing at all. */
function positiveOf(env: Env, name: string, fallback: number): number {
  const value = intOf(env, name, fallback);
  if (value === 0) throw new Error(`${name} must be a positive integer`);
  return value;
}

const listOf = (raw: string | undefined): string[] => (raw ?? '').split(',').map((s) => s.trim()).filter(Boolean);

interface Doc { meaning: string; defaultText?: string; readBy?: string }
type Draft<T> = Omit<Setting<T>, 'name' | 'group'>;

const MINUTE = 60_000;
const HOUR = 3600_000;
const DAY = 86_400_000;
const GIB = 1024 ** 3;
const MIB = 1024 ** 2;

/** `300000` → `300000 (5 min)`: milliseconds as people read them. */
export function describeMillis(ms: number): string {
  if (ms >= DAY && ms % DAY === 0) return `${ms} (${ms / DAY} ${ms === DAY ? 'day' : 'days'})`;
  if (ms >= HOUR && ms % HOUR === 0) return `${ms} (${ms / HOUR} h)`;
  if (ms > HOUR && ms % MINUTE === 0) return `${ms} (${Math.floor(ms / HOUR)} h ${(ms % HOUR) / MINUTE} min)`;
  if (ms >= MINUTE && ms % MINUTE === 0) return `${ms} (${ms / MINUTE} min)`;
  if (ms >= 1000 && ms % 1000 === 0) return `${ms} (${ms / 1000} s)`;
  return String(ms);
}

function describeBytes(bytes: number): string {
  if (bytes >= GIB && bytes % GIB === 0) return `${bytes} (${bytes / GIB} GiB)`;
  if (bytes >= MIB && bytes % MIB === 0) return `${bytes} (${bytes / MIB} MiB)`;
  return String(bytes);
}

function describeNumber(name: string, value: number): string {
  if (name.endsWith('_MS')) return describeMillis(value);
  if (name.endsWith('_BYTES')) return describeBytes(value);
  return String(value);
}

/** A non-negative integer; an empty value is the default. */
const int = (fallback: Fallback<number>, doc: Doc): Draft<number> => ({
  ...doc, type: 'integer ≥ 0', defaultText: doc.defaultText ?? '',
  read(env, name = '') { return intOf(env, name, fallbackOf(fallback, env)); },
});

/** A positive integer; an empty value is the default, 0 is refused. */
const positive = (fallback: Fallback<number>, doc: Doc): Draft<number> => ({
  ...doc, type: 'integer > 0', defaultText: doc.defaultText ?? '',
  read(env, name = '') { return positiveOf(env, name, fallbackOf(fallback, env)); },
});

/** A positive integer or nothing (an older spelling that wins when set). */
const optionalPositive = (doc: Doc): Draft<number | undefined> => ({
  ...doc, type: 'integer > 0', defaultText: doc.defaultText ?? 'unset',
  read(env, name = '') { return env[name] ? positiveOf(env, name, 0) : undefined; },
});

/** Text; only an unset variable takes the default (an empty one is kept). */
const text = (fallback: Fallback<string>, doc: Doc): Draft<string> => ({
  ...doc, type: 'text', defaultText: doc.defaultText ?? (typeof fallback === 'string' ? `\`${fallback}\`` : ''),
  read(env, name = '') { return env[name] ?? fallbackOf(fallback, env); },
});

/** Text; an unset or empty variable takes the default. */
const textOr = (fallback: Fallback<string>, doc: Doc): Draft<string> => ({
  ...doc, type: 'text', defaultText: doc.defaultText ?? (typeof fallback === 'string' ? `\`${fallback}\`` : ''),
  read(env, name = '') { return env[name] || fallbackOf(fallback, env); },
});

/** A URL without its trailing slashes; an unset or empty variable takes the default. */
const url = (fallback: Fallback<string>, doc: Doc): Draft<string> => ({
  ...doc, type: 'URL', defaultText: doc.defaultText ?? (typeof fallback === 'string' ? `\`${fallback}\`` : ''),
  read(env, name = '') { return (env[name] || fallbackOf(fallback, env)).replace(/\/+$/, ''); },
});

/** Text or nothing: an empty value counts as unset. */
const optional = (doc: Doc, type = 'text'): Draft<string | undefined> => ({
  ...doc, type, defaultText: doc.defaultText ?? 'unset',
  read(env, name = '') { return env[name] || undefined; },
});

/** The raw value, empty included (a secret read as it is given). */
const raw = (doc: Doc, type = 'text'): Draft<string | undefined> => ({
  ...doc, type, defaultText: doc.defaultText ?? 'unset',
  read(env, name = '') { return env[name]; },
});

/** Comma-separated values, spaces trimmed, empty entries dropped. */
const list = (doc: Doc, type = 'comma list'): Draft<string[]> => ({
  ...doc, type, defaultText: doc.defaultText ?? 'none',
  read(env, name = '') { return listOf(env[name]); },
});

/** On unless the value is exactly `false`. */
const flagOn = (doc: Doc): Draft<boolean> => ({
  ...doc, type: '`false` turns it off', defaultText: doc.defaultText ?? 'on',
  read(env, name = '') { return env[name] !== 'false'; },
});

/** Off unless the value is exactly `true`. */
const flagOff = (doc: Doc): Draft<boolean> => ({
  ...doc, type: '`true` turns it on', defaultText: doc.defaultText ?? 'off',
  read(env, name = '') { return env[name] === 'true'; },
});

/** A parser of its own. */
const custom = <T>(type: string, defaultText: string, doc: Doc, read: (env: Env, name: string) => T): Draft<T> => ({
  ...doc, type, defaultText, read(env, name = '') { return read(env, name); },
});

/** Documented here, read elsewhere (`readBy`): ops scripts and tests. */
const external = (type: string, defaultText: string, doc: Doc & { readBy: string }): Draft<string | undefined> => ({
  ...doc, type, defaultText, read(env, name = '') { return env[name]; },
});

const SANDBOX_MODES = ['auto', 'bwrap', 'unshare', 'userns', 'none'] as const;
const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

/** Every setting by name, filled as the sections are declared (defaults computed from other settings read it). */
const REGISTRY = new Map<string, Setting>();

/** Another setting's value, for a default computed from it. */
const ref = <T>(env: Env, name: string): T => REGISTRY.get(name)!.read(env, name) as T;

/** Fills in each draft's name and group, keeping the table's order. */
function section<T extends Record<string, Draft<unknown>>>(group: string, drafts: T): { [K in keyof T]: T[K] & Setting<ReturnType<T[K]['read']>> } {
  const out: Record<string, Setting> = {};
  for (const [name, draft] of Object.entries(drafts)) {
    const setting = { ...draft, name, group } as Setting;
    if (!setting.defaultText && !setting.pattern) {
      // A plain default value: shown as the loader uses it (durations and sizes readable).
      throw new Error(`setting ${name} has no default text`);
    }
    out[name] = setting;
    REGISTRY.set(name, setting);
  }
  return out as never;
}

/** The default text of a number setting whose default is a value. */
const n = (name: string, value: number): string => describeNumber(name, value);

// ---------------------------------------------------------------------------------------------
// The table. Sections follow docs/configuration.md.

const infrastructure = section('Infrastructure', {
  TEMPORAL_ADDRESS: text('127.0.0.1:7233', { meaning: 'Temporal frontend (`host:port`); a real cluster works the same.' }),
  TEMPORAL_NAMESPACE: text('default', { meaning: 'Temporal namespace of every workflow.' }),
  HERALD_TASK_QUEUE: text('herald', { meaning: 'Temporal task queue of the publish pool; the other pools derive theirs from it.' }),
  MONGODB_URI: text('mongodb://127.0.0.1:27017/herald', { meaning: 'MongoDB or FerretDB; the path names the database.' }),
  HERALD_MONGO_MAX_POOL_SIZE: int(10, {
    defaultText: '10',
    meaning: 'Concurrent database operations per process. On FerretDB 1.x keep the sum over all Herald processes well below FerretDB\'s PostgreSQL pool (`HERALD_FERRETDB_PG_CONNS`): it deadlocks when every connection holds an update\'s query.',
  }),
  REDIS_URL: text('redis://127.0.0.1:6379', { meaning: 'Redis: rate limits, the auth-failure guard, duplicate claims, caches and record-change announcements.' }),
  HERALD_REDIS_PREFIX: text('herald', { meaning: 'Prefix of every Redis key and channel, so several installations (or test stacks) can share one Redis.' }),
});

const api = section('API daemon', {
  HERALD_NAMESPACE: custom('lower-case path segment', '`herald`', { meaning: 'The `svc` path segment of every route (`/api/<namespace>/…`).' }, (env) => {
    const namespace = env.HERALD_NAMESPACE ?? 'herald';
    if (!/^[a-z0-9][a-z0-9_-]*$/.test(namespace)) throw new Error(`HERALD_NAMESPACE must be a lower-case path segment, got "${namespace}"`);
    return namespace;
  }),
  HERALD_API_HOST: text('127.0.0.1', { meaning: 'Address the API daemon listens on.' }),
  HERALD_API_PORT: int(8787, { defaultText: '8787', meaning: 'Port the API daemon listens on.' }),
  HERALD_PUBLIC_BASE_URL: url((env) => `http://${ref<string | number>(env, 'HERALD_API_HOST')}:${ref<string | number>(env, 'HERALD_API_PORT')}`, {
    defaultText: '`http://$HERALD_API_HOST:$HERALD_API_PORT`',
    meaning: 'Herald\'s address as networks and browsers reach it: OAuth callbacks, signed media URLs, the OpenAPI document\'s server.',
  }),
  HERALD_TRUST_PROXY: custom('integer ≥ 0, `true` (1) or `false` (0)', '0', {
    meaning: 'How many reverse proxies append to `X-Forwarded-For` in front of the daemons; the client address is read that many places from the end ([security/auth-block.md](security/auth-block.md)).',
  }, (env) => {
    const value = env.HERALD_TRUST_PROXY;
    if (value === 'true') return 1;
    if (value === 'false') return 0;
    return intOf(env, 'HERALD_TRUST_PROXY', 0);
  }),
  HERALD_SYNC_TIMEOUT_MS: int(59_000, { defaultText: n('_MS', 59_000), meaning: 'How long a synchronous upload waits for its results before answering 202 and going on.' }),
  HERALD_SHUTDOWN_GRACE_MS: int(30_000, { defaultText: n('_MS', 30_000), meaning: 'How long the API and web daemons let requests in flight finish on SIGTERM.' }),
  HERALD_DUPLICATE_WINDOW_MS: int(5 * MINUTE, { defaultText: n('_MS', 5 * MINUTE), meaning: 'An identical upload (same profile, platforms, text, media and fields) within this window returns the first one.' }),
  HERALD_STATUS_CACHE_MS: int(2_000, { defaultText: n('_MS', 2_000), meaning: 'How long an API process reuses a status answer while none of the account\'s uploads changed (every write of them moves the account\'s stamp in Redis, checked on each read); 0 reads storage every time.' }),
  HERALD_AUTH_CACHE_MS: int(5_000, { defaultText: n('_MS', 5_000), meaning: 'How long an API process remembers verified keys and clean client addresses: a revoked key is refused within this bound; 0 reads both on every request.' }),
  HERALD_CONNECTION_CACHE_MS: int(DEFAULT_CONNECTION_CACHE_MS, {
    defaultText: n('_MS', DEFAULT_CONNECTION_CACHE_MS),
    meaning: 'How long an API process reuses profile and connected-account records (synchronous reads and intake, only while the record-change subscription is live) when an announcement is lost; 0 turns the caches off.',
  }),
  HERALD_CHECK_RESPONSES: flagOff({ meaning: 'The API checks every answer of a catalogued operation against its declared status and schema; a mismatch answers 500 `response_schema_mismatch`: for the test tiers (test/support/stack.ts turns it on), not production.' }),
  HERALD_DEBUG_TIMING: flagOff({ meaning: 'The API adds a `Server-Timing` header to every answer and the worker logs its MongoDB command counts: for benchmarks and profiling, not production.' }),
});

const security = section('Secrets and rate limits', {
  HERALD_SECRET_KEY: raw({
    defaultText: 'unset (ops/start.sh generates `.herald/secret-key`)',
    meaning: '32 bytes, base64: encrypts credentials at rest (AES-256-GCM), signs media URLs and the connect page\'s CSRF tokens. Required by every daemon that opens credentials.',
  }, 'base64, 32 bytes'),
  HERALD_SECRETS_ACCEPT_UNBOUND: flagOn({ meaning: 'Open values sealed before they were bound to their record; set `false` once `herald secrets reseal` ran ([security/at-rest.md](security/at-rest.md)).' }),
  HERALD_RATE_LIMIT_POINTS: int(300, { defaultText: '300', meaning: 'Requests per key per window before 429 `rate_limited`.' }),
  HERALD_RATE_LIMIT_WINDOW_SECONDS: int(60, { defaultText: '60', meaning: 'The rate-limit window, in seconds.' }),
  HERALD_RATE_LIMIT_LEASE: int((env) => defaultRateLimitLease(ref<number>(env, 'HERALD_RATE_LIMIT_POINTS')), {
    defaultText: '1 % of `HERALD_RATE_LIMIT_POINTS`, 1 to 100 (3)',
    meaning: 'Points an API process takes from Redis at a time for a busy key; `1` counts every request in Redis.',
  }),
  HERALD_AUTH_MAX_FAILURES: int(10, { defaultText: '10', meaning: 'Consecutive failed credentials from one client address before it is blocked ([security/auth-block.md](security/auth-block.md)).' }),
  HERALD_AUTH_BLOCK_SECONDS: int(300, { defaultText: '300', meaning: 'How long a blocked address is answered 429 `auth_blocked`.' }),
});

const uploads = section('Uploads and media', {
  HERALD_PUBLISH_TIMEOUT_MS: int(DEFAULT_UPLOAD_TIMING.publishTimeoutMs, { defaultText: n('_MS', DEFAULT_UPLOAD_TIMING.publishTimeoutMs), meaning: 'Start-to-close timeout of one publish activity (a workflow input).' }),
  HERALD_HEARTBEAT_TIMEOUT_MS: int(DEFAULT_UPLOAD_TIMING.heartbeatTimeoutMs, { defaultText: n('_MS', DEFAULT_UPLOAD_TIMING.heartbeatTimeoutMs), meaning: 'A publish activity silent this long is taken for dead and runs again elsewhere (a workflow input).' }),
  HERALD_PLATFORM_RETRIES: int(DEFAULT_UPLOAD_TIMING.maxPlatformRetries, { defaultText: String(DEFAULT_UPLOAD_TIMING.maxPlatformRetries), meaning: 'Retries of a network\'s transient failure per target (a workflow input).' }),
  HERALD_TRANSIENT_BACKOFF_MS: int(DEFAULT_UPLOAD_TIMING.transientBackoffMs, { defaultText: n('_MS', DEFAULT_UPLOAD_TIMING.transientBackoffMs), meaning: 'Wait before retrying a transient failure without Retry-After (a workflow input).' }),
  HERALD_MAX_RETRY_AFTER_MS: int(DEFAULT_UPLOAD_TIMING.maxRetryAfterMs, { defaultText: n('_MS', DEFAULT_UPLOAD_TIMING.maxRetryAfterMs), meaning: 'The longest Retry-After a workflow waits out before failing the target (a workflow input).' }),
  HERALD_RECONCILE_INTERVAL_MS: int(30_000, { defaultText: n('_MS', 30_000), meaning: 'How often the worker looks for uploads left `pending` without a workflow.' }),
  HERALD_RECONCILE_PENDING_AFTER_MS: int(30_000, { defaultText: n('_MS', 30_000), meaning: 'How old a `pending` upload must be before the reconciler starts its workflow.' }),
  HERALD_MEDIA_DIR: text((_env) => `${process.cwd()}/.herald/media`, { defaultText: '`.herald/media` under the working directory', meaning: 'The content-addressed media store.' }),
  HERALD_MEDIA_URL_TTL_SECONDS: int(24 * 3600, { defaultText: '86400 (24 h)', meaning: 'How long a signed media URL (`/media/{id}`) works, and a media job\'s `download_url` (at most until its output expires).' }),
  HERALD_MEDIA_MAX_BYTES: int(10 * GIB, { defaultText: n('_BYTES', 10 * GIB), meaning: 'The largest media file an upload takes (streamed to disk).' }),
  HERALD_MEDIA_FETCH_ALLOW: list({ meaning: '`host:port` pairs (`127.0.0.1:4100`) media URLs may use although private or loopback (the sandbox\'s simulators).' }, 'comma list of host:port'),
  HERALD_MEDIA_FETCH_TIMEOUT_MS: int(10 * MINUTE, { defaultText: n('_MS', 10 * MINUTE), meaning: 'How long downloading one media URL may take.' }),
  HERALD_MEDIA_UPLOAD_TTL_MS: positive(24 * HOUR, { defaultText: n('_MS', 24 * HOUR), meaning: 'How long staged media (`POST /media-uploads`) lives unless a post uses it; its upload URL works as long ([media-uploads.md](media-uploads.md)).' }),
  HERALD_MEDIA_UPLOAD_RESUMABLE_BYTES: positive(8 * MIB, { defaultText: n('_BYTES', 8 * MIB), meaning: 'Staged uploads larger than this are resumable by `Content-Range` chunks and keep the bytes of an interrupted PUT; smaller ones are sent whole.' }),
  HERALD_MEDIA_UPLOAD_CLEANUP_INTERVAL_MS: positive(10 * MINUTE, { defaultText: n('_MS', 10 * MINUTE), meaning: 'How often the API removes expired staged uploads and their bytes.' }),
  HERALD_CHECKPOINT_PROBE_INTERVAL_MS: positive(DEFAULT_CHECKPOINT_PROBE_INTERVAL_MS, {
    defaultText: n('_MS', DEFAULT_CHECKPOINT_PROBE_INTERVAL_MS),
    meaning: 'How often a checkpointed Instagram or Threads account is asked whether the checkpoint is gone (a workflow input: applies to probes started after it).',
  }),
});

const mediaJobs = section('Media-processing jobs', {
  HERALD_MEDIA_TASK_QUEUE: textOr((env) => `${ref<string | number>(env, 'HERALD_TASK_QUEUE')}-media`, { defaultText: '`<HERALD_TASK_QUEUE>-media`', meaning: 'Task queue of media jobs (the `media` worker pool).' }),
  HERALD_MEDIA_SCRATCH_DIR: text((_env) => `${process.cwd()}/.herald/media-scratch`, { defaultText: '`.herald/media-scratch` under the working directory', meaning: 'Where each ffmpeg run gets its scratch directory.' }),
  HERALD_MEDIA_JOB_MAX_OUTPUT_BYTES: int(4 * GIB, { defaultText: n('_BYTES', 4 * GIB), meaning: 'Output size limit of one run (ffmpeg is killed past it).' }),
  HERALD_MEDIA_JOB_PROGRESS_WRITE_MS: int(1_000, { defaultText: n('_MS', 1_000), meaning: 'How often a run writes its progress to the job.' }),
  HERALD_MEDIA_JOB_HEARTBEAT_EVERY_MS: positive(2_000, { defaultText: n('_MS', 2_000), meaning: 'Heartbeat period of a run while ffmpeg prints nothing.' }),
  HERALD_MEDIA_SANDBOX: custom(`one of ${SANDBOX_MODES.join(', ')}`, '`auto` (the strongest that works)', { meaning: 'How ffmpeg is confined ([security/media-jobs.md](security/media-jobs.md)).' }, (env): MediaSandboxConfig['mode'] => {
    const value = env.HERALD_MEDIA_SANDBOX;
    if (!value) return 'auto';
    if (!(SANDBOX_MODES as readonly string[]).includes(value)) throw new Error(`HERALD_MEDIA_SANDBOX must be one of ${SANDBOX_MODES.join(', ')} (got "${value}")`);
    return value as MediaSandboxConfig['mode'];
  }),
  HERALD_MEDIA_USER: textOr(DEFAULT_MEDIA_SANDBOX.user, { meaning: 'The user a root worker runs ffmpeg as (ops/install.sh creates it).' }),
  HERALD_MEDIA_MEMORY_BYTES: positive(DEFAULT_MEDIA_SANDBOX.memoryBytes, { defaultText: n('_BYTES', DEFAULT_MEDIA_SANDBOX.memoryBytes), meaning: 'Address-space limit of one ffmpeg run.' }),
  HERALD_MEDIA_OPEN_FILES: positive(DEFAULT_MEDIA_SANDBOX.openFiles, { defaultText: String(DEFAULT_MEDIA_SANDBOX.openFiles), meaning: 'Open-file limit of one ffmpeg run.' }),
  HERALD_MEDIA_JOB_TIME_LIMIT_MS: positive(DEFAULT_MEDIA_JOB_TIMING.timeLimitMs, { defaultText: n('_MS', DEFAULT_MEDIA_JOB_TIMING.timeLimitMs), meaning: 'Wall-clock limit of one run (ffmpeg is killed past it).' }),
  HERALD_MEDIA_JOB_HEARTBEAT_TIMEOUT_MS: positive(DEFAULT_MEDIA_JOB_TIMING.heartbeatTimeoutMs, { defaultText: n('_MS', DEFAULT_MEDIA_JOB_TIMING.heartbeatTimeoutMs), meaning: 'A run silent this long is taken for dead and restarted on another worker.' }),
  HERALD_MEDIA_JOB_OUTPUT_TTL_MS: optionalPositive({ meaning: 'How long a finished job\'s files stay, in milliseconds: the older spelling of the retention, which wins when set.' }),
  HERALD_MEDIA_JOB_FILE_RETENTION_HOURS: positive(DEFAULT_MEDIA_JOB_TIMING.outputTtlMs / HOUR, { defaultText: String(DEFAULT_MEDIA_JOB_TIMING.outputTtlMs / HOUR), meaning: 'How long a finished job\'s output and inputs stay downloadable, in hours.' }),
  HERALD_MEDIA_JOB_MAX_ATTEMPTS: positive(DEFAULT_MEDIA_JOB_TIMING.maxAttempts, { defaultText: String(DEFAULT_MEDIA_JOB_TIMING.maxAttempts), meaning: 'Attempts of one run (a worker killed mid-run counts one).' }),
});

const lifecycle = section('Connected accounts', {
  HERALD_REFRESH_FAILURE_THRESHOLD: positive(DEFAULT_LIFECYCLE_SETTINGS.refreshFailures, { defaultText: String(DEFAULT_LIFECYCLE_SETTINGS.refreshFailures), meaning: 'Failed refreshes in a row (network trouble, not a refusal) before `reauth_required` (`token_refresh_threshold_exceeded`).' }),
  HERALD_MAX_AUTH_STRIKES: positive(DEFAULT_LIFECYCLE_SETTINGS.authStrikes, { defaultText: String(DEFAULT_LIFECYCLE_SETTINGS.authStrikes), meaning: 'Calls in a row the network refuses with freshly renewed credentials before `reauth_required` (`max_auth_strikes`).' }),
  HERALD_REAUTH_BLOCKED_AFTER_MS: positive(DEFAULT_LIFECYCLE_SETTINGS.blockedAfterMs, { defaultText: n('_MS', DEFAULT_LIFECYCLE_SETTINGS.blockedAfterMs), meaning: 'An account left `reauth_required` this long is disconnected (`account_blocked`).' }),
  HERALD_REFRESH_AHEAD_MARGIN_MS: int(DEFAULT_LIFECYCLE_SETTINGS.refreshMarginMs, { defaultText: n('_MS', DEFAULT_LIFECYCLE_SETTINGS.refreshMarginMs), meaning: 'Refresh-ahead renews an OAuth token this long before it expires (a workflow input).' }),
  HERALD_REFRESH_AHEAD_MIN_PERIOD_MS: positive(DEFAULT_LIFECYCLE_SETTINGS.refreshMinPeriodMs, { defaultText: n('_MS', DEFAULT_LIFECYCLE_SETTINGS.refreshMinPeriodMs), meaning: 'Refresh-ahead never renews one account more often than this.' }),
  HERALD_REFRESH_AHEAD_RETRY_MS: positive(DEFAULT_LIFECYCLE_SETTINGS.refreshRetryMs, { defaultText: n('_MS', DEFAULT_LIFECYCLE_SETTINGS.refreshRetryMs), meaning: 'After a refresh that failed without being refused, the next attempt is this much later.' }),
});

const notifications = section('Notifications', {
  HERALD_NOTIFY_TASK_QUEUE: textOr((env) => `${ref<string | number>(env, 'HERALD_TASK_QUEUE')}-notify`, { defaultText: '`<HERALD_TASK_QUEUE>-notify`', meaning: 'Task queue of the notification channel workflows (the `notify` worker pool).' }),
  HERALD_WEBHOOK_HEADER_PREFIX: text('X-Herald-', { meaning: 'Prefix of the delivery headers (`<prefix>Signature`, `Timestamp`, `Event`, `Delivery`).' }),
  HERALD_WEBHOOK_USER_AGENT: text('Herald-Webhooks/1.0', { meaning: 'User-Agent of webhook deliveries.' }),
  HERALD_WEBHOOK_TIMEOUT_MS: positive(10_000, { defaultText: n('_MS', 10_000), meaning: 'Receivers (webhooks, Telegram, Slack) must answer 2xx within this; later counts as a failed delivery.' }),
  HERALD_WEBHOOK_ALLOW: list({ meaning: '`host:port` pairs (a bare host: its scheme\'s default port) webhook and Slack URLs may use although private or loopback (tests, sandbox).' }, 'comma list of host[:port]'),
  HERALD_WEBHOOK_ALLOW_LOOPBACK: flagOff({ meaning: 'Webhook and Slack URLs may use this machine\'s loopback (127.0.0.0/8, ::1) on any port: `ops/start.sh` turns it on for the sandbox, so a receiver on the developer\'s machine gets the events. Leave it off in deployments (loopback holds the machine\'s own services).' }),
  HERALD_WEBHOOK_BREAKER_FAILURES: positive(5, { defaultText: '5', meaning: 'Consecutive failed deliveries that pause a channel (a workflow input).' }),
  HERALD_WEBHOOK_BREAKER_PAUSE_MS: positive(30 * MINUTE, { defaultText: n('_MS', 30 * MINUTE), meaning: 'How long a paused channel skips deliveries before it is half-open (a workflow input).' }),
  HERALD_WEBHOOK_CHANNEL_IDLE_MS: positive(HOUR, { defaultText: n('_MS', HOUR), meaning: 'A channel workflow with nothing to do and a closed breaker ends after this.' }),
  HERALD_NOTIFY_TELEGRAM_BOT_TOKEN: optional({ meaning: 'The bot that sends Telegram notifications; without it the Telegram channel cannot be turned on (400 `telegram_not_configured`).' }),
  HERALD_NOTIFY_TELEGRAM_API_BASE: text('https://api.telegram.org', { meaning: 'The Telegram Bot API the notifications use.' }),
  HERALD_NOTIFY_POLL_MS: positive(1_000, { defaultText: n('_MS', 1_000), meaning: 'How often the worker reads the notification outbox.' }),
  HERALD_DELIVERY_LOG_RETENTION_MS: optionalPositive({ meaning: 'How long delivery attempts are kept, in milliseconds: the older spelling, which wins when set.' }),
  HERALD_DELIVERY_LOG_RETENTION_DAYS: positive(30, { defaultText: '30', meaning: 'How long delivery attempts are kept, in days.' }),
  HERALD_EVENT_RETENTION_DAYS: positive(30, { defaultText: '30', meaning: 'How long events handed to their channels are kept (a redelivery needs its event), in days.' }),
  HERALD_NOTIFY_CLEANUP_INTERVAL_MS: positive(HOUR, { defaultText: n('_MS', HOUR), meaning: 'How often the worker removes delivery attempts and handed events past retention.' }),
});

const analytics = section('Analytics', {
  HERALD_ANALYTICS_CACHE_MS: int(5 * MINUTE, { defaultText: n('_MS', 5 * MINUTE), meaning: 'How long live analytics answers (`/analytics`, audience, suggestions, post metrics) are reused, in Redis.' }),
  HERALD_ANALYTICS_TASK_QUEUE: textOr((env) => `${ref<string | number>(env, 'HERALD_TASK_QUEUE')}-analytics`, { defaultText: '`<HERALD_TASK_QUEUE>-analytics`', meaning: 'Task queue of the `analytics` worker pool.' }),
  HERALD_ANALYTICS_SNAPSHOT_PERIOD_MS: positive(DEFAULT_SNAPSHOT_SETTINGS.periodMs, { defaultText: n('_MS', DEFAULT_SNAPSHOT_SETTINGS.periodMs), meaning: 'Snapshot rounds are due at multiples of this period since the epoch, plus the offset.' }),
  HERALD_ANALYTICS_SNAPSHOT_OFFSET_MS: int(DEFAULT_SNAPSHOT_SETTINGS.offsetMs, { defaultText: n('_MS', DEFAULT_SNAPSHOT_SETTINGS.offsetMs), meaning: 'Offset of the snapshot rounds (daily at 23:50 UTC by default).' }),
  HERALD_ANALYTICS_SNAPSHOT_PAGE_SIZE: positive(DEFAULT_SNAPSHOT_SETTINGS.pageSize, { defaultText: String(DEFAULT_SNAPSHOT_SETTINGS.pageSize), meaning: 'Connections per snapshot activity.' }),
  HERALD_ANALYTICS_SNAPSHOT_CONCURRENCY: positive(4, { defaultText: '4', meaning: 'Accounts measured at once within one snapshot activity.' }),
  HERALD_ANALYTICS_SNAPSHOT_RETENTION_MS: positive(400 * DAY, { defaultText: n('_MS', 400 * DAY), meaning: 'How long a daily snapshot is kept (`last_year` needs 366 days).' }),
  HERALD_POST_ANALYTICS_LIMIT: positive(100, { defaultText: '100', meaning: 'Live post-analytics requests per operator account and window.' }),
  HERALD_POST_ANALYTICS_WINDOW_SECONDS: positive(300, { defaultText: '300', meaning: 'The live post-analytics window, in seconds.' }),
  HERALD_POST_ANALYTICS_CACHE_MS: positive(MINUTE, { defaultText: n('_MS', MINUTE), meaning: 'How long live post metrics are reused from Redis.' }),
  HERALD_POST_ANALYTICS_RETENTION_MS: positive(90 * DAY, { defaultText: n('_MS', 90 * DAY), meaning: 'How long fetched post metrics stay listed by `/post-analytics/cached`.' }),
  HERALD_ANALYTICS_SNAPSHOT_LOOKBACK_DAYS: positive(30, { defaultText: '30', meaning: 'How far back `profile_snapshot_*` of post analytics look, in days.' }),
  HERALD_ANALYTICS_READ_CONCURRENCY: positive(8, { defaultText: '8', meaning: 'Series documents read at once per total-impressions request.' }),
});

const observability = section('Logs, metrics and traces', {
  HERALD_LOG_LEVEL: custom(LOG_LEVELS.join(', '), '`info`', { meaning: 'Log level of every daemon.' }, (env) => {
    const logLevel = env.HERALD_LOG_LEVEL || 'info';
    if (!LOG_LEVELS.includes(logLevel)) throw new Error(`HERALD_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}; got "${logLevel}"`);
    return logLevel;
  }),
  HERALD_LOG_PRETTY: custom('`true` or `false`', 'unset: pretty only when stdout is a terminal', { meaning: '`true`: human-readable lines (pino-pretty); `false`: JSON lines even on a terminal.' },
    (env) => (env.HERALD_LOG_PRETTY === 'true' ? true : env.HERALD_LOG_PRETTY === 'false' ? false : undefined)),
  HERALD_OPS_HOST: textOr('127.0.0.1', { meaning: 'Where each daemon\'s operator port (`/healthz`, `/readyz`, `/metrics`) listens.' }),
  HERALD_OPS_PORT: custom('integer ≥ 0', 'unset: any free port (logged as `ops port listening`)', { meaning: 'The operator port of every daemon, unless set per daemon.' },
    (env) => (env.HERALD_OPS_PORT ? intOf(env, 'HERALD_OPS_PORT', 0) : undefined)),
  'HERALD_<DAEMON>_OPS_PORT': {
    ...custom('integer ≥ 0', 'unset (ops/start.sh: 9464 API, 9465 worker)', { meaning: 'The operator port of one daemon: `HERALD_API_OPS_PORT`, `HERALD_WORKER_OPS_PORT`, `HERALD_WEB_OPS_PORT`, `HERALD_MCP_OPS_PORT`, `HERALD_SANDBOX_OPS_PORT`.' },
      (env, name) => intOf(env, name, 0)),
    pattern: /^HERALD_([A-Z0-9]+)_OPS_PORT$/,
  },
  HERALD_OPS_TOKEN: optional({ meaning: 'When set, `/metrics` asks for `Authorization: Bearer <token>` (deployments set it).' }),
  HERALD_OTLP_TRACES_URL: optional({ defaultText: 'unset: no tracing', meaning: 'OTLP/HTTP traces endpoint (`http://collector:4318/v1/traces`).' }, 'URL'),
  HERALD_OTLP_HEADERS: custom('`name=value,…`', 'none', { meaning: 'Headers sent with each trace export (collector auth).' }, (env) => {
    const otlpHeaders: Record<string, string> = {};
    for (const pair of listOf(env.HERALD_OTLP_HEADERS)) {
      const at = pair.indexOf('=');
      if (at <= 0) throw new Error('HERALD_OTLP_HEADERS must be name=value pairs separated by commas');
      otlpHeaders[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
    }
    return otlpHeaders;
  }),
  HERALD_TEMPORAL_SDK_METRICS: flagOn({ meaning: 'The Temporal SDK\'s worker metrics on the worker\'s `/metrics`.' }),
  HERALD_TEMPORAL_UI_URL: url('http://127.0.0.1:8233', { meaning: 'The Temporal Web UI, for the links the CLI prints.' }),
});

const workers = section('Worker pools', {
  HERALD_WORKER_POOLS: custom('comma list of pools, or `all`', 'every pool', { meaning: 'Which worker pools this worker process runs ([operating.md](operating.md#worker-pools)); an unknown name stops the worker at start.' }, (env) => {
    const value = env.HERALD_WORKER_POOLS?.trim();
    return value && value !== 'all' ? value.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean) : undefined;
  }),
  'HERALD_POOL_<NAME>_CONCURRENCY': {
    ...custom('integer > 0', 'the pool\'s `defaultConcurrency`', { meaning: 'Activities one process of pool `<NAME>` runs at once (`HERALD_POOL_PUBLISH_CONCURRENCY=50`).' },
      (env, name) => positiveOf(env, name, 1)),
    pattern: /^HERALD_POOL_([A-Z0-9_]+)_CONCURRENCY$/,
  },
});

const web = section('Connect page (web daemon)', {
  HERALD_WEB_HOST: text('127.0.0.1', { meaning: 'Address the connect-page daemon (`apps/web`) listens on.' }),
  HERALD_WEB_PORT: int(8788, { defaultText: '8788', meaning: 'Port the connect-page daemon listens on.' }),
  HERALD_WEB_PUBLIC_URL: url((env) => `http://${ref<string | number>(env, 'HERALD_WEB_HOST')}:${ref<string | number>(env, 'HERALD_WEB_PORT')}`, {
    defaultText: '`http://$HERALD_WEB_HOST:$HERALD_WEB_PORT`',
    meaning: 'The connect page as browsers reach it: `generate-jwt`\'s `access_url` points there (set it on the API and the web daemon alike).',
  }),
  HERALD_CONNECT_LINK_TTL_MS: positive(48 * HOUR, { defaultText: n('_MS', 48 * HOUR), meaning: 'How long a connect link (and the session it opens) works.' }),
});

const mcp = section('MCP daemon', {
  HERALD_MCP_HOST: text('127.0.0.1', { meaning: 'Address the MCP daemon (`apps/mcp`) listens on.' }),
  HERALD_MCP_PORT: int(8789, { defaultText: '8789', meaning: 'Port the MCP daemon listens on.' }),
  HERALD_MCP_PUBLIC_URL: url((env) => `http://${ref<string | number>(env, 'HERALD_MCP_HOST')}:${ref<string | number>(env, 'HERALD_MCP_PORT')}`, {
    defaultText: '`http://$HERALD_MCP_HOST:$HERALD_MCP_PORT`',
    meaning: 'The MCP daemon as agents reach it: the OAuth issuer, and `{mcp_url}` = this + `/mcp`. Set it on the API too: agent tokens are accepted only for this resource.',
  }),
  HERALD_MCP_API_URL: url((env) => `http://${ref<string | number>(env, 'HERALD_API_HOST')}:${ref<string | number>(env, 'HERALD_API_PORT')}`, {
    defaultText: '`http://$HERALD_API_HOST:$HERALD_API_PORT`',
    meaning: 'The API the tool calls go to (MCP daemon and stdio entry).',
  }),
  HERALD_MCP_CODE_TTL_MS: positive(5 * MINUTE, { defaultText: n('_MS', 5 * MINUTE), meaning: 'Lifetime of an agent OAuth authorization code.' }),
  HERALD_MCP_ACCESS_TOKEN_TTL_MS: positive(HOUR, { defaultText: n('_MS', HOUR), meaning: 'Lifetime of an agent access token.' }),
  HERALD_MCP_REFRESH_TOKEN_TTL_MS: positive(30 * DAY, { defaultText: n('_MS', 30 * DAY), meaning: 'Lifetime of an agent refresh token.' }),
  HERALD_MCP_BASE64_MAX_BYTES: positive(10 * MIB, { defaultText: n('_BYTES', 10 * MIB), meaning: 'Largest file a tool call may pass inline as base64.' }),
  HERALD_MCP_UPLOAD_DIR: text((_env) => `${process.cwd()}/.herald/mcp-uploads`, { defaultText: '`.herald/mcp-uploads` under the working directory', meaning: 'Where upload handles keep their files for an hour (shared by replicas).' }),
  HERALD_MCP_OAUTH_RATE_LIMIT: flagOn({ meaning: 'The SDK\'s per-address limits on the OAuth endpoints (tests turn them off).' }),
  HERALD_API_KEY: external('API key', 'unset', { readBy: 'apps/mcp/stdio.ts', meaning: 'stdio entry only (`npx herald-mcp`): the operator key its tool calls carry.' }),
});

const networks = section('Networks', {
  HERALD_PLATFORM_TIMEOUT_MS: custom('integer > 0', describeMillis(60_000), { meaning: 'JSON call timeout of every network adapter.' }, (env) => {
    const trimmed = env.HERALD_PLATFORM_TIMEOUT_MS?.trim();
    const rawTimeout = trimmed ? trimmed : undefined;
    const timeoutMs = rawTimeout === undefined ? 60_000 : Number(rawTimeout);
    if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new Error(`HERALD_PLATFORM_TIMEOUT_MS must be a positive integer, got "${rawTimeout}"`);
    return timeoutMs;
  }),
});

const sandbox = section('Sandbox daemon (development)', {
  HERALD_SANDBOX_PROCESSING_MS: external('integer ≥ 0', '1000', { readBy: 'apps/sandbox/main.ts', meaning: 'Media processing time of the simulators; the sandbox also sets the networks\' poll intervals from it.' }),
  HERALD_STATE_DIR: external('path', '`.herald` under the working directory', { readBy: 'apps/sandbox/main.ts', meaning: 'Where the sandbox writes `sandbox.env` (credentials and simulator addresses).' }),
});

const scripts = section('ops scripts', {
  HERALD_SERVICE_USER: external('user name', '`herald`', { readBy: 'ops/start.sh', meaning: 'The user `ops/start.sh` runs the daemons as when started by root (`root` keeps root).' }),
  HERALD_TEMPORAL_PORT: external('port', '7233', { readBy: 'ops/lib.sh', meaning: 'Port of the local Temporal dev server `ops/infra.sh` starts.' }),
  HERALD_TEMPORAL_UI_PORT: external('port', '8233', { readBy: 'ops/lib.sh', meaning: 'Port of the local Temporal Web UI.' }),
  HERALD_FERRETDB_PORT: external('port', '27017', { readBy: 'ops/lib.sh', meaning: 'Port of the local FerretDB.' }),
  HERALD_REDIS_PORT: external('port', '6379', { readBy: 'ops/lib.sh', meaning: 'Port of the local Redis.' }),
  HERALD_FERRETDB_HANDLER: external('`postgresql` or `sqlite`', 'postgresql when one answers on 127.0.0.1:5432, else sqlite', { readBy: 'ops/infra.sh', meaning: 'FerretDB\'s storage.' }),
  HERALD_FERRETDB_PG_CONNS: external('integer', '80', { readBy: 'ops/infra.sh', meaning: 'FerretDB\'s PostgreSQL pool (`pool_max_conns`): keep it well above the sum of `HERALD_MONGO_MAX_POOL_SIZE` over all Herald processes (4 × 10 locally).' }),
  HERALD_FERRETDB_PG_DATABASE: external('name', '`ferretdb`', { readBy: 'ops/ferretdb-tune.sh', meaning: 'The PostgreSQL database `ops/ferretdb-tune.sh` adds FerretDB\'s GIN indexes to.' }),
});

const tests = section('Tests', {
  HERALD_CHROMIUM_PATH: external('path', '`/usr/bin/chromium`', { readBy: 'test/e2e/connect-page.browser.test.ts', meaning: 'Browser tests: the chromium playwright-core drives.' }),
  HERALD_SCREENSHOT_DIR: external('path', '`/tmp/herald-shots`', { readBy: 'test/e2e/connect-page.browser.test.ts', meaning: 'Browser tests: where the screenshots go.' }),
  HERALD_FUZZ_SEED: external('integer', '`0x5eed2026`', { readBy: 'test/unit/api-fuzz.test.ts', meaning: 'Seed of the malformed-request fuzz test.' }),
  HERALD_FUZZ_COUNT: external('integer', '1500', { readBy: 'test/unit/api-fuzz.test.ts', meaning: 'Requests the fuzz test sends.' }),
});

/** The table, in the order of docs/configuration.md. */
export const SETTINGS = {
  ...infrastructure, ...api, ...security, ...uploads, ...mediaJobs, ...lifecycle, ...notifications, ...analytics,
  ...observability, ...workers, ...web, ...mcp, ...networks, ...sandbox, ...scripts, ...tests,
};

export type SettingName = keyof typeof SETTINGS;
export type SettingValue<K extends SettingName> = ReturnType<(typeof SETTINGS)[K]['read']>;

/** Every setting of the table, in order. */
export const SETTING_LIST: readonly Setting[] = Object.values(SETTINGS) as Setting[];

/** One setting's value, parsed and defaulted as the table declares. */
export function setting<K extends SettingName>(env: Env, name: K): SettingValue<K> {
  return (SETTINGS[name] as Setting).read(env, name) as SettingValue<K>;
}

/** The members of a variable family present in the environment (`HERALD_API_OPS_PORT` → `api`), each parsed. */
export function settingFamily<K extends SettingName>(env: Env, family: K): Record<string, SettingValue<K>> {
  const entry = SETTINGS[family] as Setting;
  if (!entry.pattern) throw new Error(`${family} is not a family of variables`);
  const out: Record<string, SettingValue<K>> = {};
  for (const name of Object.keys(env)) {
    const key = entry.pattern.exec(name)?.[1];
    if (key && env[name]) out[key.toLowerCase()] = entry.read(env, name) as SettingValue<K>;
  }
  return out;
}
