/**
 * YouTube through the Data API v3 (developers.google.com/youtube/v3) and Google OAuth 2.
 *
 * Publishing is the resumable upload protocol (guides/using_resumable_upload_protocol): a POST
 * opens a session with the video resource, the bytes follow in PUT chunks (multiples of 256 KiB,
 * 308 + Range until the last, then the created video). The session URI lives in the step state,
 * so an interrupted upload asks the session how far it got (`Content-Range: bytes *\/total`) and
 * goes on from there instead of starting over. Then, best effort and never failing the publish:
 * the thumbnail, playlists and captions; then videos.list is polled until processing ends.
 *
 * Once YouTube has the video, nothing here throws a retryable failure: the engine answers a
 * retry by publishing again from the start, which would upload the video a second time.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { MediaRef } from '../../../core/domain/media';
import type { SettingField, SettingsSchema, SettingViolation } from '../../../core/domain/settings';
import type {
  AccountIdentity, PlatformAdapter, PlatformCredentials, PlatformDescriptor, PublishContext,
  PublishPost, PublishStep, VerifiedConnection,
} from '../../../core/ports/platform';
import type { CallContext } from '../../../core/ports/platform';
import { exchangeJson, isObject, type HttpExchange, type Json } from '../kit/http';

export const YOUTUBE_API_BASE = 'https://www.googleapis.com';
export const GOOGLE_AUTH_BASE = 'https://accounts.google.com';
export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
/** youtube.upload uploads and sets thumbnails; force-ssl reads the channel, adds playlist items, captions and comments. */
export const YOUTUBE_SCOPES = [
  'https://www.googleapis.com/auth/youtube.upload',
  'https://www.googleapis.com/auth/youtube.force-ssl',
] as const;

/** Resumable chunks must be multiples of this, except the last one. */
export const YOUTUBE_CHUNK_UNIT = 256 * 1024;
const DEFAULT_CHUNK_BYTES = 32 * YOUTUBE_CHUNK_UNIT; // 8 MiB
const DEFAULT_BYTES_PER_STEP = 64 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_UPLOAD_TIMEOUT_MS = 120_000;
const DEFAULT_POLL_INTERVAL_MS = 15_000;
const DEFAULT_MAX_PROCESSING_MS = 60 * 60_000;
/** Consecutive unanswered chunk PUTs before the upload gives up (then restarts on a new session). */
const MAX_CHUNK_ATTEMPTS = 5;

const TITLE_MAX_CHARS = 100;
const DESCRIPTION_MAX_BYTES = 5000;
const TAGS_MAX_CHARS = 500;
const COMMENT_MAX_CHARS = 10_000;
const THUMBNAIL_MAX_BYTES = 2 * 1024 * 1024;
const SHORT_MAX_SECONDS = 180;

/** Spec restriction pauses: `daily_upload_limit` 2 h then retried, `permission_denied` 24 h. */
export const YOUTUBE_DAILY_LIMIT_PAUSE_MS = 2 * 3600_000;
export const YOUTUBE_PERMISSION_PAUSE_MS = 24 * 3600_000;
/** When a throttled answer carries no Retry-After. */
const DEFAULT_RETRY_AFTER_MS = 60_000;

export interface YoutubePlatformOptions {
  clientId: string;
  clientSecret: string;
  /** Data API and upload host. Default https://www.googleapis.com (uploads go to `${apiBase}/upload/youtube/v3/...`). */
  apiBase?: string;
  /** Host of the consent page `${authBase}/o/oauth2/v2/auth`. Default https://accounts.google.com. */
  authBase?: string;
  /** Default https://oauth2.googleapis.com/token. */
  tokenUrl?: string;
  /** JSON calls. Default 15 s. */
  timeoutMs?: number;
  /** Each chunk PUT. Default 120 s. */
  uploadTimeoutMs?: number;
  /** Bytes per PUT; a positive multiple of 256 KiB. Default 8 MiB. */
  chunkSizeBytes?: number;
  /** Bytes sent in one publish step before handing back a `wait`, so no single call runs for hours. Default 64 MiB. */
  maxBytesPerStep?: number;
  /** Between processing polls. Default 15 s. */
  pollIntervalMs?: number;
  /** Processing polled this long at most; then the post is reported with a "still processing" warning. Default 60 min. */
  maxProcessingMs?: number;
  fetch?: typeof fetch;
  /** Clock for token expiry, restriction ends and quota resets. */
  now?: () => Date;
  /** How long a channel over its daily upload limit is paused before its post is retried. Default 2 h (spec). */
  dailyLimitPauseMs?: number;
}

// ---------------------------------------------------------------- settings

const V = ['video'] as const;
const LANGUAGE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;
const COUNTRY = /^[A-Za-z]{2}$/;
const SUBTITLE_EXTENSIONS = ['srt', 'vtt', 'sbv', 'sub', 'ass', 'ssa', 'ttml', 'dfxp'];
const THUMBNAIL_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/bmp'];
/** The indexed subtitle forms cannot be declared open-ended: slots 0..9 are generated next to the unindexed one. */
export const YOUTUBE_SUBTITLE_SLOTS: readonly string[] = ['', ...Array.from({ length: 10 }, (_, n) => `_${n}`)];

const subtitleFields: SettingField[] = YOUTUBE_SUBTITLE_SLOTS.flatMap((slot) => [
  { name: `youtube_subtitle_file${slot}`, type: 'file', endpoints: V, description: `Caption file (${SUBTITLE_EXTENSIONS.join(', ').toUpperCase()}).` },
  { name: `youtube_subtitle_language${slot}`, type: 'string', endpoints: V, description: 'BCP-47 language of the caption file; required with it.' },
  { name: `youtube_subtitle_name${slot}`, type: 'string', endpoints: V, maxLength: 150, description: 'Track name; defaults to the language code.' },
] satisfies SettingField[]);

const bool = (name: string, dflt: boolean, aliases: string[] = []): SettingField =>
  ({ name, aliases: [`youtube_${name}`, ...aliases], type: 'boolean', endpoints: V, default: dflt });

