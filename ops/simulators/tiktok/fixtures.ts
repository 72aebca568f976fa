import type { TikTokAnalytics } from './analytics';
/** The TikTok simulator's public surface (options, fixtures, failure modes, controls) and its wire conventions (limits, internal records, int64 JSON, file sniffing). */
import type { ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import type { SeedCommentInput } from '../kit/comments';
import type { RecordedRequest } from '../kit/http';

export const GENERIC_MODES = ['access_token_invalid', 'scope_not_authorized', 'rate_limit_exceeded', 'internal_error', 'bad_gateway'] as const;
/** Verdicts of TikTok on a post, answered by the next init call. */
export const INIT_MODES = [
  'reached_active_user_cap', 'spam_risk_too_many_posts', 'spam_risk_user_banned_from_posting', 'spam_risk_too_many_pending_share',
  'spam_risk_text', 'spam_risk', 'privacy_level_option_mismatch', 'url_ownership_unverified',
  'unaudited_client_can_only_post_to_private_accounts',
] as const;
/** The next publish job created ends FAILED with this `fail_reason`. */
export const JOB_MODES = ['job_file_format_check_failed', 'job_internal', 'job_auth_removed'] as const;

/**
 * Failure switches. Generic modes answer the next API request they fit (token modes skip the token
 * endpoint and uploads); init and job modes wait for the next init call, whatever comes before it.
 */
export const TIKTOK_FAILURE_MODES = [...GENERIC_MODES, ...INIT_MODES, ...JOB_MODES] as const;
export type TikTokFailureMode = (typeof TIKTOK_FAILURE_MODES)[number];

/** What rate_limit_exceeded answers in `Retry-After`. */
export const TIKTOK_SIM_RETRY_AFTER_SECONDS = 30;

export const TIKTOK_SIM_SCOPES = ['user.info.basic', 'user.info.profile', 'user.info.stats', 'video.list', 'video.publish', 'video.upload'] as const;
export const PRIVACY_LEVELS = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'];
/** Spec "Social account object": these two groups never meet on one connection. */
export const CAPABILITY_GROUPS = [['video_privacy', 'inbox_fallback'], ['music', 'location', 'cover_image', 'draft', 'profile_analytics']];

export const MB = 1024 * 1024;
export const MIN_CHUNK = 5 * MB;
export const MAX_CHUNK = 64 * MB;
export const MAX_LAST_CHUNK = 128 * MB;
export const MAX_VIDEO_BYTES = 4 * 1024 * MB;
export const MAX_PHOTO_BYTES = 20 * MB;
export const DAY_MS = 86_400_000;
export const INIT_LIMIT_PER_MINUTE = 6;
export const DIRECT_POSTS_PER_DAY = 15;
export const PENDING_DRAFTS_PER_DAY = 5;
export const CODE_TTL_MS = 10 * 60_000;

export interface TikTokClientFixture {
  clientKey: string;
  clientSecret: string;
  /** Exact redirect URIs accepted; empty accepts any http(s) URI. */
  redirectUris: string[];
  /** Unaudited clients may only post SELF_ONLY, for at most 5 users a day. */
  audited: boolean;
  /** Distinct users that may direct-post through this client per 24 h (TikTok's active-user cap). */
  activeUserCap: number;
}

export interface TikTokAccountFixture {
  openId: string;
  unionId: string;
  username: string;
  displayName: string;
  avatarUrl: string;
  /** Granted with every new token (spec "capabilities"). */
  capabilities: string[];
  privacyLevelOptions: string[];
  commentDisabled: boolean;
  duetDisabled: boolean;
  stitchDisabled: boolean;
  maxVideoPostDurationSec: number;
}

export interface TikTokTokens {
  access_token: string;
  expires_in: number;
  open_id: string;
  refresh_expires_in: number;
  refresh_token: string;
  scope: string;
  token_type: 'Bearer';
  capabilities: string[];
}

export type TikTokJobStatus = 'PROCESSING_UPLOAD' | 'PROCESSING_DOWNLOAD' | 'SEND_TO_USER_INBOX' | 'PUBLISH_COMPLETE' | 'FAILED';

export interface TikTokPublishJob {
  publishId: string;
  openId: string;
  mediaType: 'VIDEO' | 'PHOTO';
  postMode: 'DIRECT_POST' | 'MEDIA_UPLOAD';
  source: 'FILE_UPLOAD' | 'PULL_FROM_URL';
  postInfo: Record<string, unknown>;
  sourceInfo: Record<string, unknown>;
  status: TikTokJobStatus;
  failReason?: string;
  uploadedBytes: number;
  downloadedBytes: number;
  chunksReceived: number;
  createdAt: Date;
}

/** A post as it lands on the account: published, or waiting in the inbox as a draft. */
export interface TikTokPost {
  id: string;
  publishId: string;
  openId: string;
  mediaType: 'VIDEO' | 'PHOTO';
  state: 'published' | 'inbox';
  postInfo: Record<string, unknown>;
  /** SHA-256 of each media file as TikTok received it (one for a video). */
  mediaSha256: string[];
  mediaBytes: number;
  photoCoverIndex?: number;
  createdAt: Date;
}

export interface TikTokComment {
  id: string;
  videoId: string;
  /** The author: the account's open_id for its own comments, a fan id for seeded ones. */
  openId: string;
  authorName: string;
  text: string;
  createdAt: Date;
  /** The comment this one answers. */
  parentId?: string;
  hidden: boolean;
  /** Liked by the video's owner. */
  liked: boolean;
  pinned: boolean;
}

export interface TikTokSimulatorOptions {
  port?: number;
  /** Fixture ids, keys and tokens derive from it. Default random. */
  seed?: string;
  /** Time from upload (or download) done to a final status. Default 50 ms. */
  processingMs?: number;
  /** Time after PUBLISH_COMPLETE before the post id is released. Default 0. */
  postIdDelayMs?: number;
  accessTokenTtlSeconds?: number;
  refreshTokenTtlSeconds?: number;
  /** Time before a comment written through the API shows in listings. Default 10 000 ms, as on TikTok. */
  commentListingDelayMs?: number;
}

export interface TikTokSimulator {
  port: number;
  origin: string;
  /** The adapter's apiBase and authBase: `http://127.0.0.1:PORT`. */
  apiBase: string;
  authBase: string;
  /** The adapter's businessApiBase: `http://127.0.0.1:PORT/open_api`. */
  businessApiBase: string;
  createClient(input?: Partial<TikTokClientFixture>): TikTokClientFixture;
  createAccount(input: { username: string } & Partial<Omit<TikTokAccountFixture, 'openId' | 'unionId' | 'username'>>): TikTokAccountFixture;
  /** Changes what later grants carry; tokens already issued keep theirs, like a reconnection would. */
  setCapabilities(openId: string, capabilities: string[]): void;
  setPrivacyLevelOptions(openId: string, options: string[]): void;
  /** An authorization code as if the account approved on the authorize page. */
  issueAuthCode(openId: string, opts: { clientKey: string; redirectUri: string; scope?: string; codeChallenge?: string }): string;
  /** Tokens without the OAuth dance, for tests of publishing. */
  issueTokens(openId: string, opts: { clientKey: string; scope?: string }): TikTokTokens;
  expireAccessTokens(openId?: string): void;
  expireRefreshTokens(openId?: string): void;
  /** As if the user removed the app: access and refresh tokens stop working. */
  revokeTokens(openId?: string): void;
  setProcessingMs(ms: number): void;
  setPostIdDelay(ms: number): void;
  accounts(): TikTokAccountFixture[];
  posts(openId?: string): TikTokPost[];
  publishJobs(openId?: string): TikTokPublishJob[];
  comments(videoId?: string): TikTokComment[];
  /** A comment by another TikTok user under a video (also `POST /__sim/comment {post_id, text, author_name?, parent_id?}`); listed at once. */
  seedComment(input: SeedCommentInput): TikTokComment;
  setCommentListingDelay(ms: number): void;
  fail(mode: TikTokFailureMode, times?: number): void;
  setLatency(ms: number): void;
  readonly requests: RecordedRequest[];
  /** Display API stats and API for Business analytics model (tests compare an adapter's numbers with these). */
  readonly analytics: TikTokAnalytics;
  state(): Record<string, unknown>;
  /**
   * Clears posts, jobs, comments, counters, failures, latency and recorded requests, and restores
   * processingMs, postIdDelayMs and commentListingDelayMs; clients, accounts and tokens stay.
   */
  reset(): void;
  close(): Promise<void>;
}

export interface Grant { openId: string; clientKey: string; scope: string[]; capabilities: string[]; expiresAt: number; revoked: boolean }

export interface Job extends TikTokPublishJob {
  token: string;
  uploadId?: string;
  uploadToken?: string;
  videoSize?: number;
  chunkSize?: number;
  totalChunks?: number;
  hash: ReturnType<typeof createHash>;
  head: Buffer;
  /** When the media is all there (uploaded or pulled); processing runs from then. */
  mediaReadyAt?: number;
  mediaSha256: string[];
  forcedFailReason?: string;
  completedAt?: number;
  postId?: string;
}

export type Route = 'authorize' | 'token' | 'api' | 'init' | 'upload' | 'business';

export const chars = (s: string) => [...s].length;
export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An int64 TikTok writes as a bare JSON number (post ids): marked, then unquoted after stringify. */
export const int64 = (digits: string) => `\u0000int64:${digits}`;
export function sendJsonInt64(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body).replace(/"\\u0000int64:(\d+)"/g, '$1');
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** MP4/MOV (`ftyp` box) or WebM (EBML) signature. */
export const isVideoFile = (head: Buffer) =>
  head.subarray(4, 8).toString('latin1') === 'ftyp' || head.subarray(0, 4).equals(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]));
export const isJpegOrWebp = (head: Buffer) =>
  (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff)
  || (head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP');
