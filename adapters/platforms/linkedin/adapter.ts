/**
 * LinkedIn through its versioned REST API (learn.microsoft.com/linkedin/marketing/community-management/
 * shares/posts-api, images-api, videos-api, poll-post-api, comments-api) and the OAuth 2 authorization
 * code flow of "Sign In with LinkedIn using OpenID Connect" + "Share on LinkedIn" (identity from
 * /v2/userinfo). Pages need the Community Management API product and its organization scopes.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { MediaRef } from '../../../core/domain/media';
import type { MediaKind } from '../../../core/domain/platforms';
import type { SettingsSchema, SettingViolation } from '../../../core/domain/settings';
import type {
  MediaAccess, PlatformAdapter, PlatformCredentials, PlatformDescriptor, PublishContext, PublishOutcome, PublishPost,
  PublishStep, VerifiedConnection,
} from '../../../core/ports/platform';
import type { CommentCreated, PostRef } from '../../../core/ports/platform';
import { exchangeJson, isObject, type HttpExchange, type Json } from '../kit/http';

export const LINKEDIN_API_BASE = 'https://api.linkedin.com';
export const LINKEDIN_AUTH_BASE = 'https://www.linkedin.com/oauth/v2';
/** LinkedIn keeps a monthly version active for about a year: bump this when the simulator or LinkedIn answers 426. */
export const LINKEDIN_DEFAULT_VERSION = '202610';
export const LINKEDIN_MEMBER_SCOPES: readonly string[] = ['openid', 'profile', 'w_member_social'];
export const LINKEDIN_PAGE_SCOPES: readonly string[] = ['w_organization_social', 'r_organization_admin'];

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_UPLOAD_TIMEOUT_MS = 120_000;
const DEFAULT_VIDEO_POLL_MS = 5_000;
/** 360 polls of 5 s: LinkedIn video processing that has not finished in 30 minutes is treated as stuck. */
const DEFAULT_MAX_VIDEO_POLLS = 360;
const MEDIA_TITLE_MAX_UNITS = 400;
const COMMENT_MAX_CHARS = 1250;
const ALT_TEXT_MAX_CHARS = 4086;
const POLL_QUESTION_MAX_CHARS = 140;
const POLL_OPTION_MAX_CHARS = 30;
const THUMBNAIL_MAX_BYTES = 10 * 1024 * 1024;
const THUMBNAIL_TYPES = ['image/jpeg', 'image/png'];
export const LINKEDIN_VISIBILITIES = ['PUBLIC', 'CONNECTIONS', 'LOGGED_IN', 'CONTAINER'] as const;
export const LINKEDIN_POLL_DURATIONS = ['ONE_DAY', 'THREE_DAYS', 'SEVEN_DAYS', 'FOURTEEN_DAYS'] as const;

export interface LinkedInPlatformOptions {
  clientId: string;
  clientSecret: string;
  /** Default https://api.linkedin.com (the adapter adds /rest and /v2); a simulator's origin in tests. */
  apiBase?: string;
  /** Default https://www.linkedin.com/oauth/v2 (authorization and accessToken live under it). */
  authBase?: string;
  /** `LinkedIn-Version` header, YYYYMM or YYYYMM.RR. */
  version?: string;
  /**
   * Also ask for the organization scopes, so accounts can post as the pages they administer
   * (target_linkedin_page_id). Only for apps approved for the Community Management API: LinkedIn
   * refuses the whole authorization when an app asks for scopes it was not granted. Default false.
   */
  organizationPages?: boolean;
  timeoutMs?: number;
  /** For each byte upload (image, video part, thumbnail). */
  uploadTimeoutMs?: number;
  /** Delay between two checks of a processing video. */
  videoPollMs?: number;
  maxVideoPolls?: number;
  fetch?: typeof fetch;
}

const BOTH_MEDIA: readonly MediaKind[] = ['video', 'photo'];
const ALL_ENDPOINTS: readonly MediaKind[] = ['video', 'photo', 'text'];

const chars = (s: string) => [...s].length;

/** `123` and `urn:li:organization:123` both name the page 123. */
export function parseOrganizationId(raw: string): string | undefined {
  return /^(?:urn:li:organization:)?(\d{1,20})$/.exec(raw.trim())?.[1];
}