const fields: SettingField[] = [
  { name: 'youtube_title', type: 'string', endpoints: V, maxLength: TITLE_MAX_CHARS, description: 'Overrides title.' },
  { name: 'youtube_description', aliases: ['description'], type: 'string', endpoints: V, maxLength: DESCRIPTION_MAX_BYTES, description: 'Defaults to the title; at most 5000 bytes.' },
  { name: 'tags', aliases: ['youtube_tags'], type: 'string_list', endpoints: V },
  { name: 'categoryId', aliases: ['youtube_categoryId', 'category_id'], type: 'string', endpoints: V, default: '22' },
  { name: 'privacyStatus', aliases: ['youtube_privacyStatus', 'privacy_status'], type: 'string', endpoints: V, oneOf: ['public', 'unlisted', 'private'], default: 'public' },
  { name: 'publishAt', aliases: ['youtube_publishAt', 'publish_at'], type: 'string', endpoints: V, description: 'ISO-8601 time a private video turns public.' },
  bool('embeddable', true),
  { name: 'license', aliases: ['youtube_license'], type: 'string', endpoints: V, oneOf: ['youtube', 'creativeCommon'], default: 'youtube' },
  bool('publicStatsViewable', true),
  { name: 'thumbnail', aliases: ['youtube_thumbnail'], type: 'file', endpoints: V, description: 'JPG, PNG, GIF or BMP, at most 2 MB; wins over thumbnail_url.' },
  { name: 'thumbnail_url', aliases: ['youtube_thumbnail_url'], type: 'url', endpoints: V },
  bool('selfDeclaredMadeForKids', false, ['made_for_kids']),
  // The cross-platform is_ai_generated feeds it; the platform's own name wins when both are sent.
  bool('containsSyntheticMedia', false, ['is_ai_generated']),
  { name: 'defaultLanguage', aliases: ['youtube_defaultLanguage'], type: 'string', endpoints: V },
  { name: 'defaultAudioLanguage', aliases: ['youtube_defaultAudioLanguage'], type: 'string', endpoints: V },
  { name: 'allowedCountries', aliases: ['youtube_allowedCountries'], type: 'string_list', endpoints: V },
  { name: 'blockedCountries', aliases: ['youtube_blockedCountries'], type: 'string_list', endpoints: V },
  bool('hasPaidProductPlacement', false),
  { name: 'recordingDate', aliases: ['youtube_recordingDate'], type: 'string', endpoints: V, description: 'ISO-8601 date.' },
  // Not in the spec's field list: the videos.insert parameter, for channels that upload in bulk.
  bool('notifySubscribers', true),
  { name: 'youtube_playlist_id', type: 'string_list', endpoints: V, description: 'One playlist id or a comma-separated list; best effort.' },
  ...subtitleFields,
];

const extensionOf = (ref: MediaRef) => /\.([A-Za-z0-9]+)$/.exec(ref.filename ?? '')?.[1]?.toLowerCase();
const isIsoDate = (s: string) => /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(s) && Number.isFinite(Date.parse(s));
const hasAngleBrackets = (s: string) => /[<>]/.test(s);

/** YouTube counts a tag with a space as if it were quoted, and the commas between tags. */
export function youtubeTagsLength(tags: readonly string[]): number {
  return tags.reduce((sum, tag) => sum + [...tag].length + (tag.includes(' ') ? 2 : 0), 0) + Math.max(0, tags.length - 1);
}

function checkSettings(values: Record<string, unknown>): SettingViolation[] {
  const out: SettingViolation[] = [];
  const v = (field: string, message: string) => out.push({ field, message });
  const text = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
  const list = (name: string) => (Array.isArray(values[name]) ? (values[name] as string[]) : undefined);

  const allowed = list('allowedCountries');
  const blocked = list('blockedCountries');
  if (allowed && blocked) v('allowedCountries', 'allowedCountries and blockedCountries are mutually exclusive: send one of them.');
  for (const [name, codes] of [['allowedCountries', allowed], ['blockedCountries', blocked]] as const) {
    const bad = (codes ?? []).filter((c) => !COUNTRY.test(c));
    if (bad.length) v(name, `${name} takes ISO 3166-1 alpha-2 codes such as US or DE; not ${bad.join(', ')}.`);
  }
  for (const name of ['defaultLanguage', 'defaultAudioLanguage']) {
    const lang = text(name);
    if (lang !== undefined && !LANGUAGE.test(lang)) v(name, `${name} must be a BCP-47 language code such as en or pt-BR.`);
  }
  const category = text('categoryId');
  if (category !== undefined && !/^\d+$/.test(category)) v('categoryId', 'categoryId must be a numeric YouTube category id such as 22.');
  for (const name of ['publishAt', 'recordingDate']) {
    const date = text(name);
    if (date !== undefined && !isIsoDate(date)) v(name, `${name} must be an ISO-8601 date or date-time.`);
  }
  const publishAt = text('publishAt');
  if (publishAt !== undefined && isIsoDate(publishAt) && Date.parse(publishAt) <= Date.now()) v('publishAt', 'publishAt must be in the future.');
  for (const name of ['youtube_title', 'youtube_description']) {
    const value = text(name);
    if (value !== undefined && hasAngleBrackets(value)) v(name, `${name} cannot contain < or >.`);
  }
  const description = text('youtube_description');
  if (description !== undefined && Buffer.byteLength(description) > DESCRIPTION_MAX_BYTES) {
    v('youtube_description', `youtube_description is at most ${DESCRIPTION_MAX_BYTES} bytes (UTF-8).`);
  }
  const tags = list('tags');
  if (tags?.some(hasAngleBrackets)) v('tags', 'tags cannot contain < or >.');
  if (tags && youtubeTagsLength(tags) > TAGS_MAX_CHARS) v('tags', `tags are at most ${TAGS_MAX_CHARS} characters together (commas count; a tag with a space counts its quotes).`);

  const thumbnail = values.thumbnail as MediaRef | undefined;
  if (thumbnail && !THUMBNAIL_TYPES.includes(thumbnail.contentType)) v('thumbnail', 'thumbnail must be a JPG, PNG, GIF or BMP image.');
  if (thumbnail && thumbnail.size > THUMBNAIL_MAX_BYTES) v('thumbnail', 'thumbnail is at most 2 MB.');

  for (const slot of YOUTUBE_SUBTITLE_SLOTS) {
    const fileName = `youtube_subtitle_file${slot}`;
    const langName = `youtube_subtitle_language${slot}`;
    const file = values[fileName] as MediaRef | undefined;
    const lang = text(langName);
    if (file && lang === undefined) v(langName, `${langName} is required with ${fileName}.`);
    if (!file && (lang !== undefined || text(`youtube_subtitle_name${slot}`) !== undefined)) v(fileName, `${fileName} is missing for ${langName}.`);
    if (lang !== undefined && !LANGUAGE.test(lang)) v(langName, `${langName} must be a BCP-47 language code such as en or pt-BR.`);
    const ext = file ? extensionOf(file) : undefined;
    if (file && ext !== undefined && !SUBTITLE_EXTENSIONS.includes(ext)) {
      v(fileName, `${fileName} must be one of ${SUBTITLE_EXTENSIONS.join(', ').toUpperCase()}; got .${ext}.`);
    }
  }
  return out;
}

