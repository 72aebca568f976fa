/** The Pinterest simulator's public surface (options, fixtures, failure modes, controls) and its wire conventions (scopes, limits, failure routing, error bodies, file sniffing). */
import type { PinterestAnalytics } from './analytics';
import type { ServerResponse } from 'node:http';
import { escapeHtml } from '../kit/html';
import { sendText, type RecordedRequest } from '../kit/http';

export const PINTEREST_FAILURE_MODES = [
  // Next /v5 request, whatever its route.
  'expired_token', 'revoked_token', 'missing_scope', 'forbidden', 'rate_limited', 'server_error', 'bad_gateway',
  // Next token request.
  'refresh_rejected',
  // Next POST /v5/pins.
  'board_not_found', 'board_section_not_found', 'image_too_small', 'image_broken', 'invalid_parameters', 'video_not_ready',
  // Next GET /v5/media/{id}: the media ends `failed`.
  'media_processing_failed',
  // Next upload to the S3-style upload URL.
  'upload_refused', 'upload_too_large', 'upload_server_error',
] as const;
export type PinterestFailureMode = (typeof PINTEREST_FAILURE_MODES)[number];

/** Code of the (undocumented) "video not ready, try again" refusal of a video Pin save. */
export const PINTEREST_SIM_VIDEO_NOT_READY_CODE = 3021;
/** A rate_limited failure answers `x-ratelimit-reset: 7` (seconds until the window resets). */
export const PINTEREST_SIM_RATE_LIMIT_RESET_SECONDS = 7;
export const PINTEREST_SIM_ACCESS_TOKEN_SECONDS = 30 * 24 * 3600;
export const PINTEREST_SIM_REFRESH_TOKEN_SECONDS = 60 * 24 * 3600;
export const PINTEREST_KNOWN_SCOPES = [
  'ads:read', 'ads:write', 'boards:read', 'boards:read_secret', 'boards:write', 'boards:write_secret', 'catalogs:read',
  'catalogs:write', 'pins:read', 'pins:read_secret', 'pins:write', 'pins:write_secret', 'user_accounts:read',
] as const;

export const DEFAULT_SCOPES = ['boards:read', 'boards:write', 'pins:read', 'pins:write', 'user_accounts:read'];
export const AUTH_CODE_TTL_MS = 10 * 60 * 1000;
export const UPLOAD_POLICY_TTL_MS = 60 * 60 * 1000;
export const MAX_VIDEO_BYTES = 2 * 1024 ** 3;
export const UPLOAD_PATH = '/pinterest-media-upload/';
export const AI_DISCLOSURES = ['AI_MODIFIED', 'SYNTHETIC_PERFORMER'];
export const COVER_TYPES = ['image/jpeg', 'image/png'];

export type Route =
  | 'authorize' | 'token' | 'user_account' | 'boards' | 'media_create' | 'media_get' | 'pins_create' | 'pins_get' | 'pins_list'
  | 'pins_save' | 'pins_delete' | 'upload' | 'unknown' | 'user_analytics' | 'pin_analytics';

/** Which routes a queued failure waits for; it stays armed until such a request comes. */
export const FAILURE_ROUTES: Record<PinterestFailureMode, (route: Route) => boolean> = {
  expired_token: isApiRoute, revoked_token: isApiRoute, missing_scope: isApiRoute, forbidden: isApiRoute,
  rate_limited: isApiRoute, server_error: isApiRoute, bad_gateway: isApiRoute,
  refresh_rejected: (r) => r === 'token',
  board_not_found: (r) => r === 'pins_create', board_section_not_found: (r) => r === 'pins_create',
  image_too_small: (r) => r === 'pins_create', image_broken: (r) => r === 'pins_create',
  invalid_parameters: (r) => r === 'pins_create', video_not_ready: (r) => r === 'pins_create',
  media_processing_failed: (r) => r === 'media_get',
  upload_refused: (r) => r === 'upload', upload_too_large: (r) => r === 'upload', upload_server_error: (r) => r === 'upload',
};
export function isApiRoute(route: Route): boolean {
  return route !== 'authorize' && route !== 'upload' && route !== 'unknown';
}

export interface PinterestSimApp { clientId: string; clientSecret: string; name: string; redirectUris: string[] }
export interface PinterestSimAccount {
  id: string; username: string; businessName: string | null; profileImage: string; accountType: 'BUSINESS' | 'PINNER'; about: string; websiteUrl: string;
}
export interface PinterestSimBoard {
  id: string; ownerId: string; name: string; description: string; privacy: 'PUBLIC' | 'PROTECTED' | 'SECRET'; sections: Array<{ id: string; name: string }>;
}
export interface PinterestSimMedia {
  id: string; ownerId: string; uploadKey: string; uploadParameters: Record<string, string>; policyExpiresAt: number;
  uploadedAt: number | null; size: number; contentType: string | null; filename: string | null; broken: boolean;
}
/** A Pin as stored: Pinterest's Pin object, plus what the request asked and what was fetched. */
export interface PinterestSimPin {
  pin: Record<string, unknown>;
  ownerId: string;
  request: Record<string, unknown>;
  /** The URLs Pinterest fetched (images, carousel items, cover) with what they answered. */
  fetched: Array<{ url: string; contentType: string; size: number }>;
}

