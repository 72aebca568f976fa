/**
 * YouTube's wire conventions as the simulator speaks them: scopes and limits, Google's error
 * bodies, file sniffing, the internal records, and which failure mode applies to which route.
 */
import type { ServerResponse } from 'node:http';
import { sendJson } from '../kit/http';
import type { YoutubeFailureMode } from './types';

export const SCOPE = {
  upload: 'https://www.googleapis.com/auth/youtube.upload',
  forceSsl: 'https://www.googleapis.com/auth/youtube.force-ssl',
  youtube: 'https://www.googleapis.com/auth/youtube',
  readonly: 'https://www.googleapis.com/auth/youtube.readonly',
  analytics: 'https://www.googleapis.com/auth/yt-analytics.readonly',
} as const;
export const KNOWN_SCOPES: string[] = [...Object.values(SCOPE), 'openid', 'email', 'profile'];
/** Categories a US channel may assign. */
export const ASSIGNABLE_CATEGORIES = ['1', '2', '10', '15', '17', '19', '20', '22', '23', '24', '25', '26', '27', '28', '29'];
export const CHUNK_UNIT = 256 * 1024;
export const MAX_VIDEO_BYTES = 256 * 1024 ** 3;
export const THUMBNAIL_MAX_BYTES = 2 * 1024 * 1024;
export const CODE_TTL_MS = 10 * 60_000;
export const LANGUAGE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;

const STATUS_TEXT: Record<number, string> = {
  400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 409: 'ALREADY_EXISTS',
  413: 'INVALID_ARGUMENT', 429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL', 503: 'UNAVAILABLE',
};

/** Google's error body. */
export function apiError(res: ServerResponse, code: number, reason: string, message: string, domain = 'youtube.api', headers: Record<string, string> = {}) {
  sendJson(res, code, { error: { code, message, errors: [{ message, domain, reason }], status: STATUS_TEXT[code] ?? 'UNKNOWN' } }, headers);
}



/** Video containers YouTube would recognise by their first bytes. */
export function looksLikeVideo(head: Buffer): boolean {
  return head.subarray(4, 8).toString('latin1') === 'ftyp'
    || head.subarray(0, 4).equals(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]))
    || (head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'AVI ')
    || head.subarray(0, 4).equals(Buffer.from([0x00, 0x00, 0x01, 0xba]))
    || head.subarray(0, 3).toString('latin1') === 'FLV';
}

export function imageKind(head: Buffer): string | undefined {
  if (head[0] === 0xff && head[1] === 0xd8) return 'jpeg';
  if (head.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]))) return 'png';
  if (head.subarray(0, 4).toString('latin1') === 'GIF8') return 'gif';
  if (head.subarray(0, 2).toString('latin1') === 'BM') return 'bmp';
  return undefined;
}

export const tagsLength = (tags: string[]) => tags.reduce((n, t) => n + [...t].length + (t.includes(' ') ? 2 : 0), 0) + Math.max(0, tags.length - 1);

export interface Session {
  kind: 'video' | 'caption';
  channelId: string;
  query: Record<string, string>;
  resource: Record<string, unknown>;
  total: number;
  contentType: string;
  chunks: Buffer[];
  received: number;
  verdict?: 'failed' | 'rejected';
  /** The answer of the last PUT, once the upload is complete. */
  result?: Record<string, unknown>;
}

export type RouteKind = 'page' | 'token' | 'api' | 'video_init' | 'session_put';

const GENERIC: readonly YoutubeFailureMode[] = [
  'token_expired', 'token_revoked', 'quota_exceeded', 'rate_limited', 'server_error', 'service_unavailable', 'forbidden', 'insufficient_permissions',
];
const TOKEN_MODES: readonly YoutubeFailureMode[] = ['token_revoked', 'rate_limited', 'server_error', 'service_unavailable'];

/** Whether a queued mode is about this request; others wait for one they are about. */
export function applies(mode: YoutubeFailureMode, route: RouteKind): boolean {
  if (route === 'page') return false;
  if (route === 'token') return TOKEN_MODES.includes(mode);
  if (GENERIC.includes(mode)) return true;
  if (mode === 'upload_interrupted' || mode === 'session_expired') return route === 'session_put';
  return route === 'video_init';
}