export const youtubeSettings: SettingsSchema = { fields, check: (values) => checkSettings(values) };

export const youtubeDescriptor: PlatformDescriptor = {
  id: 'youtube',
  displayName: 'YouTube',
  connect: 'oauth',
  endpoints: ['video'],
  limits: {
    // The title is the text of a YouTube post.
    textMaxChars: TITLE_MAX_CHARS,
    // YouTube takes nearly every container (MP4, MOV, WebM, AVI, MPEG-PS, FLV, 3GPP, …): no list.
    video: { maxBytes: 256 * 1024 ** 3, maxSeconds: 12 * 3600 },
  },
  settings: youtubeSettings,
  rules: { dailyCap: 10, titleRequiredForVideo: true },
};

// ---------------------------------------------------------------- failures

/** What came back from Google, before it is given a meaning. */
export type YoutubeOutcome =
  | HttpExchange
  /** A 2xx whose body is not what the call returns. */
  | { kind: 'malformed'; status: number; what: string }
  /** videos.list says processing ended badly (status.uploadStatus failed / rejected / deleted). */
  | { kind: 'processing'; uploadStatus: string; reason?: string };

/** Milliseconds until the next midnight in America/Los_Angeles, when the Data API quota resets. */
export function msUntilPacificMidnight(now: Date): number {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/Los_Angeles', hourCycle: 'h23',
    year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
  });
  /** Pacific wall-clock date at `t`, and the zone's offset from UTC then. */
  const wall = (t: number) => {
    const p: Record<string, number> = Object.fromEntries(format.formatToParts(new Date(t)).map((part) => [part.type, Number(part.value)]));
    const wallAsUtc = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
    return { y: p.year!, m: p.month!, d: p.day!, offset: wallAsUtc - Math.floor(t / 1000) * 1000 };
  };
  const t = now.getTime();
  const today = wall(t);
  const midnightAsUtc = Date.UTC(today.y, today.m - 1, today.d + 1);
  // The offset at midnight may differ from now's on a daylight-saving day: take the one at the target.
  const guess = midnightAsUtc - today.offset;
  return midnightAsUtc - wall(guess).offset - t;
}

const snake = (reason: string) => reason.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function retryAfterMs(headers: Headers): number {
  const raw = headers.get('retry-after');
  if (!raw) return DEFAULT_RETRY_AFTER_MS;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds * 1000);
  const at = Date.parse(raw);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : DEFAULT_RETRY_AFTER_MS;
}

/**
 * The one place Google's answers get a meaning in the core taxonomy: by HTTP status, the Data
 * API's `error.errors[0].reason` and the OAuth endpoint's `error` code, never by message text.
 * Messages never contain tokens.
 */
export function mapYoutubeFailure(outcome: YoutubeOutcome, opts: { timeoutMs: number; now?: Date; dailyLimitPauseMs?: number }): PlatformError {
  const now = opts.now ?? new Date();
  const fail = (failure: PlatformError['failure'], message: string, upstream: PlatformError['upstream'] = {}) =>
    new PlatformError('youtube', failure, message, upstream);

  if (outcome.kind === 'no_response') {
    const what = outcome.reason === 'timeout' ? `YouTube did not answer within ${opts.timeoutMs} ms`
      : outcome.reason === 'aborted' ? 'The request to YouTube was cancelled before it answered'
      : `The connection to YouTube failed${outcome.detail ? ` (${outcome.detail})` : ''}`;
    return fail({ kind: 'transient' }, `${what}; the outcome is unknown: the request may or may not have taken effect.`);
  }
  if (outcome.kind === 'malformed') {
    return fail({ kind: 'rejected', code: 'unexpected_response' },
      `YouTube answered HTTP ${outcome.status} without ${outcome.what}; check the channel before retrying.`, { status: outcome.status });
  }
  if (outcome.kind === 'processing') {
    const why = outcome.reason ? ` (${outcome.reason})` : '';
    const upstream = { code: outcome.reason ?? outcome.uploadStatus };
    if (outcome.uploadStatus === 'failed') {
      return fail({ kind: 'invalid_content', code: 'video_processing_failed' }, `YouTube could not process the video${why}.`, upstream);
    }
    if (outcome.uploadStatus === 'rejected') return fail({ kind: 'rejected', code: 'video_rejected' }, `YouTube rejected the video${why}.`, upstream);
    return fail({ kind: 'rejected', code: 'video_deleted' }, 'The video was deleted on YouTube while it was processing.', upstream);
  }

  const { status, headers } = outcome;
  const body = isObject(outcome.body) ? outcome.body : {};

  // The OAuth token endpoint: {error: "invalid_grant", error_description}.
  if (typeof body.error === 'string') {
    const code = body.error;
    const said = `Google: ${typeof body.error_description === 'string' ? body.error_description : code}`;
    const upstream = { status, code };
    if (code === 'invalid_grant') {
      return fail({ kind: 'auth_expired', reason: 'invalid_grant' }, `${said}. The YouTube authorization expired or was revoked; reconnect the account.`, upstream);
    }
    if (code === 'invalid_client' || code === 'unauthorized_client') {
      return fail({ kind: 'rejected', code: 'oauth_client_invalid' }, `${said}. Check the YouTube client id and secret.`, upstream);
    }
    if (status === 429) return fail({ kind: 'rate_limited', retryAfterMs: retryAfterMs(headers) }, said, upstream);
    if (status >= 500) return fail({ kind: 'transient' }, `Google sign-in is failing (HTTP ${status}); try again later.`, upstream);
    return fail({ kind: 'rejected', code: `oauth_${code}` }, said, upstream);
  }

  // The Data API: {error: {code, message, errors: [{reason, domain}], status}}.
  const error = isObject(body.error) ? body.error : {};
  const first = Array.isArray(error.errors) && isObject(error.errors[0]) ? error.errors[0] : {};
  const reason = typeof first.reason === 'string' ? first.reason : typeof error.status === 'string' ? error.status : undefined;
  const said = `YouTube: ${typeof error.message === 'string' && error.message ? error.message : `HTTP ${status}`}`;
  const upstream = { status, code: reason };

  switch (reason) {
    case 'quotaExceeded':
      // The project's daily Data API quota resets at midnight Pacific time.
      return fail({ kind: 'rate_limited', retryAfterMs: msUntilPacificMidnight(now) }, `${said} The daily quota resets at midnight Pacific time.`, upstream);
    case 'rateLimitExceeded':
    case 'userRateLimitExceeded':
    case 'uploadRateLimitExceeded':
      return fail({ kind: 'rate_limited', retryAfterMs: retryAfterMs(headers) }, said, upstream);
    case 'uploadLimitExceeded':
      return fail({
        kind: 'restricted', reason: 'daily_upload_limit', code: 'youtube_channel_daily_limit', retryAfterPause: true,
        until: new Date(now.getTime() + (opts.dailyLimitPauseMs ?? YOUTUBE_DAILY_LIMIT_PAUSE_MS)),
      }, `${said} The channel reached its daily upload limit; it is paused for 2 hours, then retried.`, upstream);
    case 'forbidden':
    case 'insufficientPermissions':
      return fail({ kind: 'restricted', reason: 'permission_denied', until: new Date(now.getTime() + YOUTUBE_PERMISSION_PAUSE_MS) },
        `${said} The channel does not allow this; it is paused for 24 hours.`, upstream);
    case 'youtubeSignupRequired':
      return fail({ kind: 'rejected', code: 'youtube_channel_required' }, `${said} The Google account has no YouTube channel yet.`, upstream);
    case 'commentsDisabled':
      return fail({ kind: 'rejected', code: 'comments_disabled' }, said, upstream);
    case 'backendError':
      return fail({ kind: 'transient' }, `YouTube is failing (HTTP ${status}); try again later.`, upstream);
    default:
      break;
  }
  if (status === 401 || reason === 'authError') {
    return fail({ kind: 'auth_expired', reason: 'token_invalid' }, `${said}. The YouTube token expired or was revoked.`, upstream);
  }
  if (status === 429) return fail({ kind: 'rate_limited', retryAfterMs: retryAfterMs(headers) }, said, upstream);
  if (status >= 500) return fail({ kind: 'transient' }, `YouTube is failing (HTTP ${status}); try again later.`, upstream);
  if (status === 400 && reason && /^(invalid|mediaBody|contentRequired)/.test(reason)) {
    return fail({ kind: 'invalid_content', code: snake(reason) }, said, upstream);
  }
  return fail({ kind: 'rejected', ...(reason ? { code: snake(reason) } : {}) }, said, upstream);
}

