/**
 * Pinterest through API v5 (developers.pinterest.com/docs/api/v5, OpenAPI at
 * github.com/pinterest/api-description). OAuth 2 authorization code at www.pinterest.com/oauth/,
 * tokens from POST /v5/oauth/token with HTTP Basic client authentication, identity from
 * GET /v5/user_account, boards from GET /v5/boards.
 *
 * Publishing:
 * - photo: POST /v5/pins with `media_source.source_type` `image_url` (one photo) or
 *   `multiple_image_urls` (carousel of 2-5); Pinterest fetches the images from the media store's
 *   public URLs itself.
 * - video: POST /v5/media `{media_type:"video"}` → multipart POST of every `upload_parameters`
 *   field plus `file` to `upload_url` (an S3 form upload) → GET /v5/media/{id} until `succeeded`
 *   (wait steps) → POST /v5/pins with `source_type:"video_id"`.
 *
 * Pinterest has no first-comment API and the spec lists no first comment for it: no
 * FirstCommenter. Pinterest takes no idempotency key either, so `ctx.idempotencyKey` is unused.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { MediaRef } from '../../../core/domain/media';
import type { MediaKind } from '../../../core/domain/platforms';
import type { SettingsSchema, SettingViolation } from '../../../core/domain/settings';
import type {
  AccountIdentity, PlatformAdapter, PlatformCredentials, PlatformDescriptor, PublishContext, PublishOutcome, PublishPost,
  PublishStep, VerifiedConnection,
} from '../../../core/ports/platform';
import { exchangeJson, isObject, type HttpExchange, type Json } from '../kit/http';

export const PINTEREST_API_BASE = 'https://api.pinterest.com/v5';
/** The host of the authorize page (`/oauth/`). */
export const PINTEREST_AUTH_BASE = 'https://www.pinterest.com';
export const PINTEREST_SCOPES = ['boards:read', 'boards:write', 'pins:read', 'pins:write', 'user_accounts:read'] as const;
export const PINTEREST_AI_DISCLOSURES = ['AI_MODIFIED', 'SYNTHETIC_PERFORMER'] as const;
/**
 * Pinterest's "video not ready, try again" refusal of a video Pin save. Its public reference
 * documents no code for it, so this is the code the Herald simulator answers with (HTTP 409);
 * replace it here if Pinterest's real answer turns out to carry another one.
 */
export const PINTEREST_VIDEO_NOT_READY_CODE = 3021;
/** The spec: a transient save refusal is retried twice, after 15 s and then 30 s, before failing. */
export const PINTEREST_SAVE_RETRY_DELAYS_MS: readonly number[] = [15_000, 30_000];

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_UPLOAD_TIMEOUT_MS = 300_000;
/** Media status polling: 2 s doubling to 30 s; about 40 minutes in all before giving up. */
const FIRST_POLL_MS = 2_000;
const MAX_POLL_MS = 30_000;
const MAX_POLLS = 85;
const BOARD_PAGE_SIZE = 100;
const MAX_BOARD_PAGES = 50;

const TITLE_MAX = 100;
const DESCRIPTION_MAX = 800;
const ALT_TEXT_MAX = 500;
const LINK_MAX = 2048;
const CAROUSEL_MIN = 2;
const CAROUSEL_MAX = 5;
const COVER_CONTENT_TYPES = ['image/jpeg', 'image/png'] as const;

export interface PinterestPlatformOptions {
  /** The Pinterest app's id and secret (developers.pinterest.com/apps). */
  clientId: string;
  clientSecret: string;
  /** Default https://api.pinterest.com/v5; a simulator's `/v5` base in tests and the sandbox. */
  apiBase?: string;
  /** Host of the authorize page; default https://www.pinterest.com. */
  authBase?: string;
  /** JSON calls; default 15 s. */
  timeoutMs?: number;
  /** The video byte upload to `upload_url`; default 5 min. */
  uploadTimeoutMs?: number;
  fetch?: typeof fetch;
}

export interface PinterestBoard {
  id: string;
  name: string;
  description: string;
  privacy: string;
}

/** The adapter plus the board lookup the engine offers as GET /svc/pinterest/boards. */
export interface PinterestPlatform extends PlatformAdapter {
  listBoards(credentials: PlatformCredentials, signal?: AbortSignal): Promise<PinterestBoard[]>;
}

// ---------------------------------------------------------------------------------------------
// Descriptor and settings

const BOTH: readonly MediaKind[] = ['video', 'photo'];
const PHOTO: readonly MediaKind[] = ['photo'];
const VIDEO: readonly MediaKind[] = ['video'];

const codePoints = (s: string) => [...s].length;
const isHttpUrl = (s: string) => {
  try {
    const url = new URL(s);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
};
const isBase64 = (s: string) => s.length > 0 && s.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(s);
const present = (v: unknown) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);
const CAROUSEL_LISTS = ['pinterest_carousel_titles', 'pinterest_carousel_descriptions', 'pinterest_carousel_links'] as const;
const COVER_SOURCES = ['pinterest_cover_image_url', 'pinterest_cover_image_data', 'pinterest_cover_image_key_frame_time'] as const;

