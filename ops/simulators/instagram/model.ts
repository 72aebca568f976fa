/**
 * The Instagram simulator's model: its failure modes, limits, the fixtures and records tests read,
 * and the simulator's interface. The routes live in simulator.ts.
 */
import type { RecordedRequest } from '../kit/http';
import type { InstagramAnalytics } from './analytics';
import { META_SIM_COMMON_FAILURE_MODES } from '../kit/meta-graph';

export const INSTAGRAM_FAILURE_MODES = [
  ...META_SIM_COMMON_FAILURE_MODES,
  /** Any API call, once per arming: subcode 2207050, the account is checkpointed (checkpointAccount() makes it stick). */
  'checkpoint',
  /** The next media_publish: code 9 / 2207042, 24-hour publishing limit. */
  'publish_limit',
  /** The next media_publish: code 4 / 2207051, suspected spam. */
  'spam_restricted',
  /** The next media_publish: code 368, policy block. */
  'policy_block',
  /** The next container created ends in ERROR (2207026, unsupported video format) when processed. */
  'container_error',
] as const;
export type InstagramFailureMode = (typeof INSTAGRAM_FAILURE_MODES)[number];

/** What rate_limited answers in estimated_time_to_regain_access (minutes). */
export const INSTAGRAM_SIM_REGAIN_MINUTES = 2;
export const INSTAGRAM_SIM_API_VERSION = 'v21.0';
export const INSTAGRAM_SIM_QUOTA_TOTAL = 100;
export const SCOPES = ['instagram_business_basic', 'instagram_business_content_publish', 'instagram_business_manage_comments', 'instagram_business_manage_messages', 'instagram_business_manage_insights'];
export const SHORT_TOKEN_SECONDS = 3600;
export const LONG_TOKEN_SECONDS = 60 * 86400;
export const CODE_TTL_MS = 3600_000;
export const MAX_CAPTION = 2200;
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
export const MAX_VIDEO_BYTES = 300 * 1024 * 1024;

export interface InstagramAccountFixture {
  /** The Instagram professional account id (`user_id` of /me), used in /{ig-id}/… paths. */
  id: string;
  /** The app-scoped id returned by the token endpoint. */
  appScopedId: string;
  username: string;
  name: string;
  profilePictureUrl: string;
  followersCount: number;
}

export interface InstagramContainer {
  id: string;
  ownerId: string;
  mediaType: 'IMAGE' | 'VIDEO' | 'REELS' | 'STORIES' | 'CAROUSEL';
  isCarouselItem: boolean;
  /** Every parameter the container was created with, as sent. */
  params: Record<string, string>;
  children: string[];
  statusCode: 'IN_PROGRESS' | 'FINISHED' | 'ERROR' | 'EXPIRED' | 'PUBLISHED';
  status: string;
  createdAt: Date;
  /** What Meta fetched from the media URL. */
  fetched?: { contentType: string; bytes: number; width?: number; height?: number; durationSeconds?: number };
}

export interface InstagramMedia {
  id: string;
  ownerId: string;
  containerId: string;
  media_type: 'IMAGE' | 'VIDEO' | 'CAROUSEL_ALBUM';
  media_product_type: 'FEED' | 'REELS' | 'STORY';
  caption?: string;
  permalink: string;
  shortcode: string;
  timestamp: string;
  /** Containers of the carousel items, in order. */
  children: InstagramContainer[];
  params: Record<string, string>;
}

export interface InstagramComment { id: string; mediaId: string; text: string; username: string; timestamp: string }

export interface InstagramSimulatorOptions {
  port?: number;
  seed?: string;
  /** How long a container stays IN_PROGRESS (default 50 ms). */
  processingMs?: number;
}

export interface InstagramSimulator {
  port: number;
  origin: string;
  /** The adapter's `apiBase` (graph host) — the Graph API lives under `${apiBase}/${apiVersion}`. */
  apiBase: string;
  apiVersion: string;
  /** The adapter's `authorizeUrl` and `tokenUrl`. */
  authorizeUrl: string;
  tokenUrl: string;
  createApp(input?: { clientId?: string; clientSecret?: string; redirectUris?: string[] }): { clientId: string; clientSecret: string };
  createAccount(input: { username: string; name?: string; profilePictureUrl?: string; followersCount?: number }): InstagramAccountFixture;
  accounts(): InstagramAccountFixture[];
  /** What the approve page does, without a browser: a code for this account and app. */
  issueAuthCode(accountId: string, opts: { clientId: string; redirectUri: string; scopes?: string[] }): string;
  /** A long-lived token straight away (tests that skip the OAuth dance). */
  issueToken(accountId: string, opts: { clientId: string; scopes?: string[] }): { accessToken: string; expiresAt: Date };
  /** Every token of the account (or all) now answers 190/463. */
  expireAccessTokens(accountId?: string): void;
  /** Every token of the account (or all) now answers 190/458 (the user removed the app). */
  revokeTokens(accountId?: string): void;
  tokenInfo(token: string): { accountId: string; kind: 'short' | 'long'; expiresAt: Date; revoked: boolean; scopes: string[] } | undefined;
  /** Counts `n` extra posts against the account's 24-hour publishing quota. */
  usePublishingQuota(accountId: string, n: number): void;
  containers(): InstagramContainer[];
  posts(accountId?: string): InstagramMedia[];
  comments(mediaId?: string): InstagramComment[];
  fail(mode: InstagramFailureMode, times?: number): void;
  /** Every Graph API call with the account's tokens answers 2207050 until completeCheckpoint() (`POST /__sim/checkpoint`). */
  checkpointAccount(accountId: string): void;
  /** The user completed the checkpoint in the app: the account's calls work again. */
  completeCheckpoint(accountId: string): void;
  setLatency(ms: number): void;
  readonly requests: RecordedRequest[];
  /** The insights model: the figures the Graph insights answer (tests compare an adapter's numbers with these). */
  readonly analytics: InstagramAnalytics;
  state(): Record<string, unknown>;
  /** Clears containers, posts, comments, quota use, checkpoints, failures, latency and requests; apps, accounts, codes and tokens stay. */
  reset(): void;
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Media as Meta sees it after fetching the URL (shared with the Threads simulator).
