/**
 * The Facebook simulator's model: its failure modes, limits, the records tests read, and the
 * simulator's interface. The routes live in simulator.ts.
 */
import type { FacebookAnalytics } from './analytics';
import type { RecordedRequest } from '../kit/http';

export const FACEBOOK_FAILURE_MODES = [
  /** 190/463: the token expired. */
  'token_expired',
  /** 190/460: the session was invalidated (password change, security reset). */
  'token_revoked',
  /** 190/459: the user must log in to facebook.com to clear a checkpoint. */
  'checkpoint',
  /** 368/1404078: Facebook wants the admin to confirm their identity. */
  'identity_confirmation',
  /** 368/1390008: "You're posting too fast" (the spec's Facebook rate_limited restriction). */
  'posting_too_fast',
  /** 32 with X-Business-Use-Case-Usage (estimated_time_to_regain_access). */
  'rate_limited',
  /** 4 with X-App-Usage. */
  'app_rate_limited',
  /** 506: duplicate status message. */
  'duplicate_post',
  /** 200: permissions error. */
  'permission_denied',
  /** 500, code 2, is_transient. */
  'server_error',
  /** A 502 HTML page from the edge. */
  'bad_gateway',
  /** The request succeeds, but the next video created fails processing. */
  'video_processing_error',
] as const;
export type FacebookFailureMode = (typeof FACEBOOK_FAILURE_MODES)[number];

/** What `rate_limited` puts in estimated_time_to_regain_access (minutes). */
export const FACEBOOK_SIM_REGAIN_MINUTES = 2;
export const FACEBOOK_SIM_VERSION = 'v21.0';
export const SHORT_TOKEN_SECONDS = 2 * 3600;
export const LONG_TOKEN_SECONDS = 60 * 86400;
export const CODE_TTL_MS = 10 * 60_000;
export const MAX_MESSAGE = 63_206;
export const MAX_PHOTO_BYTES = 4 * 1024 * 1024;
export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/bmp', 'image/tiff'];
export const UPLOAD_FILE_TYPES = ['application/pdf', 'image/jpeg', 'image/jpg', 'image/png', 'video/mp4'];
export const DUPLICATE_WINDOW_MS = 10 * 60_000;
export const FACEBOOK_KNOWN_SCOPES: readonly string[] = [
  'public_profile', 'email', 'pages_show_list', 'pages_read_engagement', 'pages_manage_posts', 'pages_manage_engagement',
  'pages_read_user_content', 'pages_manage_metadata', 'publish_video', 'business_management', 'read_insights',
];

export interface FacebookSimAccount { id: string; name: string; pictureUrl: string; pageIds: string[] }
export interface FacebookSimPage { id: string; name: string; ownerId: string }

export interface FacebookSimPost {
  id: string;
  pageId: string;
  kind: 'status' | 'photo' | 'video';
  message?: string;
  link?: string;
  /** Photo ids (`attached_media` or the photo itself). */
  attachedMedia: string[];
  published: boolean;
  place?: string;
  targeting?: unknown;
  feedTargeting?: unknown;
  createdTime: string;
}

export interface FacebookSimPhoto {
  id: string;
  pageId: string;
  /** `url` (fetched by the simulator) or a multipart `source`. */
  source: 'url' | 'upload';
  url?: string;
  contentType: string;
  size: number;
  caption?: string;
  published: boolean;
  altText?: string;
  noStory: boolean;
  place?: string;
  targeting?: unknown;
  feedTargeting?: unknown;
  postId?: string;
  /** The feed post or story it was attached to. */
  usedBy?: string;
}

export interface FacebookSimVideo {
  id: string;
  pageId: string;
  kind: 'video' | 'story' | 'reel';
  source: 'file_url' | 'resumable' | 'rupload' | 'upload';
  fileUrl?: string;
  size: number;
  title?: string;
  description?: string;
  published: boolean;
  videoState?: string;
  /** Set once the bytes are in (always for /videos). */
  uploaded: boolean;
  /** When processing ends (null until the upload is finished). */
  readyAt: number | null;
  failProcessing: boolean;
  postId?: string;
}

export interface FacebookSimStory { postId: string; pageId: string; media: 'photo' | 'video'; mediaId: string; createdTime: string }
export interface FacebookSimComment { id: string; objectId: string; pageId: string; message: string; createdTime: string }
export interface FacebookSimUploadSession {
  id: string; accountId: string; fileName: string; fileLength: number; fileType: string; offset: number; handle?: string;
}

export interface SimToken {
  token: string;
  kind: 'user' | 'page';
  accountId: string;
  pageId?: string;
  scopes: string[];
  /** Epoch ms; null never expires. */
  expiresAt: number | null;
  revoked: boolean;
  /** The user token a page token derives from: a short-lived one makes the page token expire with it. */
  parent?: string;
}

export interface SimCode { accountId: string; redirectUri: string; scopes: string[]; expiresAt: number; used: boolean }

export interface FacebookSimulatorOptions {
  port?: number;
  /** Fixture ids and tokens derive from it. Default random. */
  seed?: string;
  /** How long video processing takes. Default 50 ms. */
  processingMs?: number;
  appId?: string;
  appSecret?: string;
  /** Answer calls without appsecret_proof with an error (the app's "Require App Secret"). Default true. */
  requireAppSecretProof?: boolean;
}

export interface FacebookSimulator {
  port: number;
  origin: string;
  /** `${origin}/v21.0`: the adapter's apiBase, videoApiBase and authBase. */
  baseUrl: string;
  app: { id: string; secret: string };
  createAccount(input: { name: string; pages?: string[]; pictureUrl?: string }): { id: string; name: string; pages: Array<{ id: string; name: string }> };
  addPage(accountId: string, name: string): { id: string; name: string };
  /** A code as the login dialog would hand out (all known page scopes unless `scopes`). */
  issueAuthCode(accountId: string, opts: { redirectUri: string; scopes?: string[] }): string;
  /** A user token without the dialog (long-lived unless `longLived: false`). */
  issueUserToken(accountId: string, opts?: { longLived?: boolean; scopes?: string[] }): string;
  /** Makes user tokens expire now (page tokens derived from long-lived user tokens keep working, as on Facebook). */
  expireAccessTokens(accountId?: string): void;
  /** Invalidates every user and page token (the user removed the app or changed their password). */
  revokeTokens(accountId?: string): void;
  accounts(): FacebookSimAccount[];
  pages(): FacebookSimPage[];
  posts(pageId?: string): FacebookSimPost[];
  photos(pageId?: string): FacebookSimPhoto[];
  videos(pageId?: string): FacebookSimVideo[];
  stories(pageId?: string): FacebookSimStory[];
  comments(objectId?: string): FacebookSimComment[];
  uploadSessions(): FacebookSimUploadSession[];
  fail(mode: FacebookFailureMode, times?: number): void;
  setLatency(ms: number): void;
  readonly requests: RecordedRequest[];
  /** The Page insights model (tests compare an adapter's numbers with these). */
  readonly analytics: FacebookAnalytics;
  state(): Record<string, unknown>;
  /** Clears posts, photos, videos, stories, comments, sessions, failures, latency and requests; accounts, pages and tokens stay. */
  reset(): void;
  close(): Promise<void>;
}