// ---------------------------------------------------------------- adapter

/** What a step hands to the next one; plain JSON. */
type PublishState =
  | { phase: 'upload'; session: string; total: number; contentType: string; offset: number | null; attempts: number; warnings: string[]; extra: Json }
  | { phase: 'extras'; videoId: string; warnings: string[]; extra: Json }
  | { phase: 'processing'; videoId: string; deadline: string; warnings: string[]; extra: Json };

type Range = { kind: 'complete'; body: Json } | { kind: 'incomplete'; received: number } | { kind: 'failed'; outcome: HttpExchange };

const isShort = (video: MediaRef) => {
  const { durationSeconds, width, height } = video.info ?? {};
  return typeof durationSeconds === 'number' && durationSeconds <= SHORT_MAX_SECONDS && !!width && !!height && height >= width;
};

/** The bytes of a stream; past `maxBytes` it stops reading and answers undefined. */
async function collect(chunks: AsyncIterable<Uint8Array>, maxBytes = Infinity): Promise<Buffer | undefined> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.byteLength;
    if (size > maxBytes) return undefined;
    parts.push(Buffer.from(chunk));
  }
  return Buffer.concat(parts);
}

const collectAll = async (chunks: AsyncIterable<Uint8Array>) => (await collect(chunks))!;

const str = (value: unknown) => (typeof value === 'string' ? value : undefined);