/**
 * Cross-field rules, shared by the edge (through the schema) and by the publisher, which checks
 * them again before sending anything since it can be called without the edge.
 */
function checkPinterestSettings(values: Record<string, unknown>, ctx: { endpoint: MediaKind; mediaCount: number }): SettingViolation[] {
  const violations: SettingViolation[] = [];
  const boardId = values.pinterest_board_id;
  if (!present(boardId)) {
    violations.push({ field: 'pinterest_board_id', message: 'pinterest_board_id is required when platform includes pinterest (GET /svc/pinterest/boards lists the ids).' });
  } else if (typeof boardId !== 'string' || !/^\d+$/.test(boardId)) {
    violations.push({ field: 'pinterest_board_id', message: 'pinterest_board_id must be a numeric Pinterest board id.' });
  }
  const sectionId = values.pinterest_board_section_id;
  if (present(sectionId) && (typeof sectionId !== 'string' || !/^\d+$/.test(sectionId))) {
    violations.push({ field: 'pinterest_board_section_id', message: 'pinterest_board_section_id must be a numeric Pinterest board section id.' });
  }
  if (typeof values.pinterest_link === 'string' && values.pinterest_link.length > LINK_MAX) {
    violations.push({ field: 'pinterest_link', message: `pinterest_link is at most ${LINK_MAX} characters.` });
  }

  if (ctx.endpoint === 'photo') {
    const n = ctx.mediaCount;
    if (n > CAROUSEL_MAX) {
      violations.push({ field: 'photos[]', message: `Pinterest takes one photo, or a carousel of ${CAROUSEL_MIN} to ${CAROUSEL_MAX}; this post has ${n}.` });
    }
    const carouselFields = [...CAROUSEL_LISTS, 'pinterest_carousel_index'].filter((f) => present(values[f]));
    if (carouselFields.length && n < CAROUSEL_MIN) {
      for (const field of carouselFields) {
        violations.push({ field, message: `${field} needs a carousel of ${CAROUSEL_MIN} to ${CAROUSEL_MAX} photos; this post has ${n}.` });
      }
    } else {
      for (const field of CAROUSEL_LISTS) {
        const list = values[field];
        if (Array.isArray(list) && list.length > n) {
          violations.push({ field, message: `${field} has ${list.length} items for ${n} photos: at most one per photo.` });
        }
      }
      const index = values.pinterest_carousel_index;
      if (typeof index === 'number' && index >= n) {
        violations.push({ field: 'pinterest_carousel_index', message: `pinterest_carousel_index is 0-based and must be below the number of photos (${n}).` });
      }
    }
    const links = values.pinterest_carousel_links;
    if (Array.isArray(links)) {
      const bad = links.filter((l) => typeof l !== 'string' || !isHttpUrl(l) || l.length > LINK_MAX);
      if (bad.length) violations.push({ field: 'pinterest_carousel_links', message: `pinterest_carousel_links must be http(s) URLs; not: ${bad.join(', ')}.` });
    }
  }

  if (ctx.endpoint === 'video') {
    const sources = COVER_SOURCES.filter((f) => present(values[f]));
    if (sources.length > 1) {
      for (const field of sources) {
        violations.push({ field, message: `${sources.join(', ')} are mutually exclusive: send one cover source.` });
      }
    }
    const hasData = present(values.pinterest_cover_image_data);
    const hasType = present(values.pinterest_cover_image_content_type);
    if (hasData && !hasType) {
      violations.push({ field: 'pinterest_cover_image_content_type', message: 'pinterest_cover_image_content_type is required with pinterest_cover_image_data.' });
    }
    if (hasType && !hasData) {
      violations.push({ field: 'pinterest_cover_image_data', message: 'pinterest_cover_image_data is required with pinterest_cover_image_content_type.' });
    }
    if (hasData && (typeof values.pinterest_cover_image_data !== 'string' || !isBase64(values.pinterest_cover_image_data))) {
      violations.push({ field: 'pinterest_cover_image_data', message: 'pinterest_cover_image_data must be base64 image data.' });
    }
  }
  return violations;
}