function checkLinkedInSettings(values: Record<string, unknown>, ctx: { endpoint: MediaKind; mediaCount: number }): SettingViolation[] {
  const violations: SettingViolation[] = [];
  const page = values.target_linkedin_page_id;
  if (typeof page === 'string' && !parseOrganizationId(page)) {
    violations.push({ field: 'target_linkedin_page_id', message: 'target_linkedin_page_id must be a numeric organization id or urn:li:organization:<id>' });
  }
  const alt = values.linkedin_alt_text;
  if (ctx.endpoint === 'photo' && Array.isArray(alt)) {
    if (alt.length > ctx.mediaCount) {
      violations.push({ field: 'linkedin_alt_text', message: `linkedin_alt_text has ${alt.length} entries for ${ctx.mediaCount} photo(s)` });
    }
    const long = alt.findIndex((a) => chars(String(a)) > ALT_TEXT_MAX_CHARS);
    if (long >= 0) violations.push({ field: 'linkedin_alt_text', message: `linkedin_alt_text entry ${long + 1} is over ${ALT_TEXT_MAX_CHARS} characters` });
  }
  if (ctx.endpoint === 'text') {
    const question = values.linkedin_poll_question;
    const options = Array.isArray(values.linkedin_poll_options) ? (values.linkedin_poll_options as string[]) : undefined;
    if (options && question === undefined) {
      violations.push({ field: 'linkedin_poll_question', message: 'linkedin_poll_question is required when linkedin_poll_options is sent' });
    }
    if (question !== undefined && (!options || options.length < 2 || options.length > 4)) {
      violations.push({ field: 'linkedin_poll_options', message: 'linkedin_poll_options needs 2 to 4 options for a poll' });
    }
    const long = options?.find((o) => chars(o) > POLL_OPTION_MAX_CHARS);
    if (long !== undefined) violations.push({ field: 'linkedin_poll_options', message: `poll option "${long}" is over ${POLL_OPTION_MAX_CHARS} characters` });
    if (options && new Set(options).size !== options.length) {
      violations.push({ field: 'linkedin_poll_options', message: 'linkedin_poll_options must not repeat an option' });
    }
  }
  return violations;
}

const linkedinSettings: SettingsSchema = {
  fields: [
    { name: 'linkedin_description', aliases: ['description'], type: 'string', endpoints: BOTH_MEDIA, description: 'Post commentary; defaults to the title.' },
    { name: 'visibility', aliases: ['linkedin_visibility', 'linkedinVisibility'], type: 'string', endpoints: ALL_ENDPOINTS, oneOf: LINKEDIN_VISIBILITIES, default: 'PUBLIC' },
    { name: 'target_linkedin_page_id', type: 'string', endpoints: ALL_ENDPOINTS, description: 'Post as this organization page (numeric id or urn:li:organization:<id>).' },
    { name: 'thumbnail', type: 'file', endpoints: ['video'], description: 'JPG/PNG up to 10 MB; best effort.' },
    { name: 'thumbnail_url', type: 'url', endpoints: ['video'], description: 'Used when no thumbnail file is sent; best effort.' },
    { name: 'linkedin_alt_text', type: 'string_list', endpoints: ['photo'], separator: '||', description: 'One alt text per photo, in order.' },
    // The spec lists it on the photo endpoint; text posts are the same Posts API call, so they honour it too.
    { name: 'linkedin_disable_reshare', type: 'boolean', endpoints: ['photo', 'text'], default: false },
    { name: 'linkedin_poll_question', type: 'string', endpoints: ['text'], maxLength: POLL_QUESTION_MAX_CHARS },
    { name: 'linkedin_poll_options', aliases: ['linkedin_poll_options[]'], type: 'string_list', endpoints: ['text'], maxLength: 4 },
    { name: 'linkedin_poll_duration', type: 'string', endpoints: ['text'], oneOf: LINKEDIN_POLL_DURATIONS, default: 'SEVEN_DAYS' },
  ],
  check: checkLinkedInSettings,
};

export const linkedinDescriptor: PlatformDescriptor = {
  id: 'linkedin',
  displayName: 'LinkedIn',
  connect: 'oauth',
  endpoints: ['video', 'photo', 'text'],
  limits: {
    // Commentary limit of the Posts API, counted here in characters (code points) of the unescaped text.
    textMaxChars: 3000,
    // Length from the spec (10 min); 3 s, 500 MB and MP4 from the Videos API's specifications.
    video: { maxBytes: 500 * 1024 * 1024, minSeconds: 3, maxSeconds: 600, containers: ['mov,mp4,m4a,3gp,3g2,mj2'] },
    // multiImage takes 2 to 20 images; the Images API takes JPG, PNG and GIF.
    photo: { maxCount: 20, contentTypes: ['image/jpeg', 'image/png', 'image/gif'] },
  },
  settings: linkedinSettings,
  rules: { dailyCap: 150 },
};

// ---------------------------------------------------------------------------------------------
// Failure mapping

/** What came back from LinkedIn, before it is given a meaning. */
export type LinkedInOutcome =
  | HttpExchange
  /** A 2xx whose body or headers are not what the call returns. */
  | { kind: 'malformed'; status: number; what: string }
  /** GET /rest/videos answered PROCESSING_FAILED. */
  | { kind: 'video_failed'; video: string; reason?: string }
  /** The video was still processing after the last poll. */
  | { kind: 'video_stuck'; video: string; polls: number };

/** Which call answered: the token endpoint speaks OAuth errors, the rest LinkedIn's REST errors. */
export type LinkedInCall = 'api' | 'upload' | 'code_exchange' | 'token_refresh';

/** Without Retry-After, wait for the reset of LinkedIn's daily throttles (midnight UTC). */
function retryAfterMs(headers: Headers, now = Date.now()): number {
  const raw = headers.get('retry-after');
  if (raw) {
    const seconds = Number(raw);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds * 1000);
    const at = Date.parse(raw);
    if (Number.isFinite(at)) return Math.max(0, at - now);
  }
  const midnight = new Date(now);
  midnight.setUTCHours(24, 0, 0, 0);
  return midnight.getTime() - now;
}