export function createYoutubePlatform(opts: YoutubePlatformOptions): PlatformAdapter {
  const apiBase = (opts.apiBase ?? YOUTUBE_API_BASE).replace(/\/+$/, '');
  const apiOrigin = new URL(apiBase).origin;
  const authBase = (opts.authBase ?? GOOGLE_AUTH_BASE).replace(/\/+$/, '');
  const tokenUrl = opts.tokenUrl ?? GOOGLE_TOKEN_URL;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const uploadTimeoutMs = opts.uploadTimeoutMs ?? DEFAULT_UPLOAD_TIMEOUT_MS;
  const chunkSize = opts.chunkSizeBytes ?? DEFAULT_CHUNK_BYTES;
  const bytesPerStep = Math.max(opts.maxBytesPerStep ?? DEFAULT_BYTES_PER_STEP, chunkSize);
  const pollIntervalMs = opts.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  const maxProcessingMs = opts.maxProcessingMs ?? DEFAULT_MAX_PROCESSING_MS;
  const doFetch = opts.fetch ?? fetch;
  const now = opts.now ?? (() => new Date());
  if (!Number.isInteger(chunkSize) || chunkSize <= 0 || chunkSize % YOUTUBE_CHUNK_UNIT !== 0) {
    throw new Error(`chunkSizeBytes must be a positive multiple of ${YOUTUBE_CHUNK_UNIT} (256 KiB); got ${chunkSize}.`);
  }

  const failure = (outcome: YoutubeOutcome, ms = timeoutMs) => mapYoutubeFailure(outcome, { timeoutMs: ms, now: now(), ...(opts.dailyLimitPauseMs !== undefined ? { dailyLimitPauseMs: opts.dailyLimitPauseMs } : {}) });

  function tokenOf(ctx: CallContext): string {
    const token = ctx.credentials.access_token;
    if (!token) throw new PlatformError('youtube', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored YouTube credentials are incomplete; reconnect the account.');
    return token;
  }

  /** One Data API JSON call; any non-2xx leaves as a PlatformError. */
  async function api(token: string, method: 'GET' | 'POST', path: string, payload?: Json, signal?: AbortSignal): Promise<Json> {
    const outcome = await exchangeJson(`${apiBase}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(payload ? { 'content-type': 'application/json; charset=UTF-8' } : {}) },
      body: payload ? JSON.stringify(payload) : undefined,
    }, { fetch: doFetch, timeoutMs, signal });
    if (outcome.kind === 'no_response' || outcome.status < 200 || outcome.status >= 300) throw failure(outcome);
    if (!isObject(outcome.body)) throw failure({ kind: 'malformed', status: outcome.status, what: 'a JSON body' });
    return outcome.body;
  }

  // ---- resumable sessions (videos and captions)

  /** Opens an upload session; nothing is stored by YouTube until its bytes arrive. */
  async function openSession(ctx: PublishContext, path: string, resource: Json, size: number, contentType: string): Promise<string> {
    const outcome = await exchangeJson(`${apiBase}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokenOf(ctx)}`,
        'content-type': 'application/json; charset=UTF-8',
        'x-upload-content-length': String(size),
        'x-upload-content-type': contentType,
      },
      body: JSON.stringify(resource),
    }, { fetch: doFetch, timeoutMs, signal: ctx.signal });
    if (outcome.kind === 'no_response' || outcome.status !== 200) throw failure(outcome);
    const location = outcome.headers.get('location');
    let session: URL | undefined;
    try {
      session = location ? new URL(location, apiBase) : undefined;
    } catch { /* answered below */ }
    // The bearer token goes with every PUT: only to the API's own host.
    if (!session || session.origin !== apiOrigin) throw failure({ kind: 'malformed', status: outcome.status, what: 'an upload session URI on the API host' });
    return session.toString();
  }

  /** Sends bytes [start, start + bytes.length) of `total`, or without bytes asks the session what it holds. */
  async function sendRange(ctx: PublishContext, session: string, total: number, contentType: string, part?: { start: number; bytes: Buffer }): Promise<Range> {
    const headers: Record<string, string> = { authorization: `Bearer ${tokenOf(ctx)}` };
    if (part) {
      headers['content-type'] = contentType;
      headers['content-range'] = `bytes ${part.start}-${part.start + part.bytes.length - 1}/${total}`;
    } else {
      headers['content-range'] = `bytes */${total}`;
    }
    // 308 here is "Resume Incomplete", not a redirect.
    const outcome = await exchangeJson(session, { method: 'PUT', headers, body: part ? part.bytes : undefined, redirect: 'manual' },
      { fetch: doFetch, timeoutMs: uploadTimeoutMs, signal: ctx.signal });
    if (outcome.kind === 'no_response') return { kind: 'failed', outcome };
    if (outcome.status === 200 || outcome.status === 201) {
      if (!isObject(outcome.body)) throw failure({ kind: 'malformed', status: outcome.status, what: 'the created resource' });
      return { kind: 'complete', body: outcome.body };
    }
    if (outcome.status === 308) {
      const last = /bytes=\d+-(\d+)/.exec(outcome.headers.get('range') ?? '')?.[1];
      return { kind: 'incomplete', received: last === undefined ? 0 : Number(last) + 1 };
    }
    return { kind: 'failed', outcome };
  }

  const readRange = (ctx: PublishContext, id: string, start: number, end: number) => collectAll(ctx.media.read(id, { start, end }));

  // ---- publish: validation and the video resource

  function textsOf(post: PublishPost) {
    const title = str(post.settings.youtube_title) ?? post.title;
    const description = str(post.settings.youtube_description) ?? post.description ?? title;
    return { title, description };
  }

  /** Everything that must fail is refused here, before anything is sent. */
  function validate(post: PublishPost): MediaRef {
    const invalid = (code: string, message: string) => new PlatformError('youtube', { kind: 'invalid_content', code }, message);
    if (post.kind !== 'video') throw new PlatformError('youtube', { kind: 'unsupported' }, 'YouTube takes videos only.');
    const video = post.media[0];
    if (post.media.length !== 1 || video?.kind !== 'video') throw invalid('media_invalid', 'YouTube takes exactly one video per upload.');
    const limits = youtubeDescriptor.limits.video!;
    if (video.size > limits.maxBytes!) throw invalid('video_too_large', 'YouTube takes videos up to 256 GB.');
    const seconds = video.info?.durationSeconds;
    if (typeof seconds === 'number' && seconds > limits.maxSeconds!) throw invalid('video_too_long', 'YouTube takes videos up to 12 hours.');
    const { title, description } = textsOf(post);
    if (title.trim() === '') throw invalid('title_required', 'YouTube needs a title: send title or youtube_title.');
    if ([...title].length > TITLE_MAX_CHARS) throw invalid('title_too_long', `YouTube titles are at most ${TITLE_MAX_CHARS} characters; this one has ${[...title].length}.`);
    if (hasAngleBrackets(title)) throw invalid('invalid_title', 'YouTube titles cannot contain < or >.');
    if (Buffer.byteLength(description) > DESCRIPTION_MAX_BYTES) {
      throw invalid('description_too_long', `YouTube descriptions are at most ${DESCRIPTION_MAX_BYTES} bytes; this one has ${Buffer.byteLength(description)}.`);
    }
    if (hasAngleBrackets(description)) throw invalid('invalid_description', 'YouTube descriptions cannot contain < or >.');
    return video;
  }

  /** The settings, field by field, onto the video resource and the parts it fills. */
  function videoResource(post: PublishPost, warnings: string[]): { resource: Json; parts: string[] } {
    const s = post.settings;
    const { title, description } = textsOf(post);
    const tags = Array.isArray(s.tags) ? (s.tags as string[]) : undefined;
    const publishAt = str(s.publishAt);
    let privacyStatus = str(s.privacyStatus) ?? 'public';
    if (publishAt && privacyStatus !== 'private') {
      // YouTube schedules only private videos: they turn public at publishAt.
      warnings.push(`privacyStatus ${privacyStatus} was sent as private because publishAt is set: YouTube makes the video public at ${publishAt}.`);
      privacyStatus = 'private';
    }
    const snippet: Json = { title, description, categoryId: str(s.categoryId) ?? '22' };
    if (tags?.length) snippet.tags = tags;
    if (str(s.defaultLanguage)) snippet.defaultLanguage = s.defaultLanguage;
    if (str(s.defaultAudioLanguage)) snippet.defaultAudioLanguage = s.defaultAudioLanguage;
    const status: Json = {
      privacyStatus,
      embeddable: s.embeddable ?? true,
      license: str(s.license) ?? 'youtube',
      publicStatsViewable: s.publicStatsViewable ?? true,
      selfDeclaredMadeForKids: s.selfDeclaredMadeForKids ?? false,
      containsSyntheticMedia: s.containsSyntheticMedia ?? false,
    };
    if (publishAt) status.publishAt = new Date(publishAt).toISOString();
    const resource: Json = { snippet, status, paidProductPlacementDetails: { hasPaidProductPlacement: s.hasPaidProductPlacement ?? false } };
    const parts = ['snippet', 'status', 'paidProductPlacementDetails'];
    const recordingDate = str(s.recordingDate);
    if (recordingDate) {
      resource.recordingDetails = { recordingDate: new Date(recordingDate).toISOString() };
      parts.push('recordingDetails');
    }
    // contentDetails.regionRestriction is read-only in the Data API (and marked deprecated): an
    // upload cannot restrict countries, so say so instead of sending a field YouTube ignores.
    for (const name of ['allowedCountries', 'blockedCountries']) {
      const codes = s[name];
      if (Array.isArray(codes) && codes.length) {
        warnings.push(`${name} was not applied: the YouTube Data API cannot set country restrictions; set them in YouTube Studio.`);
      }
    }
    return { resource, parts };
  }

  // ---- publish: the steps

  async function startUpload(ctx: PublishContext, post: PublishPost): Promise<PublishStep> {
    const video = validate(post);
    const warnings: string[] = [];
    const { resource, parts } = videoResource(post, warnings);
    const notify = post.settings.notifySubscribers ?? true;
    // YouTube takes no idempotency key: ctx.idempotencyKey cannot be forwarded.
    const contentType = video.contentType.startsWith('video/') ? video.contentType : 'application/octet-stream';
    const session = await openSession(ctx,
      `/upload/youtube/v3/videos?uploadType=resumable&part=${parts.join(',')}&notifySubscribers=${notify ? 'true' : 'false'}`,
      resource, video.size, contentType);
    const extra: Json = { short: isShort(video) };
    return uploadChunks(ctx, post, { phase: 'upload', session, total: video.size, contentType, offset: 0, attempts: 0, warnings, extra });
  }

  async function uploadChunks(ctx: PublishContext, post: PublishPost, state: Extract<PublishState, { phase: 'upload' }>): Promise<PublishStep> {
    const video = post.media[0]!;
    const retryLater = (outcome: HttpExchange): PublishStep => {
      // A chunk that got no answer (or a 5xx) may or may not have landed: ask the session next time.
      if (state.attempts + 1 >= MAX_CHUNK_ATTEMPTS) throw failure(outcome, uploadTimeoutMs);
      return { kind: 'wait', afterMs: Math.min(1000 * 2 ** state.attempts, 30_000), state: { ...state, offset: null, attempts: state.attempts + 1 } };
    };
    const settle = (range: Range): number | PublishStep => {
      if (range.kind === 'complete') {
        const id = str(range.body.id);
        if (!id) throw failure({ kind: 'malformed', status: 200, what: 'the id of the uploaded video' });
        return { kind: 'wait', afterMs: 0, state: { phase: 'extras', videoId: id, warnings: state.warnings, extra: state.extra } };
      }
      if (range.kind === 'incomplete') return range.received;
      const { outcome } = range;
      if (outcome.kind === 'no_response' || outcome.status >= 500) return retryLater(outcome);
      if (outcome.status === 404 || outcome.status === 410) {
        // Sessions live about a week: a fresh publish opens a new one (no video exists yet).
        throw new PlatformError('youtube', { kind: 'transient' }, 'The YouTube upload session expired; the upload starts again.', { status: outcome.status });
      }
      throw failure(outcome);
    };

    let offset = state.offset;
    let sent = 0;
    while (sent < bytesPerStep) {
      if (offset === null || offset >= state.total) {
        const settled = settle(await sendRange(ctx, state.session, state.total, state.contentType));
        if (typeof settled !== 'number') return settled;
        if (settled >= state.total) throw failure({ kind: 'malformed', status: 308, what: 'the video, though it holds every byte' });
        offset = settled;
      }
      const end = Math.min(offset + chunkSize, state.total);
      const bytes = await readRange(ctx, video.id, offset, end);
      const settled = settle(await sendRange(ctx, state.session, state.total, state.contentType, { start: offset, bytes }));
      if (typeof settled !== 'number') return settled;
      sent += bytes.length;
      offset = settled;
      state = { ...state, offset, attempts: 0 };
    }
    return { kind: 'wait', afterMs: 0, state };
  }

  /** Thumbnail, playlists and captions: each reported, none failing the publish. */
  async function addExtras(ctx: PublishContext, post: PublishPost, state: Extract<PublishState, { phase: 'extras' }>): Promise<PublishStep> {
    const warnings = [...state.warnings];
    const extra: Json = { ...state.extra };
    const reason = (err: unknown) => (err instanceof Error ? err.message : String(err));

    const thumbnail = post.settings.thumbnail as MediaRef | undefined;
    const thumbnailUrl = str(post.settings.thumbnail_url);
    if (thumbnail || thumbnailUrl) {
      if (extra.short === true) {
        warnings.push('The thumbnail was not set: YouTube does not take custom thumbnails for Shorts.');
      } else {
        try {
          await setThumbnail(ctx, state.videoId, thumbnail, thumbnailUrl);
        } catch (err) {
          extra.thumbnail_error = reason(err);
          warnings.push(`The thumbnail was not set: ${reason(err)}`);
        }
      }
    }

    const playlists = Array.isArray(post.settings.youtube_playlist_id) ? (post.settings.youtube_playlist_id as string[]) : [];
    if (playlists.length) {
      const results: Json[] = [];
      for (const playlistId of playlists) {
        try {
          await api(tokenOf(ctx), 'POST', '/youtube/v3/playlistItems?part=snippet',
            { snippet: { playlistId, resourceId: { kind: 'youtube#video', videoId: state.videoId } } }, ctx.signal);
          results.push({ playlist_id: playlistId, success: true });
        } catch (err) {
          results.push({ playlist_id: playlistId, success: false, error: reason(err) });
          warnings.push(`The video was not added to playlist ${playlistId}: ${reason(err)}`);
        }
      }
      extra.playlists = results;
    }

    const captions: Json[] = [];
    for (const slot of YOUTUBE_SUBTITLE_SLOTS) {
      const file = post.settings[`youtube_subtitle_file${slot}`] as MediaRef | undefined;
      const language = str(post.settings[`youtube_subtitle_language${slot}`]);
      if (!file || !language) continue;
      const name = str(post.settings[`youtube_subtitle_name${slot}`]) ?? language;
      try {
        const caption = await uploadCaption(ctx, state.videoId, file, language, name);
        captions.push({ language, name, success: true, caption_id: caption });
      } catch (err) {
        captions.push({ language, name, success: false, error: reason(err) });
        warnings.push(`The ${language} captions were not added: ${reason(err)}`);
      }
    }
    if (captions.length) extra.captions = captions;

    const deadline = new Date(now().getTime() + maxProcessingMs).toISOString();
    return { kind: 'wait', afterMs: pollIntervalMs, state: { phase: 'processing', videoId: state.videoId, deadline, warnings, extra } };
  }

  async function setThumbnail(ctx: PublishContext, videoId: string, file: MediaRef | undefined, url: string | undefined): Promise<void> {
    let bytes: Buffer;
    let type: string;
    if (file) {
      bytes = await collectAll(ctx.media.read(file.id));
      type = file.contentType;
    } else {
      ({ bytes, type } = await fetchImage(url!, ctx.signal));
    }
    if (!THUMBNAIL_TYPES.includes(type)) throw new Error(`thumbnail_url is ${type || 'of no content type'}, not a JPG, PNG, GIF or BMP image.`);
    if (bytes.length > THUMBNAIL_MAX_BYTES) throw new Error('the thumbnail is larger than 2 MB.');
    // thumbnails.set names image/jpeg and image/png; GIF and BMP go as octet-stream.
    const contentType = type === 'image/jpeg' || type === 'image/png' ? type : 'application/octet-stream';
    const outcome = await exchangeJson(`${apiBase}/upload/youtube/v3/thumbnails/set?videoId=${encodeURIComponent(videoId)}&uploadType=media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokenOf(ctx)}`, 'content-type': contentType },
      body: bytes,
    }, { fetch: doFetch, timeoutMs: uploadTimeoutMs, signal: ctx.signal });
    if (outcome.kind === 'no_response' || outcome.status !== 200) throw failure(outcome, uploadTimeoutMs);
  }

  /** thumbnails.set takes bytes, not a URL: Herald fetches thumbnail_url itself. */
  async function fetchImage(url: string, signal?: AbortSignal): Promise<{ bytes: Buffer; type: string }> {
    const timeout = AbortSignal.timeout(timeoutMs);
    let res: Response;
    try {
      res = await doFetch(url, { signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    } catch {
      throw new Error(`thumbnail_url could not be fetched (no answer within ${timeoutMs} ms).`);
    }
    if (!res.ok || !res.body) throw new Error(`thumbnail_url answered HTTP ${res.status}.`);
    const bytes = await collect(res.body, THUMBNAIL_MAX_BYTES);
    if (!bytes) {
      await res.body.cancel().catch(() => undefined);
      throw new Error('the thumbnail is larger than 2 MB.');
    }
    const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    return { bytes, type: type === 'image/jpg' ? 'image/jpeg' : type };
  }

  /** captions.insert through its own resumable session: the snippet first, then the file. */
  async function uploadCaption(ctx: PublishContext, videoId: string, file: MediaRef, language: string, name: string): Promise<string> {
    const bytes = await collectAll(ctx.media.read(file.id));
    // captions.insert takes any type; octet-stream keeps YouTube detecting the format from the content.
    const session = await openSession(ctx, '/upload/youtube/v3/captions?uploadType=resumable&part=snippet',
      { snippet: { videoId, language, name, isDraft: false } }, bytes.length, 'application/octet-stream');
    const range = await sendRange(ctx, session, bytes.length, 'application/octet-stream', { start: 0, bytes });
    if (range.kind === 'failed') throw failure(range.outcome, uploadTimeoutMs);
    if (range.kind === 'incomplete') throw new Error(`YouTube kept ${range.received} of ${bytes.length} caption bytes.`);
    const id = str(range.body.id);
    if (!id) throw failure({ kind: 'malformed', status: 200, what: 'the id of the caption track' });
    return id;
  }

  async function pollProcessing(ctx: PublishContext, state: Extract<PublishState, { phase: 'processing' }>): Promise<PublishStep> {
    const warnings = [...state.warnings];
    const done = (processing: string, note?: string): PublishStep => {
      if (note) warnings.push(note);
      const short = state.extra.short === true;
      return {
        kind: 'done',
        outcome: {
          postId: state.videoId,
          url: short ? `https://www.youtube.com/shorts/${state.videoId}` : `https://www.youtube.com/watch?v=${state.videoId}`,
          warnings,
          extra: { ...state.extra, processing_status: processing },
        },
      };
    };
    const pastDeadline = now().getTime() >= Date.parse(state.deadline);
    const again = (): PublishStep => (pastDeadline
      ? done('processing', 'YouTube is still processing the video; it plays at its URL once processing ends.')
      : { kind: 'wait', afterMs: pollIntervalMs, state });

    let video: Json | undefined;
    try {
      const list = await api(tokenOf(ctx), 'GET', `/youtube/v3/videos?part=status,processingDetails&id=${encodeURIComponent(state.videoId)}`, undefined, ctx.signal);
      video = Array.isArray(list.items) && isObject(list.items[0]) ? list.items[0] : undefined;
    } catch (err) {
      // auth_expired is safe to throw: the engine refreshes the token and resumes this same step.
      if (err instanceof PlatformError && err.failure.kind === 'auth_expired') throw err;
      if (err instanceof PlatformError && (err.failure.kind === 'transient' || err.failure.kind === 'rate_limited')) return again();
      return done('unknown', `The processing status of the video could not be read: ${(err as Error).message}`);
    }
    // A video just uploaded can take a moment to be listed.
    if (!video) return again();
    const status = isObject(video.status) ? video.status : {};
    const details = isObject(video.processingDetails) ? video.processingDetails : {};
    const uploadStatus = str(status.uploadStatus);
    if (uploadStatus === 'failed' || uploadStatus === 'rejected' || uploadStatus === 'deleted') {
      throw failure({ kind: 'processing', uploadStatus, reason: str(status.failureReason) ?? str(status.rejectionReason) });
    }
    const processing = str(details.processingStatus);
    if (processing === 'failed' || processing === 'terminated') throw failure({ kind: 'processing', uploadStatus: 'failed', reason: str(details.processingFailureReason) });
    if (uploadStatus === 'processed' || processing === 'succeeded') return done('succeeded');
    return again();
  }

  // ---- connect

  const form = (fields: Record<string, string>) => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(fields).toString(),
  });

  async function tokenRequest(fields: Record<string, string>): Promise<Json & { access_token: string; expires_in: number }> {
    const outcome = await exchangeJson(tokenUrl, form({ ...fields, client_id: opts.clientId, client_secret: opts.clientSecret }),
      { fetch: doFetch, timeoutMs });
    if (outcome.kind === 'no_response' || outcome.status !== 200) throw failure(outcome);
    const body = outcome.body;
    if (!isObject(body) || typeof body.access_token !== 'string' || typeof body.expires_in !== 'number') {
      throw failure({ kind: 'malformed', status: outcome.status, what: 'an access token' });
    }
    return body as Json & { access_token: string; expires_in: number };
  }

  const expiresAt = (seconds: number) => new Date(now().getTime() + seconds * 1000).toISOString();

  async function readIdentity(accessToken: string): Promise<AccountIdentity> {
    const list = await api(accessToken, 'GET', '/youtube/v3/channels?part=snippet&mine=true');
    const channel = Array.isArray(list.items) && isObject(list.items[0]) ? list.items[0] : undefined;
    if (!channel || typeof channel.id !== 'string') {
      throw new PlatformError('youtube', { kind: 'rejected', code: 'youtube_channel_required' }, 'The Google account has no YouTube channel: create one, then connect again.');
    }
    const snippet = isObject(channel.snippet) ? channel.snippet : {};
    const thumbnails = isObject(snippet.thumbnails) ? snippet.thumbnails : {};
    const avatar = isObject(thumbnails.default) ? str(thumbnails.default.url) : undefined;
    const title = str(snippet.title) ?? channel.id;
    return { platformUserId: channel.id, handle: str(snippet.customUrl) ?? title, displayName: title, avatarUrl: avatar ?? '' };
  }

  async function exchangeCode(input: { code: string; redirectUri: string; codeVerifier?: string }): Promise<VerifiedConnection> {
    const tokens = await tokenRequest({
      grant_type: 'authorization_code', code: input.code, redirect_uri: input.redirectUri,
      ...(input.codeVerifier ? { code_verifier: input.codeVerifier } : {}),
    });
    // Google's consent screen lets the user untick scopes: without both, publishing cannot work.
    const granted = (str(tokens.scope) ?? '').split(' ');
    const missing = YOUTUBE_SCOPES.filter((s) => !granted.includes(s));
    if (missing.length) {
      throw new PlatformError('youtube', { kind: 'rejected', code: 'oauth_scope_missing' },
        `The YouTube connection was not granted ${missing.join(' and ')}; connect again and allow every permission asked.`);
    }
    const refreshToken = str(tokens.refresh_token);
    if (!refreshToken) {
      throw new PlatformError('youtube', { kind: 'rejected', code: 'oauth_refresh_token_missing' }, 'Google returned no refresh token; connect again.');
    }
    const identity = await readIdentity(tokens.access_token);
    return {
      identity,
      credentials: {
        access_token: tokens.access_token,
        refresh_token: refreshToken,
        expires_at: expiresAt(tokens.expires_in),
        scope: str(tokens.scope) ?? '',
        channel_id: identity.platformUserId,
      },
    };
  }

  async function refresh(credentials: PlatformCredentials): Promise<PlatformCredentials> {
    if (!credentials.refresh_token) {
      throw new PlatformError('youtube', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored YouTube credentials have no refresh token; reconnect the account.');
    }
    const tokens = await tokenRequest({ grant_type: 'refresh_token', refresh_token: credentials.refresh_token });
    return {
      ...credentials,
      access_token: tokens.access_token,
      // Google usually keeps the refresh token; store a new one when it sends one.
      refresh_token: str(tokens.refresh_token) ?? credentials.refresh_token,
      expires_at: expiresAt(tokens.expires_in),
      scope: str(tokens.scope) ?? credentials.scope ?? '',
    };
  }

  return {
    descriptor: youtubeDescriptor,
    oauth: {
      pkce: true,
      authorizeUrl({ state, redirectUri, codeChallenge }) {
        const params = new URLSearchParams({
          client_id: opts.clientId,
          redirect_uri: redirectUri,
          response_type: 'code',
          scope: YOUTUBE_SCOPES.join(' '),
          // offline + consent: Google hands out a refresh token on every connection, reconnections included.
          access_type: 'offline',
          prompt: 'consent',
          include_granted_scopes: 'true',
          state,
        });
        if (codeChallenge) {
          params.set('code_challenge', codeChallenge);
          params.set('code_challenge_method', 'S256');
        }
        return `${authBase}/o/oauth2/v2/auth?${params.toString()}`;
      },
      exchangeCode,
    },
    refresher: { refresh },
    publisher: {
      publish: (ctx, post) => startUpload(ctx, post),
      async resume(ctx, post, raw) {
        const state = raw as PublishState;
        switch (state.phase) {
          case 'upload': return uploadChunks(ctx, post, state);
          case 'extras': return addExtras(ctx, post, state);
          case 'processing': return pollProcessing(ctx, state);
          default: throw new Error(`unknown YouTube publish state ${JSON.stringify(raw).slice(0, 80)}`);
        }
      },
    },
    comments: {
      async create(ctx, { post, text }) {
        if (!post.id) return { warnings: ['The first comment was skipped: the YouTube video id is not known yet.'] };
        if (text.trim() === '') throw new PlatformError('youtube', { kind: 'invalid_content', code: 'text_empty' }, 'The first comment is empty.');
        if ([...text].length > COMMENT_MAX_CHARS) {
          throw new PlatformError('youtube', { kind: 'invalid_content', code: 'text_too_long' }, `YouTube comments are at most ${COMMENT_MAX_CHARS} characters.`);
        }
        const thread = await api(tokenOf(ctx), 'POST', '/youtube/v3/commentThreads?part=snippet',
          { snippet: { videoId: post.id, topLevelComment: { snippet: { textOriginal: text } } } }, ctx.signal);
        const id = str(thread.id);
        if (!id) throw failure({ kind: 'malformed', status: 200, what: 'the id of the comment thread' });
        return { comment: { id, post } };
      },
    },
  };
}
