import type { AuthCache, AuthenticateDeps, Caller } from '../../core/usecases/authenticate';
import type { PlatformRegistry } from '../../core/ports/platform';
import type { AuthFailureGuard, RequestRateLimiter } from '../../core/ports/rate-limit';
import type { Storage } from '../../core/ports/storage';
import type { DuplicateWindow } from '../../core/ports/duplicate-window';
import type { CredentialLeases } from '../../core/ports/credential-leases';
import type { Clock, IdGenerator, KeyHasher, Pkce, SecretBox } from '../../core/ports/system';
import type { UploadRunner } from '../../core/ports/upload-runner';
import type { MediaFetcher, MediaProbe, MediaStore } from '../../core/ports/media';
import type { MediaAccess } from '../../core/ports/platform';
import type { Notifier } from '../../core/ports/notifications';
import type { ConnectionRefreshes } from '../../core/ports/connection-refreshes';
import type { AccountPauses } from '../../core/ports/account-pauses';
import type { LifecycleSettings } from '../../core/domain/connection-lifecycle';
import type { Metrics } from '../../core/ports/metrics';
import type { Logger } from 'pino';
import type { MediaJobApi } from './routes/media-jobs';
import type { MediaUploadDeps } from '../../core/usecases/media-uploads';
import type { NotificationDeps } from '../../core/usecases/notifications/deps';
import type { ConnectStorage } from '../../core/ports/connect-storage';
import type { ConnectLinkOptions } from '../../core/usecases/connect-links';
import type { AnalyticsApi } from './routes/analytics';
import type { AnalyticsHistoryApi } from './routes/analytics-history';
import type { ConnectionReadCache, ProfileReadCache } from '../../core/usecases/connection-read-cache';
import type { RecordChangeFeed } from '../../core/ports/record-changes';
import type { UploadVersions } from '../../core/ports/upload-versions';

export interface ApiDeps {
  storage: Storage;
  /** Serializes token refreshes of one connected account across processes. */
  leases?: CredentialLeases;
  platforms: PlatformRegistry;
  runner: UploadRunner;
  secrets: SecretBox;
  ids: IdGenerator;
  clock: Clock;
  hasher: KeyHasher;
  pkce: Pkce;
  guard: AuthFailureGuard;
  /** Keys verified and addresses found clean in the last few seconds (HERALD_AUTH_CACHE_MS): no database or guard read per request. */
  authCache?: AuthCache;
  /** Agents' OAuth access tokens (the MCP daemon issues them), accepted as `Bearer hma_…` when issued for the MCP server. */
  agentTokens?: AuthenticateDeps['agentTokens'];
  limiter: RequestRateLimiter;
  /** Claims of the duplicate window (HERALD_DUPLICATE_WINDOW_MS), shared by every API process. */
  duplicates?: DuplicateWindow;
  log: (message: string, fields: Record<string, unknown>) => void;
  mediaStore: MediaStore;
  /** Bytes and signed URLs of stored media, for networks' prechecks at intake. */
  media: MediaAccess;
  mediaProbe: MediaProbe;
  mediaFetcher: MediaFetcher;
  mediaUrls: { verify(id: string, exp: string | undefined, sig: string | undefined): boolean };
  /** The notification outbox: connection events of connects and disconnects made through the API. */
  notifier?: Notifier;
  /** Refresh-ahead workflows (started on connect, ended on disconnect) and pause workflows (ended by a reconnect). */
  refreshes?: ConnectionRefreshes;
  pauses?: AccountPauses;
  lifecycleSettings?: Partial<LifecycleSettings>;
  /** Staged media uploads (the /media-uploads routes are registered when present; `media-upload:<id>` media then works). */
  mediaUploads?: MediaUploadDeps;
  /** Media-processing jobs (the /ffmpeg routes are registered when present). */
  mediaJobs?: MediaJobApi;
  /** Readiness of the backing services, for /readyz. */
  health: () => Promise<Record<string, boolean>>;
  /** Request logs, metrics and spans (apps/shared/http-observe.ts); absent in tests that do not need them. */
  telemetry?: { logger: Logger; metrics: Metrics };
  /** Counts uploads accepted at intake (core/ports/metrics.ts). */
  metrics?: Metrics;
  /** Webhook and chat notifications: settings, test sends, the delivery log. Routes exist only with it. */
  notifications?: NotificationDeps;
  /** Connect links, their sessions and the operator's preferences (the hosted connect page); without it those routes are not served. */
  connect?: ConnectStorage;
  /** Live analytics: the result cache and how long answers are reused (without it nothing is cached). */
  analytics?: AnalyticsApi;
  /** Stored analytics history and post metrics (/total-impressions, /post-analytics); routes exist only with it. */
  analyticsHistory?: AnalyticsHistoryApi;
  /** Connected-account records reused for HERALD_CONNECTION_CACHE_MS by the synchronous read routes (apps/api/connection-reads.ts). */
  connectionCache?: ConnectionReadCache;
  /** Profiles reused for the same time by intake, while `changeFeed` is live. */
  profileCache?: ProfileReadCache;
  /**
   * Announcements of every daemon's profile and connection writes: while it is live, intake reads
   * profiles and connections through the caches above (which drop what is announced).
   */
  changeFeed?: RecordChangeFeed;
  /**
   * The accounts' upload stamps, moved by every daemon's upload writes (storage built with
   * stampedUploadWrites): status reads are cached only with them, and only while they hold.
   */
  uploadVersions?: UploadVersions;
}

export interface ApiOptions {
  namespace: string;
  syncTimeoutMs: number;
  /** Reverse proxies in front whose X-Forwarded-For entries are trusted (HERALD_TRUST_PROXY); 0: none. */
  trustProxy: number;
  /** Herald's address as networks and browsers reach it (OAuth callbacks, media URLs). */
  publicBaseUrl: string;
  duplicateWindowMs: number;
  statusCacheMs: number;
  /** Largest uploaded file, streamed to a temporary file, never held in memory. */
  maxUploadBytes: number;
  /** Where uploaded files are streamed to: the media store's staging directory (moved in, not copied). */
  uploadDir?: string;
  /** Connect links: lifetime and the web daemon's public address (access_url). */
  connectLinks?: ConnectLinkOptions;
  /** HERALD_CHECK_RESPONSES (the test tiers): every answer checked against its declared schema (catalogue/response-check.ts). */
  checkResponses?: boolean;
}

export interface AppState {
  caller: Caller;
}