/**
 * The one place LinkedIn's answers get a meaning in the core taxonomy. REST errors are
 * `{status, serviceErrorCode, code, message}`; the token endpoint answers `{error, error_description}`.
 * Classifies by HTTP status, `code`, `serviceErrorCode` and OAuth `error`, never by message text.
 */
export function mapLinkedInFailure(outcome: LinkedInOutcome, ctx: { timeoutMs: number; call: LinkedInCall }): PlatformError {
  const fail = (failure: PlatformError['failure'], message: string, upstream: PlatformError['upstream'] = {}) =>
    new PlatformError('linkedin', failure, message, upstream);

  switch (outcome.kind) {
    case 'no_response': {
      const what = outcome.reason === 'timeout' ? `LinkedIn did not answer within ${ctx.timeoutMs} ms`
        : outcome.reason === 'aborted' ? 'The request to LinkedIn was cancelled before it answered'
        : `The connection to LinkedIn failed${outcome.detail ? ` (${outcome.detail})` : ''}`;
      return fail({ kind: 'transient' }, `${what}; the outcome is unknown: the request may or may not have taken effect.`);
    }
    case 'malformed':
      // LinkedIn may have acted on the request: retrying could post twice, so this is not transient.
      return fail({ kind: 'rejected', code: 'unexpected_response' },
        `LinkedIn answered HTTP ${outcome.status} without ${outcome.what}; check the account before retrying.`, { status: outcome.status });
    case 'video_failed':
      return fail({ kind: 'invalid_content', code: 'video_processing_failed' },
        `LinkedIn could not process the video ${outcome.video}${outcome.reason ? `: ${outcome.reason}` : ''}.`);
    case 'video_stuck':
      return fail({ kind: 'transient' }, `LinkedIn was still processing the video ${outcome.video} after ${outcome.polls} checks; nothing was posted.`);
    case 'response':
      break;
  }

  const { status, headers } = outcome;
  const body = isObject(outcome.body) ? outcome.body : {};
  const code = typeof body.code === 'string' ? body.code : undefined;
  const serviceErrorCode = typeof body.serviceErrorCode === 'number' ? body.serviceErrorCode : undefined;
  const oauthError = typeof body.error === 'string' ? body.error : undefined;
  const said = typeof body.message === 'string' && body.message ? body.message
    : typeof body.error_description === 'string' && body.error_description ? body.error_description
    : oauthError ?? `HTTP ${status}`;
  const upstream = { status, code: code ?? oauthError ?? serviceErrorCode };

  if (status === 429) return fail({ kind: 'rate_limited', retryAfterMs: retryAfterMs(headers) }, `LinkedIn: ${said}`, upstream);
  if (status >= 500) return fail({ kind: 'transient' }, `LinkedIn is failing (HTTP ${status}); try again later.`, upstream);

  if (oauthError && (ctx.call === 'code_exchange' || ctx.call === 'token_refresh')) {
    if (oauthError === 'invalid_grant' || (oauthError === 'invalid_request' && ctx.call === 'token_refresh')) {
      return ctx.call === 'token_refresh'
        ? fail({ kind: 'auth_expired', reason: 'refresh_token_invalid' }, `LinkedIn refused the refresh token (${said}); reconnect the account.`, upstream)
        : fail({ kind: 'rejected', code: 'oauth_code_invalid' }, `LinkedIn refused the authorization code (${said}); start the connection again.`, upstream);
    }
    if (oauthError === 'invalid_client' || oauthError === 'unauthorized_client') {
      return fail({ kind: 'rejected', code: 'oauth_client_invalid' }, `LinkedIn refused Herald's client credentials: ${said}`, upstream);
    }
    return fail({ kind: 'rejected', code: oauthError }, `LinkedIn: ${said}`, upstream);
  }

  if (status === 401) {
    const reason = code === 'REVOKED_ACCESS_TOKEN' || serviceErrorCode === 65601 ? 'token_revoked'
      : code === 'EXPIRED_ACCESS_TOKEN' ? 'token_expired' : 'token_invalid';
    return fail({ kind: 'auth_expired', reason }, `LinkedIn: ${said}. Reconnect the account.`, upstream);
  }
  if (status === 426) {
    return fail({ kind: 'rejected', code: 'linkedin_version_inactive' },
      `LinkedIn no longer serves API version this Herald uses (${said}); update the LinkedIn-Version setting.`, upstream);
  }
  if (status === 403) {
    return fail({ kind: 'rejected', code: 'permission_denied' }, `LinkedIn denied access: ${said}`, upstream);
  }
  if (status === 422 || status === 400 || status === 413) {
    const contentCode = code === 'DUPLICATE_POST' ? 'duplicate_post' : status === 413 ? 'payload_too_large' : undefined;
    return fail({ kind: 'invalid_content', ...(contentCode ? { code: contentCode } : {}) }, `LinkedIn refused the content: ${said}`, upstream);
  }
  return fail({ kind: 'rejected', ...(code ? { code: code.toLowerCase() } : {}) }, `LinkedIn: ${said}`, upstream);
}

// ---------------------------------------------------------------------------------------------
// Text