export const pinterestSettings: SettingsSchema = {
  fields: [
    { name: 'pinterest_description', type: 'string', endpoints: BOTH, maxLength: DESCRIPTION_MAX, description: 'Pin description; defaults to the title.' },
    { name: 'pinterest_board_id', type: 'string', endpoints: BOTH, description: 'Numeric id of the board to pin to (required).' },
    { name: 'pinterest_alt_text', type: 'string', endpoints: BOTH, maxLength: ALT_TEXT_MAX },
    { name: 'pinterest_link', type: 'url', endpoints: BOTH, description: 'Destination link of the Pin.' },
    { name: 'pinterest_board_section_id', type: 'string', endpoints: PHOTO },
    {
      name: 'pinterest_ai_disclosures', aliases: ['pinterest_ai_disclosures[]'], type: 'string_list', endpoints: PHOTO,
      oneOf: PINTEREST_AI_DISCLOSURES, maxLength: PINTEREST_AI_DISCLOSURES.length, description: 'Sent as ai_disclosures.values.',
    },
    // `||` and not `,` between items given as one text: titles and descriptions contain commas.
    { name: 'pinterest_carousel_titles', aliases: ['pinterest_carousel_titles[]'], type: 'string_list', endpoints: PHOTO, maxLength: CAROUSEL_MAX, separator: '||' },
    { name: 'pinterest_carousel_descriptions', aliases: ['pinterest_carousel_descriptions[]'], type: 'string_list', endpoints: PHOTO, maxLength: CAROUSEL_MAX, separator: '||' },
    { name: 'pinterest_carousel_links', aliases: ['pinterest_carousel_links[]'], type: 'string_list', endpoints: PHOTO, maxLength: CAROUSEL_MAX, separator: '||' },
    { name: 'pinterest_carousel_index', type: 'integer', endpoints: PHOTO, min: 0, max: CAROUSEL_MAX - 1, description: 'Carousel item shown first (0-based).' },
    { name: 'pinterest_cover_image_url', type: 'url', endpoints: VIDEO },
    { name: 'pinterest_cover_image_content_type', type: 'string', endpoints: VIDEO, oneOf: COVER_CONTENT_TYPES },
    { name: 'pinterest_cover_image_data', type: 'string', endpoints: VIDEO, description: 'Base64 cover image; needs pinterest_cover_image_content_type.' },
    { name: 'pinterest_cover_image_key_frame_time', type: 'integer', endpoints: VIDEO, min: 0, description: 'Milliseconds into the video; Pinterest takes whole seconds.' },
  ],
  check: checkPinterestSettings,
};

export const pinterestDescriptor: PlatformDescriptor = {
  id: 'pinterest',
  displayName: 'Pinterest',
  connect: 'oauth',
  endpoints: ['video', 'photo'],
  // The spec gives no Pinterest media limits; these are Pinterest's published Pin specs.
  limits: {
    textMaxChars: TITLE_MAX,
    video: { maxBytes: 2 * 1024 ** 3, minSeconds: 4, maxSeconds: 15 * 60, containers: ['mov,mp4,m4a,3gp,3g2,mj2'] },
    photo: {
      maxBytes: 20 * 1024 ** 2, maxCount: CAROUSEL_MAX,
      contentTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/bmp', 'image/tiff'],
    },
  },
  settings: pinterestSettings,
  rules: { dailyCap: 20 },
};

// ---------------------------------------------------------------------------------------------
// Failure mapping

/** What came back from Pinterest (or its upload storage), before it is given a meaning. */
export type PinterestOutcome =
  | HttpExchange
  /** The S3 form upload's answer: empty on success, XML `<Error><Code>` otherwise. */
  | { kind: 'upload_response'; status: number; text: string }
  /** A 2xx whose body is not what the call returns. */
  | { kind: 'malformed'; status: number; what: string }
  /** GET /v5/media/{id} answered `status: failed`. */
  | { kind: 'media_failed'; mediaId: string };

/** Which endpoint answered: the token endpoint's refusals mean the grant is gone. */
export type PinterestCall = 'token' | 'api' | 'upload';

const RATE_LIMIT_CODE = 8;
const AUTH_FAILED_CODE = 2;
const AUTHORIZATION_FAILED_CODE = 3;
const BOARD_NOT_FOUND_CODE = 40;
const BOARD_SECTION_NOT_FOUND_CODE = 2031;
const IMAGE_TOO_SMALL_CODE = 233;
const IMAGE_BROKEN_CODE = 235;

function retryAfterMs(headers: Headers): number {
  const retryAfter = Number.parseFloat(headers.get('retry-after') ?? '');
  if (Number.isFinite(retryAfter) && retryAfter >= 0) return Math.max(1000, Math.ceil(retryAfter * 1000));
  // x-ratelimit-reset: seconds until the window resets (an epoch time is accepted too).
  const reset = Number.parseFloat(headers.get('x-ratelimit-reset') ?? '');
  if (Number.isFinite(reset) && reset >= 0) {
    const ms = reset > 1e9 ? reset * 1000 - Date.now() : reset * 1000;
    return Math.max(1000, Math.ceil(ms));
  }
  return 60_000;
}

/**
 * The one place Pinterest's answers get a meaning in the core taxonomy: by HTTP status and
 * Pinterest's numeric `code` (S3's `<Code>` for the upload), never by message text. Messages
 * never contain tokens or signed upload parameters.
 */