export interface PinterestSimulatorOptions {
  port?: number;
  /** Ids and tokens derive from it: same seed and same calls, same values. Default random. */
  seed?: string;
  /** How long an uploaded video stays `processing`; default 50 ms. */
  processingMs?: number;
}

export interface PinterestSimulator {
  port: number;
  /** `http://127.0.0.1:PORT`: the authorize page host (adapter `authBase`) and `/__sim/*`. */
  origin: string;
  /** `http://127.0.0.1:PORT/v5`: the adapter's `apiBase`. */
  apiBase: string;
  /** Where video bytes are posted (returned as `upload_url`). */
  uploadUrl: string;
  createApp(input?: { name?: string; redirectUris?: string[] }): PinterestSimApp;
  createAccount(input: { username: string; businessName?: string; profileImage?: string; accountType?: 'BUSINESS' | 'PINNER' }): PinterestSimAccount;
  createBoard(accountId: string, input: { name: string; description?: string; privacy?: 'PUBLIC' | 'PROTECTED' | 'SECRET' }): PinterestSimBoard;
  createBoardSection(boardId: string, name: string): { id: string; name: string };
  /** As if the user approved the app on the authorize page. */
  issueAuthCode(accountId: string, input: { clientId: string; redirectUri: string; scopes?: string[] }): string;
  /** A grant without the OAuth dance, for publish tests and the sandbox. */
  issueTokens(accountId: string, input: { clientId: string; scopes?: string[] }): { accessToken: string; refreshToken: string; expiresAt: Date };
  expireAccessTokens(accountId?: string): void;
  expireRefreshTokens(accountId?: string): void;
  /** As if the user removed the app from their account: every token stops working. */
  revokeTokens(accountId?: string): void;
  accounts(): PinterestSimAccount[];
  boards(accountId?: string): PinterestSimBoard[];
  pins(accountId?: string): PinterestSimPin[];
  media(): PinterestSimMedia[];
  fail(mode: PinterestFailureMode, times?: number): void;
  setLatency(ms: number): void;
  readonly requests: RecordedRequest[];
  /** The analytics model (tests compare an adapter's numbers with these). */
  readonly analytics: PinterestAnalytics;
  state(): Record<string, unknown>;
  /** Clears pins, media, queued failures, latency and recorded requests; apps, accounts, boards and tokens stay. */
  reset(): void;
  close(): Promise<void>;
}


export const ERR = {
  authFailed: { code: 2, message: 'Authentication failed.' },
  authorizationFailed: { code: 3, message: 'Authorization failed.' },
  forbidden: { code: 29, message: 'You are not permitted to access that resource.' },
  rateLimited: {
    code: 8,
    message: 'This request exceeded a rate limit. This can happen if the client exceeds one of the published rate limits or if multiple write operations are applied to an object within a short time window.',
  },
  serverError: { code: 500, message: 'Something went wrong on our end. Sorry about that.' },
  boardNotFound: { code: 40, message: 'Board not found.' },
  sectionNotFound: { code: 2031, message: "Sorry! We couldn't find this board section." },
  imageTooSmall: { code: 233, message: 'Your image is too small. Please choose a larger image and try again.' },
  imageBroken: { code: 235, message: 'Sorry, this image is broken. Please pick a different image.' },
  couldNotFetch: { code: 1, message: 'Sorry, we could not fetch the image.' },
  videoNotReady: { code: PINTEREST_SIM_VIDEO_NOT_READY_CODE, message: 'Your video is still being processed. Please try again in a few seconds.' },
  mediaNotFound: { code: 404, message: 'Media upload not found' },
  notFound: { code: 404, message: 'Not found.' },
} as const;

export const invalidParams = (detail: string) => ({ code: 1, message: `Invalid parameters: ${detail}` });


export function s3Error(res: ServerResponse, status: number, code: string, message: string): void {
  sendText(res, status, `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${escapeHtml(message)}</Message><RequestId>SIM</RequestId></Error>`, 'application/xml');
}

/** The image formats Pinterest takes, told by their magic bytes. */
export function imageKind(data: Buffer): string | undefined {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (data.subarray(0, 4).toString('latin1') === 'GIF8') return 'image/gif';
  if (data.subarray(0, 4).toString('latin1') === 'RIFF' && data.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  if (data.subarray(0, 2).toString('latin1') === 'BM') return 'image/bmp';
  return undefined;
}

/** MP4 and MOV files start with an `ftyp` box. */
export const isIsoMedia = (data: Buffer) => data.length >= 12 && data.subarray(4, 8).toString('latin1') === 'ftyp';

export const isHttpUrl = (v: unknown): v is string => {
  if (typeof v !== 'string') return false;
  try {
    const url = new URL(v);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

export const obj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
export const chars = (s: string) => [...s].length;