/**
 * LinkedIn's "little" text format reserves `\ | { } @ [ ] ( ) < > # * _ ~`: unescaped, LinkedIn
 * silently cuts the commentary at the first one. URLs are kept whole so they still link, and
 * `#word` stays a hashtag, which is what an author means by it.
 */
export function escapeLittleText(text: string): string {
  return text
    .split(/(https?:\/\/[^\s]+|(?<![\p{L}\p{N}_\\])#[\p{L}\p{N}]+)/u)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/[\\|{}@[\]()<>#*_~]/g, (c) => `\\${c}`)))
    .join('');
}

/** LinkedIn counts media titles in UTF-16 units, a line break as two. */
export function linkedinTitleLength(title: string): number {
  return title.replace(/\r\n|\r|\n/g, '\n\n').length;
}

function trimTitle(title: string, maxUnits: number): string {
  let used = 0;
  let out = '';
  for (const [piece] of title.matchAll(/\r\n|\r|\n|[\s\S]/gu)) {
    const cost = /^[\r\n]/.test(piece) ? 2 : piece.length;
    if (used + cost > maxUnits) break;
    used += cost;
    out += piece;
  }
  return out.trimEnd();
}

// ---------------------------------------------------------------------------------------------
// Adapter

interface Reply { status: number; headers: Headers; body: unknown }

/** What the publisher sends, worked out from the post before anything is sent. */
interface PostPlan {
  token: string;
  author: string;
  commentary: string;
  visibility: string;
  disableReshare: boolean;
  mediaTitle: string;
  warnings: string[];
}

async function readAll(access: MediaAccess, id: string, range?: { start: number; end: number }): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of access.read(id, range)) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

const invalid = (message: string, code?: string) =>
  new PlatformError('linkedin', { kind: 'invalid_content', ...(code ? { code } : {}) }, message);

const parseScopes = (raw: unknown): string[] => (typeof raw === 'string' ? raw.split(/[\s,]+/).filter(Boolean) : []);

export function createLinkedInPlatform(opts: LinkedInPlatformOptions): PlatformAdapter {
  const apiBase = (opts.apiBase ?? LINKEDIN_API_BASE).replace(/\/+$/, '');
  const authBase = (opts.authBase ?? LINKEDIN_AUTH_BASE).replace(/\/+$/, '');
  const version = opts.version ?? LINKEDIN_DEFAULT_VERSION;
  if (!/^\d{6}(\.\d{2})?$/.test(version)) throw new Error(`LinkedIn version must be YYYYMM or YYYYMM.RR, got ${version}`);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const uploadTimeoutMs = opts.uploadTimeoutMs ?? DEFAULT_UPLOAD_TIMEOUT_MS;
  const videoPollMs = opts.videoPollMs ?? DEFAULT_VIDEO_POLL_MS;
  const maxVideoPolls = opts.maxVideoPolls ?? DEFAULT_MAX_VIDEO_POLLS;
  const doFetch = opts.fetch ?? fetch;
  const scopes = [...LINKEDIN_MEMBER_SCOPES, ...(opts.organizationPages ? LINKEDIN_PAGE_SCOPES : [])];
  const { limits } = linkedinDescriptor;

  /** One exchange; any non-2xx or missing answer leaves as a PlatformError from mapLinkedInFailure. */
  async function send(call: LinkedInCall, url: string, init: RequestInit, signal?: AbortSignal): Promise<Reply> {
    const wait = call === 'upload' ? uploadTimeoutMs : timeoutMs;
    const outcome = await exchangeJson(url, init, { fetch: doFetch, timeoutMs: wait, signal });
    if (outcome.kind === 'no_response' || outcome.status < 200 || outcome.status >= 300) {
      throw mapLinkedInFailure(outcome, { timeoutMs: wait, call });
    }
    return outcome;
  }

  /** A call to the versioned REST API (`/rest/...`). */
  function rest(method: string, path: string, token: string, json: unknown, signal?: AbortSignal): Promise<Reply> {
    return send('api', `${apiBase}/rest${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        'linkedin-version': version,
        'x-restli-protocol-version': '2.0.0',
        accept: 'application/json',
        ...(json !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: json !== undefined ? JSON.stringify(json) : undefined,
    }, signal);
  }

  function putBytes(url: string, token: string, bytes: Buffer, contentType: string, signal?: AbortSignal): Promise<Reply> {
    return send('upload', url, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': contentType }, body: bytes }, signal);
  }

  const malformed = (status: number, what: string) => mapLinkedInFailure({ kind: 'malformed', status, what }, { timeoutMs, call: 'api' });

  // --- connect -------------------------------------------------------------------------------

  async function tokenRequest(call: 'code_exchange' | 'token_refresh', form: Record<string, string>): Promise<Json> {
    const reply = await send(call, `${authBase}/accessToken`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ ...form, client_id: opts.clientId, client_secret: opts.clientSecret }).toString(),
    });
    const body = reply.body;
    if (!isObject(body) || typeof body.access_token !== 'string' || typeof body.expires_in !== 'number') {
      throw malformed(reply.status, 'an access token');
    }
    return body;
  }

  const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();

  async function exchangeCode(input: { code: string; redirectUri: string }): Promise<VerifiedConnection> {
    const tokens = await tokenRequest('code_exchange', { grant_type: 'authorization_code', code: input.code, redirect_uri: input.redirectUri });
    const token = tokens.access_token as string;
    const info = await send('api', `${apiBase}/v2/userinfo`, { method: 'GET', headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
    if (!isObject(info.body) || typeof info.body.sub !== 'string' || !info.body.sub) throw malformed(info.status, 'the member (sub)');
    const user = info.body;
    const sub = user.sub as string;
    const granted = parseScopes(tokens.scope);
    const name = typeof user.name === 'string' && user.name ? user.name
      : [user.given_name, user.family_name].filter((p) => typeof p === 'string' && p).join(' ') || 'LinkedIn member';

    const credentials: PlatformCredentials = {
      access_token: token,
      expires_at: inSeconds(tokens.expires_in as number),
      scope: granted.join(' '),
      member_urn: `urn:li:person:${sub}`,
    };
    // Programmatic refresh tokens are only issued to approved partners; without one the account
    // is reconnected when `expires_at` comes (refresher says auth_expired).
    if (typeof tokens.refresh_token === 'string' && tokens.refresh_token) {
      credentials.refresh_token = tokens.refresh_token;
      if (typeof tokens.refresh_token_expires_in === 'number') credentials.refresh_expires_at = inSeconds(tokens.refresh_token_expires_in);
    }
    if (granted.includes('r_organization_admin')) credentials.pages = JSON.stringify(await administeredPages(token));
    return {
      identity: {
        platformUserId: sub,
        // OpenID userinfo has no public vanity name under these scopes: the name is the best handle.
        handle: name,
        displayName: name,
        avatarUrl: typeof user.picture === 'string' ? user.picture : '',
      },
      credentials,
    };
  }

  /** The pages the member may post as (approved roles), for choosing target_linkedin_page_id. */
  async function administeredPages(token: string): Promise<Array<{ id: string; role: string }>> {
    const reply = await rest('GET', '/organizationAcls?q=roleAssignee&state=APPROVED', token, undefined);
    const elements = isObject(reply.body) && Array.isArray(reply.body.elements) ? reply.body.elements : undefined;
    if (!elements) throw malformed(reply.status, 'organization roles');
    return elements.flatMap((e) => {
      const id = isObject(e) && typeof e.organization === 'string' ? parseOrganizationId(e.organization) : undefined;
      return id && isObject(e) ? [{ id, role: typeof e.role === 'string' ? e.role : 'UNKNOWN' }] : [];
    });
  }

  async function refresh(credentials: PlatformCredentials): Promise<PlatformCredentials> {
    const refreshToken = credentials.refresh_token;
    if (!refreshToken) {
      throw new PlatformError('linkedin', { kind: 'auth_expired', reason: 'refresh_unavailable' },
        'LinkedIn issues refresh tokens only to approved partner apps; reconnect the account to renew its access.');
    }
    const refreshExpiry = credentials.refresh_expires_at ? Date.parse(credentials.refresh_expires_at) : NaN;
    if (Number.isFinite(refreshExpiry) && refreshExpiry <= Date.now()) {
      throw new PlatformError('linkedin', { kind: 'auth_expired', reason: 'refresh_token_expired' },
        'The LinkedIn refresh token expired (they last 365 days); reconnect the account.');
    }
    const tokens = await tokenRequest('token_refresh', { grant_type: 'refresh_token', refresh_token: refreshToken });
    const renewed: PlatformCredentials = { ...credentials, access_token: tokens.access_token as string, expires_at: inSeconds(tokens.expires_in as number) };
    // LinkedIn may hand back a new refresh token; the old one then stops working.
    if (typeof tokens.refresh_token === 'string' && tokens.refresh_token) renewed.refresh_token = tokens.refresh_token;
    if (typeof tokens.refresh_token_expires_in === 'number') renewed.refresh_expires_at = inSeconds(tokens.refresh_token_expires_in);
    if (typeof tokens.scope === 'string') renewed.scope = parseScopes(tokens.scope).join(' ');
    return renewed;
  }

  // --- publish: checks before anything is sent ------------------------------------------------

  function plan(ctx: PublishContext, post: PublishPost): PostPlan {
    const token = ctx.credentials.access_token;
    const member = ctx.credentials.member_urn;
    if (!token || !member) {
      throw new PlatformError('linkedin', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored LinkedIn credentials are incomplete; reconnect the account.');
    }
    const violation = checkLinkedInSettings(post.settings, { endpoint: post.kind, mediaCount: post.media.length })[0];
    if (violation) throw invalid(violation.message);

    const page = typeof post.settings.target_linkedin_page_id === 'string' ? parseOrganizationId(post.settings.target_linkedin_page_id) : undefined;
    const author = page ? `urn:li:organization:${page}` : member;
    const granted = parseScopes(ctx.credentials.scope);
    const needed = page ? 'w_organization_social' : 'w_member_social';
    if (granted.length && !granted.includes(needed)) {
      throw new PlatformError('linkedin', { kind: 'rejected', code: 'permission_denied' },
        page ? `Posting as LinkedIn page ${page} needs the ${needed} scope; reconnect the account with page access.`
          : `This LinkedIn connection lacks the ${needed} scope; reconnect the account.`);
    }

    const warnings: string[] = [];
    const description = typeof post.settings.linkedin_description === 'string' ? post.settings.linkedin_description : post.description;
    const text = post.kind === 'text' ? post.title : description ?? post.title;
    if (chars(text) > limits.textMaxChars!) {
      throw invalid(`LinkedIn commentary is limited to ${limits.textMaxChars} characters; this text has ${chars(text)}.`, 'text_too_long');
    }
    const poll = post.kind === 'text' && typeof post.settings.linkedin_poll_question === 'string';
    if (post.kind === 'text' && !poll && text.trim() === '') throw invalid('LinkedIn cannot publish an empty post.', 'text_empty');

    let mediaTitle = post.kind === 'text' ? '' : post.title;
    if (linkedinTitleLength(mediaTitle) > MEDIA_TITLE_MAX_UNITS) {
      mediaTitle = trimTitle(mediaTitle, MEDIA_TITLE_MAX_UNITS);
      warnings.push(`The LinkedIn media title was trimmed to ${MEDIA_TITLE_MAX_UNITS} characters (UTF-16 units, line breaks count as two).`);
    }
    checkMedia(post);
    return {
      token,
      author,
      commentary: escapeLittleText(text),
      visibility: typeof post.settings.visibility === 'string' ? post.settings.visibility : 'PUBLIC',
      disableReshare: post.settings.linkedin_disable_reshare === true,
      mediaTitle,
      warnings,
    };
  }

  function checkMedia(post: PublishPost): void {
    if (post.kind === 'text') {
      if (post.media.length) throw invalid('A LinkedIn text post carries no media.');
      return;
    }
    if (post.kind === 'photo') {
      const { maxCount, contentTypes } = limits.photo!;
      if (!post.media.length) throw invalid('A LinkedIn photo post needs at least one image.');
      if (post.media.length > maxCount!) throw invalid(`LinkedIn takes at most ${maxCount} images in one post; got ${post.media.length}.`, 'too_many_images');
      const bad = post.media.find((m) => m.kind !== 'image' || !contentTypes!.includes(m.contentType));
      if (bad) throw invalid(`LinkedIn photo posts take ${contentTypes!.join(', ')} images; ${bad.filename ?? bad.id} is ${bad.contentType}.`, 'unsupported_media');
      return;
    }
    const video = post.media[0];
    const { maxBytes, minSeconds, maxSeconds, containers } = limits.video!;
    if (post.media.length !== 1 || video?.kind !== 'video') throw invalid('A LinkedIn video post takes exactly one video.');
    if (video.size > maxBytes!) throw invalid(`LinkedIn videos are limited to ${maxBytes! / 1024 / 1024} MB; this one has ${video.size} bytes.`, 'video_too_large');
    const seconds = video.info?.durationSeconds;
    if (typeof seconds === 'number' && (seconds < minSeconds! || seconds > maxSeconds!)) {
      throw invalid(`LinkedIn videos must last ${minSeconds} to ${maxSeconds} seconds; this one lasts ${seconds.toFixed(1)} s.`, 'video_duration');
    }
    const container = video.info?.container;
    if (container && !containers!.includes(container)) throw invalid(`LinkedIn takes MP4 videos; this one is ${container}.`, 'unsupported_media');
  }

  // --- publish: the calls -------------------------------------------------------------------

  async function createPost(ctx: PublishContext, p: PostPlan, content: Json | undefined): Promise<string> {
    const reply = await rest('POST', '/posts', p.token, {
      author: p.author,
      commentary: p.commentary,
      visibility: p.visibility,
      distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
      ...(content ? { content } : {}),
      lifecycleState: 'PUBLISHED',
      isReshareDisabledByAuthor: p.disableReshare,
    }, ctx.signal);
    const urn = reply.headers.get('x-restli-id');
    if (!urn) throw malformed(reply.status, 'the post URN (x-restli-id)');
    return urn;
  }

  const outcomeOf = (urn: string, warnings: string[], extra?: Record<string, unknown>): PublishOutcome => ({
    postId: urn,
    url: `https://www.linkedin.com/feed/update/${urn}`,
    warnings,
    ...(extra && Object.keys(extra).length ? { extra } : {}),
  });

  async function uploadImage(ctx: PublishContext, p: PostPlan, image: MediaRef): Promise<string> {
    const init = await rest('POST', '/images?action=initializeUpload', p.token, { initializeUploadRequest: { owner: p.author } }, ctx.signal);
    const value = isObject(init.body) && isObject(init.body.value) ? init.body.value : {};
    if (typeof value.uploadUrl !== 'string' || typeof value.image !== 'string') throw malformed(init.status, 'an image upload URL');
    await putBytes(value.uploadUrl, p.token, await readAll(ctx.media, image.id), image.contentType, ctx.signal);
    return value.image;
  }

  async function publishPhotos(ctx: PublishContext, post: PublishPost, p: PostPlan): Promise<PublishOutcome> {
    const alt = Array.isArray(post.settings.linkedin_alt_text) ? (post.settings.linkedin_alt_text as string[]) : [];
    const ids: string[] = [];
    // One at a time: LinkedIn's upload URLs are short-lived and a failure should stop early.
    for (const image of post.media) ids.push(await uploadImage(ctx, p, image));
    const withAlt = (id: string, i: number) => ({ id, ...(alt[i] ? { altText: alt[i] } : {}) });
    const content = ids.length === 1
      ? { media: { ...withAlt(ids[0]!, 0), ...(p.mediaTitle ? { title: p.mediaTitle } : {}) } }
      : { multiImage: { images: ids.map(withAlt) } };
    return outcomeOf(await createPost(ctx, p, content), p.warnings);
  }

  /** The thumbnail bytes, or why there are none; never fails the post (the spec makes it best effort). */
  async function thumbnailOf(ctx: PublishContext, post: PublishPost, p: PostPlan): Promise<{ bytes?: Buffer; contentType?: string; error?: string }> {
    const file = isObject(post.settings.thumbnail) ? (post.settings.thumbnail as unknown as MediaRef) : undefined;
    const url = typeof post.settings.thumbnail_url === 'string' ? post.settings.thumbnail_url : undefined;
    if (file && url) p.warnings.push('thumbnail_url was ignored: the thumbnail file wins.');
    const accept = (contentType: string, size: number): string | undefined =>
      !THUMBNAIL_TYPES.includes(contentType) ? `the thumbnail must be JPG or PNG, not ${contentType || 'an unknown type'}`
        : size > THUMBNAIL_MAX_BYTES ? `the thumbnail is over 10 MB (${size} bytes)` : undefined;
    if (file) {
      const error = accept(file.contentType, file.size);
      return error ? { error } : { bytes: await readAll(ctx.media, file.id), contentType: file.contentType };
    }
    if (!url) return {};
    const fetched = await fetchThumbnail(url, ctx.signal);
    if ('error' in fetched) return fetched;
    const error = accept(fetched.contentType, fetched.bytes.length);
    return error ? { error } : fetched;
  }

  /** Herald fetches thumbnail_url itself (LinkedIn only takes bytes), with the same timeout as API calls. */
  async function fetchThumbnail(url: string, signal?: AbortSignal): Promise<{ bytes: Buffer; contentType: string } | { error: string }> {
    const timeout = AbortSignal.timeout(timeoutMs);
    try {
      const res = await doFetch(url, { signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
      if (!res.ok) {
        await res.body?.cancel();
        return { error: `thumbnail_url answered HTTP ${res.status}` };
      }
      if (Number(res.headers.get('content-length') ?? 0) > THUMBNAIL_MAX_BYTES) {
        await res.body?.cancel();
        return { error: 'the thumbnail is over 10 MB' };
      }
      const contentType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      return { bytes: Buffer.from(await res.arrayBuffer()), contentType };
    } catch {
      return { error: timeout.aborted ? `thumbnail_url did not answer within ${timeoutMs} ms` : 'thumbnail_url could not be fetched' };
    }
  }

  /** initializeUpload → PUT every part (keeping ETags) → thumbnail → finalizeUpload. */
  async function uploadVideo(ctx: PublishContext, post: PublishPost, p: PostPlan): Promise<{ video: string; thumbnailError?: string }> {
    const video = post.media[0]!;
    const thumb = await thumbnailOf(ctx, post, p);
    const init = await rest('POST', '/videos?action=initializeUpload', p.token, {
      initializeUploadRequest: { owner: p.author, fileSizeBytes: video.size, uploadCaptions: false, uploadThumbnail: Boolean(thumb.bytes) },
    }, ctx.signal);
    const value = isObject(init.body) && isObject(init.body.value) ? init.body.value : {};
    const instructions = Array.isArray(value.uploadInstructions) ? value.uploadInstructions : [];
    const parts = instructions.filter((i): i is Json & { uploadUrl: string; firstByte: number; lastByte: number } =>
      isObject(i) && typeof i.uploadUrl === 'string' && Number.isInteger(i.firstByte) && Number.isInteger(i.lastByte));
    if (typeof value.video !== 'string' || !parts.length || parts.length !== instructions.length) throw malformed(init.status, 'video upload instructions');
    const urn = value.video;

    const etags: string[] = [];
    for (const part of parts) {
      const bytes = await readAll(ctx.media, video.id, { start: part.firstByte, end: part.lastByte + 1 });
      const put = await putBytes(part.uploadUrl, p.token, bytes, 'application/octet-stream', ctx.signal);
      const etag = put.headers.get('etag');
      if (!etag) throw malformed(put.status, 'the ETag of an uploaded part');
      etags.push(etag);
    }

    let thumbnailError = thumb.error;
    if (thumb.bytes && typeof value.thumbnailUploadUrl === 'string') {
      try {
        await putBytes(value.thumbnailUploadUrl, p.token, thumb.bytes, thumb.contentType!, ctx.signal);
      } catch (err) {
        if (!(err instanceof PlatformError)) throw err;
        thumbnailError = `LinkedIn refused the thumbnail: ${err.message}`;
      }
    } else if (thumb.bytes) {
      thumbnailError = 'LinkedIn gave no thumbnail upload URL';
    }

    await rest('POST', '/videos?action=finalizeUpload', p.token, {
      finalizeUploadRequest: { video: urn, uploadToken: typeof value.uploadToken === 'string' ? value.uploadToken : '', uploadedPartIds: etags },
    }, ctx.signal);
    return { video: urn, ...(thumbnailError ? { thumbnailError } : {}) };
  }

  const waitForVideo = (state: Record<string, unknown>): PublishStep => ({ kind: 'wait', afterMs: videoPollMs, state });

  async function publish(ctx: PublishContext, post: PublishPost): Promise<PublishStep> {
    const p = plan(ctx, post);
    if (post.kind === 'photo') return { kind: 'done', outcome: await publishPhotos(ctx, post, p) };
    if (post.kind === 'text') {
      const question = post.settings.linkedin_poll_question;
      const content = typeof question === 'string' ? {
        poll: {
          question,
          options: (post.settings.linkedin_poll_options as string[]).map((text) => ({ text })),
          settings: { duration: typeof post.settings.linkedin_poll_duration === 'string' ? post.settings.linkedin_poll_duration : 'SEVEN_DAYS' },
        },
      } : undefined;
      return { kind: 'done', outcome: outcomeOf(await createPost(ctx, p, content), p.warnings) };
    }
    const { video, thumbnailError } = await uploadVideo(ctx, post, p);
    if (thumbnailError) p.warnings.push(`The thumbnail was not set (${thumbnailError}); the video was published without it.`);
    // LinkedIn processes the video before a post may use it: come back and check.
    return waitForVideo({ video, polls: 0, warnings: p.warnings, ...(thumbnailError ? { thumbnailError } : {}) });
  }

  async function resume(ctx: PublishContext, post: PublishPost, state: Record<string, unknown>): Promise<PublishStep> {
    const video = state.video;
    if (post.kind !== 'video' || typeof video !== 'string') throw new Error('LinkedIn resume needs the state of a video publish');
    const p = plan(ctx, post);
    const polls = (typeof state.polls === 'number' ? state.polls : 0) + 1;
    const reply = await rest('GET', `/videos/${encodeURIComponent(video)}`, p.token, undefined, ctx.signal);
    const status = isObject(reply.body) ? reply.body.status : undefined;
    if (status === 'PROCESSING_FAILED') {
      const reason = isObject(reply.body) && typeof reply.body.processingFailureReason === 'string' ? reply.body.processingFailureReason : undefined;
      throw mapLinkedInFailure({ kind: 'video_failed', video, reason }, { timeoutMs, call: 'api' });
    }
    if (status !== 'AVAILABLE') {
      if (typeof status !== 'string') throw malformed(reply.status, 'the video status');
      if (polls >= maxVideoPolls) throw mapLinkedInFailure({ kind: 'video_stuck', video, polls }, { timeoutMs, call: 'api' });
      return waitForVideo({ ...state, polls });
    }
    const content = { media: { id: video, ...(p.mediaTitle ? { title: p.mediaTitle } : {}) } };
    const urn = await createPost(ctx, p, content);
    const warnings = Array.isArray(state.warnings) ? state.warnings.map(String) : p.warnings;
    return { kind: 'done', outcome: outcomeOf(urn, warnings, typeof state.thumbnailError === 'string' ? { thumbnail_error: state.thumbnailError } : undefined) };
  }

  // --- first comment ------------------------------------------------------------------------

  async function postFirstComment(ctx: PublishContext, input: { post: PostRef; text: string }): Promise<CommentCreated> {
    const postUrn = input.post.id;
    if (!postUrn) return { warnings: ['The LinkedIn post id is not known yet; the first comment was skipped.'] };
    const token = ctx.credentials.access_token;
    if (!token) throw new PlatformError('linkedin', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored LinkedIn credentials are incomplete; reconnect the account.');
    if (input.text.trim() === '') throw invalid('The first comment is empty.', 'text_empty');
    if (chars(input.text) > COMMENT_MAX_CHARS) throw invalid(`LinkedIn comments are limited to ${COMMENT_MAX_CHARS} characters.`, 'text_too_long');
    const path = `/socialActions/${encodeURIComponent(postUrn)}/comments`;
    // The comment speaks as the post's author (member or page), which only the post itself knows.
    const existing = await rest('GET', `/posts/${encodeURIComponent(postUrn)}`, token, undefined, ctx.signal);
    const actor = isObject(existing.body) && typeof existing.body.author === 'string' ? existing.body.author : ctx.credentials.member_urn;
    const reply = await rest('POST', path, token, { actor, object: postUrn, message: { text: input.text } }, ctx.signal);
    const body = isObject(reply.body) ? reply.body : {};
    const id = typeof body.$URN === 'string' ? body.$URN : reply.headers.get('x-restli-id');
    if (!id) throw malformed(reply.status, 'the comment id');
    return { comment: { id, post: input.post } };
  }

  return {
    descriptor: linkedinDescriptor,
    oauth: {
      // LinkedIn's web-app flow authenticates with the client secret; PKCE is for native apps only.
      pkce: false,
      authorizeUrl({ state, redirectUri }) {
        const query = new URLSearchParams({ response_type: 'code', client_id: opts.clientId, redirect_uri: redirectUri, state, scope: scopes.join(' ') });
        return `${authBase}/authorization?${query.toString()}`;
      },
      exchangeCode,
    },
    refresher: { refresh },
    publisher: { publish, resume },
    comments: { create: postFirstComment },
  };
}