export function mapPinterestFailure(outcome: PinterestOutcome, opts: { call: PinterestCall; timeoutMs: number }): PlatformError {
  const where = opts.call === 'upload' ? "Pinterest's upload storage" : 'Pinterest';
  if (outcome.kind === 'no_response') {
    const what = outcome.reason === 'timeout' ? `${where} did not answer within ${opts.timeoutMs} ms`
      : outcome.reason === 'aborted' ? `The request to ${where} was cancelled before it answered`
      : `The connection to ${where} failed${outcome.detail ? ` (${outcome.detail})` : ''}`;
    return new PlatformError('pinterest', { kind: 'transient' }, `${what}; the outcome is unknown: the request may or may not have taken effect.`);
  }
  if (outcome.kind === 'malformed') {
    // Pinterest may have acted (a Pin may exist): retrying could pin twice, so this is not transient.
    return new PlatformError('pinterest', { kind: 'rejected', code: 'unexpected_response' },
      `Pinterest answered HTTP ${outcome.status} without ${outcome.what}; check the board before retrying.`, { status: outcome.status });
  }
  if (outcome.kind === 'media_failed') {
    return new PlatformError('pinterest', { kind: 'invalid_content', code: 'video_processing_failed' },
      `Pinterest could not process the video (media ${outcome.mediaId}); check that it is a valid MP4 or MOV file.`);
  }
  if (outcome.kind === 'upload_response') {
    const code = /<Code>([^<]+)<\/Code>/.exec(outcome.text)?.[1];
    const upstream = { status: outcome.status, ...(code ? { code } : {}) };
    if (code === 'EntityTooLarge') {
      return new PlatformError('pinterest', { kind: 'invalid_content', code: 'video_too_large' }, 'Pinterest refused the video upload: the file is too large.', upstream);
    }
    if (code === 'EntityTooSmall') {
      return new PlatformError('pinterest', { kind: 'invalid_content', code: 'video_empty' }, 'Pinterest refused the video upload: the file is empty.', upstream);
    }
    // A refused or expired upload grant (AccessDenied, ExpiredToken) is cured by a new registration,
    // which a later attempt makes; throttling and S3's own failures pass too.
    if (outcome.status >= 500 || code === 'AccessDenied' || code === 'ExpiredToken' || code === 'RequestTimeout' || code === 'SlowDown') {
      return new PlatformError('pinterest', { kind: 'transient' },
        `Pinterest's upload storage refused the video (HTTP ${outcome.status}${code ? ` ${code}` : ''}); a new attempt registers a new upload.`, upstream);
    }
    return new PlatformError('pinterest', { kind: 'rejected', code: 'upload_refused' },
      `Pinterest's upload storage refused the video (HTTP ${outcome.status}${code ? ` ${code}` : ''}).`, upstream);
  }

  const { status, headers } = outcome;
  const body = isObject(outcome.body) ? outcome.body : {};
  const code = typeof body.code === 'number' ? body.code : undefined;
  const said = typeof body.message === 'string' && body.message ? body.message : `HTTP ${status}`;
  const upstream = { status, ...(code !== undefined ? { code } : {}) };

  if (status === 429 || code === RATE_LIMIT_CODE) {
    return new PlatformError('pinterest', { kind: 'rate_limited', retryAfterMs: retryAfterMs(headers) }, `Pinterest: ${said}`, upstream);
  }
  if (opts.call === 'token' && status >= 400 && status < 500) {
    return new PlatformError('pinterest', { kind: 'auth_expired', reason: 'grant_rejected' },
      `Pinterest refused the authorization (${said}); reconnect the Pinterest account (or check the app's client id and secret).`, upstream);
  }
  if (status === 401 || code === AUTH_FAILED_CODE || code === AUTHORIZATION_FAILED_CODE) {
    const reason = code === AUTHORIZATION_FAILED_CODE ? 'scope_missing' : 'token_invalid';
    return new PlatformError('pinterest', { kind: 'auth_expired', reason },
      `Pinterest: ${said}. The access token expired, was revoked or lacks a scope; reconnect the Pinterest account.`, upstream);
  }
  if (code === PINTEREST_VIDEO_NOT_READY_CODE) {
    return new PlatformError('pinterest', { kind: 'transient' }, `Pinterest: ${said}`, upstream);
  }
  if (code === BOARD_NOT_FOUND_CODE) {
    return new PlatformError('pinterest', { kind: 'invalid_content', code: 'board_not_found' },
      `Pinterest: ${said} Check pinterest_board_id (GET /svc/pinterest/boards lists the account's boards).`, upstream);
  }
  if (code === BOARD_SECTION_NOT_FOUND_CODE) {
    return new PlatformError('pinterest', { kind: 'invalid_content', code: 'board_section_not_found' },
      `Pinterest: ${said} Check pinterest_board_section_id.`, upstream);
  }
  if (code === IMAGE_TOO_SMALL_CODE) return new PlatformError('pinterest', { kind: 'invalid_content', code: 'image_too_small' }, `Pinterest: ${said}`, upstream);
  if (code === IMAGE_BROKEN_CODE) return new PlatformError('pinterest', { kind: 'invalid_content', code: 'image_broken' }, `Pinterest: ${said}`, upstream);
  if (status === 403) return new PlatformError('pinterest', { kind: 'rejected', code: 'forbidden' }, `Pinterest: ${said}`, upstream);
  if (status === 409 || status >= 500) {
    return new PlatformError('pinterest', { kind: 'transient' }, `Pinterest is failing (HTTP ${status}); try again later.`, upstream);
  }
  if (status === 400 || status === 413 || status === 422) {
    return new PlatformError('pinterest', { kind: 'invalid_content', code: 'invalid_parameters' }, `Pinterest: ${said}`, upstream);
  }
  return new PlatformError('pinterest', { kind: 'rejected' }, `Pinterest: ${said}`, upstream);
}

