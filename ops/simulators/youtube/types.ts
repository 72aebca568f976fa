import type { YoutubeAnalytics } from './analytics';
/** What the YouTube simulator offers its callers: options, fixtures, failure modes and controls. */
import type { RecordedRequest } from '../kit/http';

export const YOUTUBE_FAILURE_MODES = [
  // Any API call (and, where it means something there, the token endpoint).
  'token_expired', 'token_revoked', 'quota_exceeded', 'rate_limited', 'server_error', 'service_unavailable',
  'forbidden', 'insufficient_permissions',
  // The next upload session opened for a video.
  'upload_limit_exceeded', 'invalid_title', 'invalid_description', 'invalid_tags', 'processing_failed', 'processing_rejected',
  // The next PUT to an upload session: keep the bytes but drop the connection unanswered / answer 404.
  'upload_interrupted', 'session_expired',
] as const;
export type YoutubeFailureMode = (typeof YOUTUBE_FAILURE_MODES)[number];

/** Retry-After of a rate_limited answer, in seconds. */
export const YOUTUBE_SIM_RETRY_AFTER_SECONDS = 30;

export interface YoutubeSimulatorOptions {
  port?: number;
  /** Fixture ids and tokens derive from it. Default random. */
  seed?: string;
  /** How long an uploaded video stays "processing". Default 50 ms. */
  processingMs?: number;
  /** Access token lifetime (`expires_in`). Default 3599 s. */
  accessTokenTtlSeconds?: number;
  /** Hand out a new refresh token on each refresh and revoke the old one. Default false (Google's usual behaviour). */
  rotateRefreshTokens?: boolean;
}

export interface SimChannel {
  id: string;
  title: string;
  /** `@handle`, YouTube's snippet.customUrl. */
  handle: string;
  avatarUrl: string;
  /** Unverified channels cannot set custom thumbnails. */
  verified: boolean;
  dailyUploadLimit: number;
  uploads: number;
}

export interface SimVideo {
  id: string;
  channelId: string;
  /** The query of the session-opening POST (part, notifySubscribers, …). */
  query: Record<string, string>;
  /**
   * The resource as stored: the parts the `part` parameter named, less the read-only ones
   * (contentDetails, its regionRestriction included) that videos.insert ignores.
   */
  resource: Record<string, unknown>;
  contentType: string;
  size: number;
  sha256: string;
  createdAt: Date;
  /** Set when processing fails or YouTube rejects the file. */
  outcome: 'processed' | 'failed' | 'rejected';
  failureReason?: string;
  thumbnail?: { contentType: string; size: number };
}

export interface SimComment { id: string; videoId: string; channelId: string; text: string; publishedAt: string }
export interface SimCaption { id: string; videoId: string; language: string; name: string; isDraft: boolean; size: number; text: string }
export interface SimPlaylistItem { id: string; playlistId: string; videoId: string; position: number }

export interface YoutubeSimulator {
  port: number;
  /** `http://127.0.0.1:PORT`: the adapter's apiBase and authBase, and the `/__sim/*` control routes. */
  origin: string;
  apiBase: string;
  authBase: string;
  /** `${origin}/token` */
  tokenUrl: string;
  createClient(input: { redirectUris: string[] }): { clientId: string; clientSecret: string };
  createAccount(input: { title: string; handle?: string; verified?: boolean; dailyUploadLimit?: number; avatarUrl?: string }): SimChannel;
  createPlaylist(channelId: string, title: string): string;
  /** A code as the consent page would issue it. */
  issueAuthCode(channelId: string, opts: {
    clientId: string; redirectUri: string; scopes?: string[]; codeChallenge?: string; codeChallengeMethod?: 'S256' | 'plain'; offline?: boolean;
  }): string;
  /** Tokens without the consent round trip, for publish tests and the sandbox. */
  issueTokens(channelId: string, opts: { clientId: string; scopes?: string[] }): { accessToken: string; refreshToken: string; expiresAt: Date };
  expireAccessTokens(channelId?: string): void;
  revokeTokens(channelId?: string): void;
  channels(): SimChannel[];
  videos(channelId?: string): SimVideo[];
  /** Same as videos(): the posts of this network. */
  posts(channelId?: string): SimVideo[];
  comments(videoId?: string): SimComment[];
  captions(videoId?: string): SimCaption[];
  playlistItems(playlistId?: string): SimPlaylistItem[];
  fail(mode: YoutubeFailureMode, times?: number): void;
  setLatency(ms: number): void;
  readonly requests: RecordedRequest[];
  /** Statistics and Analytics reports model (tests compare an adapter's numbers with these). */
  readonly analytics: YoutubeAnalytics;
  state(): Record<string, unknown>;
  /** Clears videos, sessions, comments, captions, playlist items, failures, latency and requests; channels, clients, playlists and tokens stay. */
  reset(): void;
  close(): Promise<void>;
}

