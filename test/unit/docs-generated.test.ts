import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { GENERATED_DOCS } from '../../apps/docs/main';
import { SETTING_LIST } from '../../apps/shared/settings';

/**
 * The generated pages (docs/configuration.md from the settings table and the network records,
 * docs/api-reference.md from the operation catalogue) are committed: they must be what the
 * generator writes today, so they cannot drift from the code.
 */
const ROOT = join(__dirname, '..', '..');
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

describe('generated docs', () => {
  for (const doc of GENERATED_DOCS) {
    it(`${doc.path} is what the generator writes`, () => {
      const expected = doc.render();
      const committed = read(doc.path);
      if (committed !== expected) {
        const a = committed.split('\n');
        const b = expected.split('\n');
        const line = a.findIndex((l, i) => l !== b[i]);
        throw new Error(`${doc.path} is out of date: run \`npm run docs\` and commit the result (first difference at line ${line + 1}:\n  committed: ${a[line] ?? '(end of file)'}\n  generated: ${b[line] ?? '(end of file)'})`);
      }
    });
  }

  /** Every variable the README's configuration table listed before the guide moved to docs/. */
  const FORMERLY_IN_README = [
  'DEVTO_API_BASE', 'GOOGLE_BUSINESS_ACCOUNTS_BASE', 'GOOGLE_BUSINESS_API_BASE', 'GOOGLE_BUSINESS_AUTH_BASE',
  'GOOGLE_BUSINESS_INFO_BASE', 'GOOGLE_BUSINESS_PERFORMANCE_BASE', 'GOOGLE_BUSINESS_TOKEN_URL',
  'HASHNODE_API_URL', 'HERALD_ANALYTICS_CACHE_MS', 'HERALD_ANALYTICS_READ_CONCURRENCY',
  'HERALD_ANALYTICS_SNAPSHOT_CONCURRENCY', 'HERALD_ANALYTICS_SNAPSHOT_LOOKBACK_DAYS',
  'HERALD_ANALYTICS_SNAPSHOT_OFFSET_MS', 'HERALD_ANALYTICS_SNAPSHOT_PAGE_SIZE',
  'HERALD_ANALYTICS_SNAPSHOT_PERIOD_MS', 'HERALD_ANALYTICS_SNAPSHOT_RETENTION_MS',
  'HERALD_ANALYTICS_TASK_QUEUE', 'HERALD_API_HOST', 'HERALD_API_KEY', 'HERALD_API_PORT',
  'HERALD_AUTH_CACHE_MS', 'HERALD_CHECKPOINT_PROBE_INTERVAL_MS', 'HERALD_CHROMIUM_PATH',
  'HERALD_CONNECTION_CACHE_MS', 'HERALD_CONNECT_LINK_TTL_MS', 'HERALD_DEBUG_TIMING',
  'HERALD_DELIVERY_LOG_RETENTION_DAYS', 'HERALD_DUPLICATE_WINDOW_MS', 'HERALD_EVENT_RETENTION_DAYS',
  'HERALD_GOOGLE_BUSINESS_CLIENT_ID', 'HERALD_GOOGLE_BUSINESS_CLIENT_SECRET', 'HERALD_HEARTBEAT_TIMEOUT_MS',
  'HERALD_LOG_LEVEL', 'HERALD_LOG_PRETTY', 'HERALD_MAX_AUTH_STRIKES', 'HERALD_MCP_ACCESS_TOKEN_TTL_MS',
  'HERALD_MCP_API_URL', 'HERALD_MCP_BASE64_MAX_BYTES', 'HERALD_MCP_CODE_TTL_MS', 'HERALD_MCP_HOST',
  'HERALD_MCP_OAUTH_RATE_LIMIT', 'HERALD_MCP_PORT', 'HERALD_MCP_PUBLIC_URL',
  'HERALD_MCP_REFRESH_TOKEN_TTL_MS', 'HERALD_MCP_UPLOAD_DIR', 'HERALD_MEDIA_DIR', 'HERALD_MEDIA_FETCH_ALLOW',
  'HERALD_MEDIA_JOB_FILE_RETENTION_HOURS', 'HERALD_MEDIA_JOB_HEARTBEAT_EVERY_MS',
  'HERALD_MEDIA_JOB_HEARTBEAT_TIMEOUT_MS', 'HERALD_MEDIA_JOB_MAX_ATTEMPTS',
  'HERALD_MEDIA_JOB_MAX_OUTPUT_BYTES', 'HERALD_MEDIA_JOB_OUTPUT_TTL_MS',
  'HERALD_MEDIA_JOB_PROGRESS_WRITE_MS', 'HERALD_MEDIA_JOB_TIME_LIMIT_MS', 'HERALD_MEDIA_MAX_BYTES',
  'HERALD_MEDIA_MEMORY_BYTES', 'HERALD_MEDIA_OPEN_FILES', 'HERALD_MEDIA_SANDBOX', 'HERALD_MEDIA_SCRATCH_DIR',
  'HERALD_MEDIA_USER', 'HERALD_MONGO_MAX_POOL_SIZE', 'HERALD_NAMESPACE', 'HERALD_NOTIFY_CLEANUP_INTERVAL_MS',
  'HERALD_NOTIFY_POLL_MS', 'HERALD_NOTIFY_TELEGRAM_API_BASE', 'HERALD_NOTIFY_TELEGRAM_BOT_TOKEN',
  'HERALD_OPS_HOST', 'HERALD_OPS_PORT', 'HERALD_OPS_TOKEN', 'HERALD_OTLP_HEADERS', 'HERALD_OTLP_TRACES_URL',
  'HERALD_PLATFORM_RETRIES', 'HERALD_POOL_<NAME>_CONCURRENCY', 'HERALD_POST_ANALYTICS_CACHE_MS',
  'HERALD_POST_ANALYTICS_LIMIT', 'HERALD_POST_ANALYTICS_RETENTION_MS',
  'HERALD_POST_ANALYTICS_WINDOW_SECONDS', 'HERALD_PUBLIC_BASE_URL', 'HERALD_PUBLISH_TIMEOUT_MS',
  'HERALD_RATE_LIMIT_LEASE', 'HERALD_REAUTH_BLOCKED_AFTER_MS', 'HERALD_REFRESH_AHEAD_MARGIN_MS',
  'HERALD_REFRESH_AHEAD_MIN_PERIOD_MS', 'HERALD_REFRESH_AHEAD_RETRY_MS', 'HERALD_REFRESH_FAILURE_THRESHOLD',
  'HERALD_SCREENSHOT_DIR', 'HERALD_SECRET_KEY', 'HERALD_SERVICE_USER', 'HERALD_SNAPCHAT_CLIENT_ID',
  'HERALD_SNAPCHAT_CLIENT_SECRET', 'HERALD_STATUS_CACHE_MS', 'HERALD_SYNC_TIMEOUT_MS', 'HERALD_TASK_QUEUE',
  'HERALD_TEMPORAL_SDK_METRICS', 'HERALD_TEMPORAL_UI_URL', 'HERALD_TRANSIENT_BACKOFF_MS',
  'HERALD_WEBHOOK_ALLOW', 'HERALD_WEBHOOK_BREAKER_FAILURES', 'HERALD_WEBHOOK_BREAKER_PAUSE_MS',
  'HERALD_WEBHOOK_CHANNEL_IDLE_MS', 'HERALD_WEBHOOK_HEADER_PREFIX', 'HERALD_WEBHOOK_TIMEOUT_MS',
  'HERALD_WEBHOOK_USER_AGENT', 'HERALD_WEB_HOST', 'HERALD_WEB_PORT', 'HERALD_WEB_PUBLIC_URL',
  'HERALD_WORKER_POOLS', 'LEMMY_ALLOW_HTTP_INSTANCES', 'LEMMY_UPLOAD_TIMEOUT_MS',
  'LISTMONK_ALLOW_PRIVATE_INSTANCES', 'MASTODON_ALLOW_PRIVATE_INSTANCES', 'MASTODON_MAX_PROCESSING_MS',
  'MASTODON_MEDIA_POLL_MS', 'MASTODON_UPLOAD_TIMEOUT_MS', 'MONGODB_URI', 'NOSTR_ALLOW_INSECURE_RELAYS',
  'NOSTR_RELAY_TIMEOUT_MS', 'NOSTR_WEB_URL', 'REDIS_URL', 'SLACK_ALLOWED_WEBHOOK_HOSTS', 'SLACK_API_BASE',
  'SLACK_WEBHOOK_BASE', 'SNAPCHAT_API_BASE', 'SNAPCHAT_AUTH_BASE', 'SNAPCHAT_UPLOAD_PART_BYTES',
  'TEMPORAL_ADDRESS', 'WHOP_API_BASE', 'WORDPRESS_ALLOW_HTTP_SITES', 'WORDPRESS_UPLOAD_TIMEOUT_MS',
  'YOUTUBE_DAILY_LIMIT_PAUSE_MS',
  ];

  it('configuration.md lists every variable the old README table did', () => {
    const page = read('docs/configuration.md');
    expect(FORMERLY_IN_README.filter((name) => !page.includes(`\`${name}\``))).toEqual([]);
  });

  /** Names that look like variables but are not settings: constants and the scripts' own paths. */
  const NOT_SETTINGS = new Set(['HERALD_ROOT', 'HERALD_API_VERSION', 'HERALD_EVENT_NAMES']);

  const sources = (dir: string, ext: RegExp): string[] => readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return path.startsWith(join('ops', 'simulators')) ? [] : sources(path, ext);
    return ext.test(name) ? [path] : [];
  });

  it('every HERALD_* variable the code or the ops scripts name is in configuration.md', () => {
    const page = read('docs/configuration.md');
    const files = [...sources('apps', /\.ts$/), ...sources('adapters', /\.ts$/), ...sources('ops', /\.sh$/)];
    const named = new Set(files.flatMap((f) => [...read(f).matchAll(/\bHERALD_[A-Z0-9_]+\b/g)].map((m) => m[0])));
    const families = SETTING_LIST.filter((s) => s.pattern);
    const missing = [...named].filter((name) => !name.endsWith('_') && !NOT_SETTINGS.has(name) && !page.includes(`\`${name}\``) && !families.some((f) => f.pattern!.test(name)));
    expect(missing).toEqual([]);
  });

  it('every variable read outside the loader is named where the table says it is read', () => {
    for (const s of SETTING_LIST.filter((x) => x.readBy)) {
      expect({ name: s.name, readBy: s.readBy, found: read(s.readBy!).includes(s.name) }).toEqual({ name: s.name, readBy: s.readBy, found: true });
    }
  });
});

describe('connect page text keys in docs/connecting-accounts.md', () => {
  it('are the catalogue\'s keys with their English text', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { CATALOGUES, LABEL_KEYS } = require('../../apps/web/i18n') as { CATALOGUES: { en: Record<string, string> }; LABEL_KEYS: string[] };
    const page = readFileSync(join(__dirname, '..', '..', 'docs', 'connecting-accounts.md'), 'utf8');
    const rows = [...page.matchAll(/^\| `([a-z_]+\.[a-z_.]+)` \| (.*) \|$/gm)].map((m) => [m[1]!, m[2]!]);
    expect(rows).toEqual(LABEL_KEYS.map((key) => [key, CATALOGUES.en[key]]));
  });
});