// ---------------------------------------------------------------------------------------------
// Adapter

const invalid = (code: string, message: string) => new PlatformError('pinterest', { kind: 'invalid_content', code }, message);

/** Where a video publish stands between steps; plain JSON, resumed with the same post. */
type VideoState =
  | { stage: 'processing'; mediaId: string; polls: number }
  | { stage: 'save'; mediaId: string; saveAttempts: number };

function readState(state: Record<string, unknown>): VideoState {
  const { stage, mediaId } = state;
  if (typeof mediaId === 'string' && mediaId) {
    if (stage === 'processing' && typeof state.polls === 'number') return { stage, mediaId, polls: state.polls };
    if (stage === 'save' && typeof state.saveAttempts === 'number') return { stage, mediaId, saveAttempts: state.saveAttempts };
  }
  throw new PlatformError('pinterest', { kind: 'rejected', code: 'invalid_state' }, 'The Pinterest publish state is not one this adapter wrote; publish again.');
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const strList = (v: unknown): string[] => (Array.isArray(v) ? v.filter((i): i is string => typeof i === 'string') : []);

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts);
}

export function createPinterestPlatform(opts: PinterestPlatformOptions): PinterestPlatform {
  const apiBase = (opts.apiBase ?? PINTEREST_API_BASE).replace(/\/+$/, '');
  const authBase = (opts.authBase ?? PINTEREST_AUTH_BASE).replace(/\/+$/, '');
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const uploadTimeoutMs = opts.uploadTimeoutMs ?? DEFAULT_UPLOAD_TIMEOUT_MS;
  const doFetch = opts.fetch ?? fetch;
  const basic = `Basic ${Buffer.from(`${opts.clientId}:${opts.clientSecret}`).toString('base64')}`;
  const { limits } = pinterestDescriptor;

  /** One JSON exchange; every failure leaves as a PlatformError from mapPinterestFailure. */
  async function call(
    method: 'GET' | 'POST', path: string,
    auth: { token: string } | { basic: true },
    payload: { json: Json } | { form: Record<string, string> } | undefined,
    expect: { what: string; has: (body: Json) => boolean },
    signal?: AbortSignal,
  ): Promise<Json> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: 'token' in auth ? `Bearer ${auth.token}` : basic,
    };
    let body: string | undefined;
    if (payload && 'json' in payload) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(payload.json);
    } else if (payload) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(payload.form).toString();
    }
    const kind: PinterestCall = 'basic' in auth ? 'token' : 'api';
    const outcome = await exchangeJson(`${apiBase}${path}`, { method, headers, body }, { fetch: doFetch, timeoutMs, signal });
    if (outcome.kind === 'no_response' || outcome.status < 200 || outcome.status >= 300) {
      throw mapPinterestFailure(outcome, { call: kind, timeoutMs });
    }
    if (!isObject(outcome.body) || !expect.has(outcome.body)) {
      throw mapPinterestFailure({ kind: 'malformed', status: outcome.status, what: expect.what }, { call: kind, timeoutMs });
    }
    return outcome.body;
  }

  const accessToken = (credentials: PlatformCredentials): string => {
    if (!credentials.access_token) {
      throw new PlatformError('pinterest', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored Pinterest credentials have no access token; reconnect the account.');
    }
    return credentials.access_token;
  };

  /** Token endpoint answer → flat credentials; a refresh without a new refresh token keeps the old one. */
  function credentialsFrom(token: Json, previous: PlatformCredentials = {}): PlatformCredentials {
    const now = Date.now();
    const credentials: PlatformCredentials = { ...previous, access_token: String(token.access_token) };
    if (typeof token.expires_in === 'number') credentials.expires_at = new Date(now + token.expires_in * 1000).toISOString();
    // Continuous refresh rotates the refresh token on every refresh: the new one replaces the old.
    if (typeof token.refresh_token === 'string' && token.refresh_token) {
      credentials.refresh_token = token.refresh_token;
      if (typeof token.refresh_token_expires_at === 'number') {
        credentials.refresh_token_expires_at = new Date(token.refresh_token_expires_at * 1000).toISOString();
      } else if (typeof token.refresh_token_expires_in === 'number') {
        credentials.refresh_token_expires_at = new Date(now + token.refresh_token_expires_in * 1000).toISOString();
      }
    }
    if (typeof token.scope === 'string') credentials.scope = token.scope;
    return credentials;
  }

  const hasAccessToken = { what: 'an access token', has: (b: Json) => typeof b.access_token === 'string' && b.access_token !== '' };

  async function identityOf(token: string): Promise<AccountIdentity> {
    const account = await call('GET', '/user_account', { token }, undefined,
      { what: 'the user account', has: (b) => typeof b.username === 'string' || typeof b.id === 'string' });
    const username = str(account.username) ?? '';
    return {
      // `id` is stable across renames; older API versions returned only `username`.
      platformUserId: str(account.id) ?? username,
      handle: username,
      displayName: str(account.business_name) ?? username,
      avatarUrl: str(account.profile_image) ?? '',
    };
  }

  async function exchangeCode(input: { code: string; redirectUri: string }): Promise<VerifiedConnection> {
    const token = await call('POST', '/oauth/token', { basic: true }, {
      // continuous_refresh: apps registered before continuous refresh became the default opt in here.
      form: { grant_type: 'authorization_code', code: input.code, redirect_uri: input.redirectUri, continuous_refresh: 'true' },
    }, hasAccessToken);
    const credentials = credentialsFrom(token);
    const identity = await identityOf(credentials.access_token!);
    return { identity, credentials: { ...credentials, user_id: identity.platformUserId, username: identity.handle } };
  }

  async function refresh(credentials: PlatformCredentials): Promise<PlatformCredentials> {
    if (!credentials.refresh_token) {
      throw new PlatformError('pinterest', { kind: 'auth_expired', reason: 'refresh_token_missing' }, 'The stored Pinterest credentials have no refresh token; reconnect the account.');
    }
    const token = await call('POST', '/oauth/token', { basic: true },
      { form: { grant_type: 'refresh_token', refresh_token: credentials.refresh_token } }, hasAccessToken);
    return credentialsFrom(token, credentials);
  }

  async function listBoards(credentials: PlatformCredentials, signal?: AbortSignal): Promise<PinterestBoard[]> {
    const token = accessToken(credentials);
    const boards: PinterestBoard[] = [];
    let bookmark: string | undefined;
    for (let page = 0; page < MAX_BOARD_PAGES; page++) {
      const query = new URLSearchParams({ page_size: String(BOARD_PAGE_SIZE), ...(bookmark ? { bookmark } : {}) });
      const body = await call('GET', `/boards?${query}`, { token }, undefined, { what: 'a board list', has: (b) => Array.isArray(b.items) }, signal);
      for (const item of body.items as unknown[]) {
        if (!isObject(item) || typeof item.id !== 'string') continue;
        boards.push({ id: item.id, name: str(item.name) ?? '', description: str(item.description) ?? '', privacy: str(item.privacy) ?? 'PUBLIC' });
      }
      bookmark = str(body.bookmark);
      if (!bookmark) break;
    }
    return boards;
  }

  // ----- validation before anything is sent

  /** The Pin fields common to every kind, checked and mapped from the settings. */
  function pinFields(post: PublishPost): Json {
    const settings = post.settings;
    const violations = checkPinterestSettings(settings, { endpoint: post.kind, mediaCount: post.media.length });
    if (violations.length) throw invalid('invalid_settings', violations.map((v) => v.message).join(' '));
    const title = post.title.trim();
    if (codePoints(title) > TITLE_MAX) {
      throw invalid('title_too_long', `The Pinterest title (pinterest_title or title) is at most ${TITLE_MAX} characters; this one has ${codePoints(title)}.`);
    }
    const description = str(settings.pinterest_description) ?? title;
    if (codePoints(description) > DESCRIPTION_MAX) {
      throw invalid('description_too_long', `pinterest_description is at most ${DESCRIPTION_MAX} characters; this one has ${codePoints(description)}.`);
    }
    const altText = str(settings.pinterest_alt_text);
    if (altText !== undefined && codePoints(altText) > ALT_TEXT_MAX) {
      throw invalid('alt_text_too_long', `pinterest_alt_text is at most ${ALT_TEXT_MAX} characters.`);
    }
    const link = str(settings.pinterest_link);
    if (link !== undefined && !isHttpUrl(link)) throw invalid('invalid_link', 'pinterest_link must be an http(s) URL.');
    const note = post.description?.trim();
    return {
      board_id: settings.pinterest_board_id as string,
      ...(title ? { title } : {}),
      ...(description ? { description } : {}),
      ...(link ? { link } : {}),
      ...(altText ? { alt_text: altText } : {}),
      // The common `description` field is the Pin's private note (spec: "Pinterest notes").
      ...(note ? { note } : {}),
    };
  }

  function checkPhotos(media: MediaRef[]): void {
    const photo = limits.photo!;
    if (media.length === 0) throw invalid('media_missing', 'A Pinterest photo Pin needs a photo.');
    if (media.length > photo.maxCount!) throw invalid('too_many_photos', `Pinterest takes one photo or a carousel of ${CAROUSEL_MIN} to ${CAROUSEL_MAX}; this post has ${media.length}.`);
    for (const m of media) {
      if (m.kind !== 'image') throw invalid('video_not_allowed', 'Pinterest does not take videos on the photo endpoint; use the video endpoint.');
      if (!photo.contentTypes!.includes(m.contentType)) throw invalid('unsupported_image_type', `Pinterest does not take ${m.contentType} images.`);
      if (m.size > photo.maxBytes!) throw invalid('image_too_large', `Pinterest images are at most ${photo.maxBytes! / 1024 ** 2} MB.`);
    }
  }

  function checkVideo(media: MediaRef[]): MediaRef {
    const video = limits.video!;
    if (media.length !== 1 || media[0]!.kind !== 'video') throw invalid('media_invalid', 'A Pinterest video Pin takes exactly one video.');
    const m = media[0]!;
    if (m.size > video.maxBytes!) throw invalid('video_too_large', 'Pinterest videos are at most 2 GB.');
    const seconds = m.info?.durationSeconds;
    if (typeof seconds === 'number' && (seconds < video.minSeconds! || seconds > video.maxSeconds!)) {
      throw invalid(seconds < video.minSeconds! ? 'video_too_short' : 'video_too_long',
        `Pinterest videos last ${video.minSeconds} s to ${video.maxSeconds! / 60} minutes; this one lasts ${seconds.toFixed(1)} s.`);
    }
    const container = m.info?.container;
    if (container && !video.containers!.includes(container)) throw invalid('unsupported_video_format', `Pinterest takes MP4, MOV or M4V videos, not ${container}.`);
    return m;
  }

  // ----- publishing

  async function createPin(ctx: PublishContext, pin: Json): Promise<Json & { id: string }> {
    return await call('POST', '/pins', { token: accessToken(ctx.credentials) }, { json: pin },
      { what: 'the created Pin', has: (b) => typeof b.id === 'string' && b.id !== '' }, ctx.signal) as Json & { id: string };
  }

  const outcomeOf = (pin: Json & { id: string }, extra: Record<string, unknown>, warnings: string[]): PublishOutcome => ({
    postId: pin.id,
    url: `https://www.pinterest.com/pin/${pin.id}/`,
    warnings,
    extra: { ...extra, ...(str(pin.board_section_id) ? { board_section_id: pin.board_section_id } : {}) },
  });

  async function publishPhotos(ctx: PublishContext, post: PublishPost): Promise<PublishOutcome> {
    checkPhotos(post.media);
    const pin = pinFields(post);
    const s = post.settings;
    const sectionId = str(s.pinterest_board_section_id);
    const disclosures = strList(s.pinterest_ai_disclosures);
    const urls = post.media.map((m) => ctx.media.publicUrl(m.id));
    let mediaSource: Json;
    if (urls.length === 1) {
      mediaSource = { source_type: 'image_url', url: urls[0] };
    } else {
      const titles = strList(s.pinterest_carousel_titles);
      const descriptions = strList(s.pinterest_carousel_descriptions);
      const links = strList(s.pinterest_carousel_links);
      mediaSource = {
        source_type: 'multiple_image_urls',
        items: urls.map((url, i) => ({
          url,
          ...(titles[i] ? { title: titles[i] } : {}),
          ...(descriptions[i] ? { description: descriptions[i] } : {}),
          ...(links[i] ? { link: links[i] } : {}),
        })),
        ...(typeof s.pinterest_carousel_index === 'number' ? { index: s.pinterest_carousel_index } : {}),
      };
    }
    const created = await createPin(ctx, {
      ...pin,
      ...(sectionId ? { board_section_id: sectionId } : {}),
      ...(disclosures.length ? { ai_disclosures: { values: [...new Set(disclosures)] } } : {}),
      media_source: mediaSource,
    });
    return outcomeOf(created, { board_id: pin.board_id, pin_type: urls.length === 1 ? 'image' : 'carousel' }, []);
  }

  /** POST /v5/media, then the multipart form upload of the bytes to the returned upload_url. */
  async function uploadVideo(ctx: PublishContext, video: MediaRef): Promise<string> {
    const token = accessToken(ctx.credentials);
    const registered = await call('POST', '/media', { token }, { json: { media_type: 'video' } }, {
      what: 'an upload registration',
      has: (b) => typeof b.media_id === 'string' && typeof b.upload_url === 'string' && isHttpUrl(b.upload_url) && isObject(b.upload_parameters),
    }, ctx.signal);
    const mediaId = registered.media_id as string;

    const form = new FormData();
    for (const [name, value] of Object.entries(registered.upload_parameters as Json)) form.append(name, String(value));
    // S3 ignores form fields after the file, so `file` goes last.
    const bytes = await collect(ctx.media.read(video.id));
    form.append('file', new Blob([bytes], { type: video.contentType }), video.filename ?? 'video.mp4');

    const timeout = AbortSignal.timeout(uploadTimeoutMs);
    const signal = ctx.signal ? AbortSignal.any([ctx.signal, timeout]) : timeout;
    let outcome: PinterestOutcome;
    try {
      const res = await doFetch(registered.upload_url as string, { method: 'POST', body: form, signal });
      outcome = { kind: 'upload_response', status: res.status, text: await res.text() };
    } catch {
      outcome = { kind: 'no_response', reason: timeout.aborted ? 'timeout' : ctx.signal?.aborted ? 'aborted' : 'network' };
    }
    if (outcome.kind === 'no_response' || outcome.status < 200 || outcome.status >= 300) {
      throw mapPinterestFailure(outcome, { call: 'upload', timeoutMs: uploadTimeoutMs });
    }
    return mediaId;
  }

  /** The video Pin's media_source: one cover source, a key frame at 0 s when none is given. */
  function videoSource(mediaId: string, settings: Record<string, unknown>, warnings: string[]): Json {
    const source: Json = { source_type: 'video_id', media_id: mediaId };
    const url = str(settings.pinterest_cover_image_url);
    const data = str(settings.pinterest_cover_image_data);
    if (url) return { ...source, cover_image_url: url };
    if (data) return { ...source, cover_image_content_type: settings.pinterest_cover_image_content_type, cover_image_data: data };
    const ms = typeof settings.pinterest_cover_image_key_frame_time === 'number' ? settings.pinterest_cover_image_key_frame_time : 0;
    const seconds = Math.floor(ms / 1000);
    if (ms % 1000 !== 0) warnings.push(`pinterest_cover_image_key_frame_time ${ms} ms was rounded down to ${seconds} s: Pinterest takes whole seconds.`);
    return { ...source, cover_image_key_frame_time: seconds };
  }

  /** Saves the video Pin; the "not ready" refusal is retried twice, 15 s then 30 s later. */
  async function saveVideoPin(ctx: PublishContext, post: PublishPost, mediaId: string, saveAttempts: number): Promise<PublishStep> {
    const warnings: string[] = [];
    const pin = pinFields(post);
    try {
      const created = await createPin(ctx, { ...pin, media_source: videoSource(mediaId, post.settings, warnings) });
      return { kind: 'done', outcome: outcomeOf(created, { board_id: pin.board_id, pin_type: 'video', media_id: mediaId }, warnings) };
    } catch (err) {
      const notReady = err instanceof PlatformError && err.upstream.code === PINTEREST_VIDEO_NOT_READY_CODE;
      if (!notReady) throw err;
      const delay = PINTEREST_SAVE_RETRY_DELAYS_MS[saveAttempts];
      if (delay === undefined) {
        throw new PlatformError('pinterest', err.failure,
          `${err.message} (still refused after ${PINTEREST_SAVE_RETRY_DELAYS_MS.length} retries).`, err.upstream);
      }
      return { kind: 'wait', afterMs: delay, state: { stage: 'save', mediaId, saveAttempts: saveAttempts + 1 } };
    }
  }

  async function pollVideo(ctx: PublishContext, post: PublishPost, mediaId: string, polls: number): Promise<PublishStep> {
    const media = await call('GET', `/media/${encodeURIComponent(mediaId)}`, { token: accessToken(ctx.credentials) }, undefined,
      { what: 'the media status', has: (b) => typeof b.status === 'string' }, ctx.signal);
    if (media.status === 'succeeded') return saveVideoPin(ctx, post, mediaId, 0);
    if (media.status === 'failed') throw mapPinterestFailure({ kind: 'media_failed', mediaId }, { call: 'api', timeoutMs });
    if (polls + 1 >= MAX_POLLS) {
      throw new PlatformError('pinterest', { kind: 'transient' }, `Pinterest is still processing the video (media ${mediaId}, status ${String(media.status)}) after ${polls + 1} checks.`);
    }
    return { kind: 'wait', afterMs: Math.min(FIRST_POLL_MS * 2 ** (polls + 1), MAX_POLL_MS), state: { stage: 'processing', mediaId, polls: polls + 1 } };
  }

  return {
    descriptor: pinterestDescriptor,
    oauth: {
      // Pinterest's v5 code flow documents no PKCE; a code challenge, if given, is not sent.
      pkce: false,
      authorizeUrl({ state, redirectUri }) {
        const query = new URLSearchParams({
          client_id: opts.clientId,
          redirect_uri: redirectUri,
          response_type: 'code',
          scope: PINTEREST_SCOPES.join(','),
          state,
        });
        return `${authBase}/oauth/?${query}`;
      },
      exchangeCode,
    },
    refresher: { refresh },
    listBoards,
    publisher: {
      async publish(ctx, post) {
        if (post.kind === 'photo') return { kind: 'done', outcome: await publishPhotos(ctx, post) };
        if (post.kind !== 'video') throw new PlatformError('pinterest', { kind: 'unsupported' }, 'Pinterest takes photo and video Pins, not text posts.');
        const video = checkVideo(post.media);
        pinFields(post);
        const mediaId = await uploadVideo(ctx, video);
        return { kind: 'wait', afterMs: FIRST_POLL_MS, state: { stage: 'processing', mediaId, polls: 0 } };
      },
      async resume(ctx, post, raw) {
        const state = readState(raw);
        return state.stage === 'processing' ? pollVideo(ctx, post, state.mediaId, state.polls) : saveVideoPin(ctx, post, state.mediaId, state.saveAttempts);
      },
    },
  };
}
