/**
 * Bluesky over XRPC on the account's PDS (docs.bsky.app; atproto lexicons). The account is a handle
 * plus an app password, exchanged once with com.atproto.server.createSession for an access and a
 * refresh JWT; the password itself is never stored. Posts are app.bsky.feed.post records made with
 * com.atproto.repo.createRecord; images go up first with uploadBlob, videos through the video
 * service (getServiceAuth → uploadVideo → getJobStatus, polled with wait steps). Reply and quote
 * controls are separate threadgate / postgate records under the post's rkey.
 *
 * Bluesky takes no idempotency key, so ctx.idempotencyKey cannot be forwarded.
 */
import { invalidInput, PlatformError, type PlatformFailure } from '../../../core/domain/errors';
import type { MediaKind } from '../../../core/domain/platforms';
import type { SettingsSchema, SettingViolation } from '../../../core/domain/settings';
import type {
  Comments, MediaRef, PlatformAdapter, PlatformCredentials, PlatformDescriptor, PublishContext, PublishOutcome,
  PublishPost, PublishStep, VerifiedConnection,
} from '../../../core/ports/platform';
import { exchangeJson, isObject, type HttpExchange, type Json } from '../kit/http';

export const BLUESKY_SERVICE = 'https://bsky.social';
export const BLUESKY_VIDEO_BASE = 'https://video.bsky.app';
export const BLUESKY_VIDEO_SERVICE_DID = 'did:web:video.bsky.app';
export const BLUESKY_APP_URL = 'https://bsky.app';

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_UPLOAD_TIMEOUT_MS = 300_000;
const DEFAULT_VIDEO_POLL_MS = 2_000;
const DEFAULT_VIDEO_MAX_PROCESSING_MS = 30 * 60_000;
/** Used when an access JWT carries no readable `exp`: bsky.social hands out 2-hour access tokens. */
const FALLBACK_ACCESS_LIFETIME_MS = 2 * 60 * 60_000;
/** The video service's daily quota publishes no reset time; ask again after an hour. */
const VIDEO_DAILY_LIMIT_RETRY_MS = 60 * 60_000;
const SERVICE_TOKEN_LIFETIME_S = 30 * 60;

const POST = 'app.bsky.feed.post';
const THREADGATE = 'app.bsky.feed.threadgate';
const POSTGATE = 'app.bsky.feed.postgate';

/** app.bsky.feed.post: 300 graphemes, 3000 UTF-8 bytes. */
const TEXT_MAX_GRAPHEMES = 300;
const TEXT_MAX_BYTES = 3000;
/** app.bsky.embed.images: 4 images of at most 1,000,000 bytes each. */
const IMAGES_PER_POST = 4;
const GALLERY_MAX_IMAGES = 20;
const IMAGE_MAX_BYTES = 1_000_000;
/** app.bsky.embed.video: alt text of at most 1000 graphemes. */
const VIDEO_ALT_MAX_GRAPHEMES = 1000;
const SELF_LABELS = ['porn', 'sexual', 'nudity', 'graphic-media'] as const;

export interface BlueskyPlatformOptions {
  /** Where sessions are created (default https://bsky.social); later calls go to the PDS its DID document names. */
  apiBase?: string;
  /** The video service (default https://video.bsky.app). */
  videoBase?: string;
  /** The video service's DID, the audience of its service-auth tokens (default did:web:video.bsky.app). */
  videoServiceDid?: string;
  /** The web app that post URLs point to (default https://bsky.app). */
  appUrl?: string;
  /** JSON calls. Default 15 s. */
  timeoutMs?: number;
  /** Byte uploads (images, video). Default 5 min. */
  uploadTimeoutMs?: number;
  /** Delay between video processing polls. Default 2 s. */
  videoPollMs?: number;
  /** A video still processing after this long fails as transient. Default 30 min. */
  videoMaxProcessingMs?: number;
  fetch?: typeof fetch;
}

// ---------------------------------------------------------------------------------------------
// Settings: the spec's bluesky row on the photo endpoint. bluesky_title and bluesky_first_comment
// are not here: the engine folds them into post.title and the first comment for every network.
// The record-level fields (langs, labels, gates, quote) apply to any post, so they are declared on
// all three endpoints; alt text also fits the video embed.

const ALL_ENDPOINTS: readonly MediaKind[] = ['text', 'photo', 'video'];
const THREADGATE_HELP = 'everyone, nobody, or a comma list of mention, following, followers, list:<at://… list URI>';
const LANG_TAG = /^(?:[a-zA-Z]{2,3}(?:-[a-zA-Z0-9]{1,8})*|[ix]-[a-zA-Z0-9]{1,8}(?:-[a-zA-Z0-9]{1,8})*)$/;
const LIST_URI = /^at:\/\/[^/\s]+\/app\.bsky\.graph\.list\/[A-Za-z0-9._:~-]{1,512}$/;

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const graphemeCount = (text: string): number => [...graphemes.segment(text)].length;

/**
 * bluesky_alt_text is positional (the nth text describes the nth image), so it is parsed here
 * rather than as a string_list, which drops empty items and would shift texts onto other images.
 */
export function parseAltTexts(raw: unknown): string[] | { error: string } {
  if (raw === undefined || raw === null || raw === '') return [];
  const text = String(raw);
  if (text.trim().startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (Array.isArray(parsed) && parsed.every((p) => typeof p === 'string' || p === null)) return parsed.map((p) => (p ?? '').trim());
    } catch { /* answered below */ }
    return { error: 'bluesky_alt_text is not a valid JSON array of strings' };
  }
  return text.split('||').map((t) => t.trim());
}

type ThreadgateRule = { $type: string; list?: string };

/** bluesky_threadgate → the threadgate `allow` list; undefined means everyone may reply (no record). */
export function parseThreadgate(values: readonly string[]): { allow?: ThreadgateRule[] } | { error: string } {
  const unique = [...new Set(values.map((v) => v.trim()).filter(Boolean))];
  if (!unique.length || (unique.length === 1 && unique[0] === 'everyone')) return {};
  if (unique.length === 1 && unique[0] === 'nobody') return { allow: [] };
  const allow: ThreadgateRule[] = [];
  for (const value of unique) {
    if (value === 'everyone' || value === 'nobody') return { error: `bluesky_threadgate ${value} cannot be combined with other rules` };
    if (value === 'mention') allow.push({ $type: `${THREADGATE}#mentionRule` });
    else if (value === 'following') allow.push({ $type: `${THREADGATE}#followingRule` });
    else if (value === 'followers') allow.push({ $type: `${THREADGATE}#followerRule` });
    else if (value.startsWith('list:') && LIST_URI.test(value.slice(5))) allow.push({ $type: `${THREADGATE}#listRule`, list: value.slice(5) });
    else return { error: `bluesky_threadgate has ${value}; allowed: ${THREADGATE_HELP}` };
  }
  // The lexicon allows at most 5 rules.
  if (allow.length > 5) return { error: 'bluesky_threadgate takes at most 5 rules' };
  return { allow };
}

export interface PostRef { repo: string; rkey: string }

/** A post as `at://<did or handle>/app.bsky.feed.post/<rkey>` or a web URL `…/profile/<actor>/post/<rkey>`. */
export function parsePostRef(raw: string): PostRef | undefined {
  const value = raw.trim();
  const at = /^at:\/\/([^/\s]+)\/app\.bsky\.feed\.post\/([A-Za-z0-9._:~-]{1,512})$/.exec(value);
  if (at) return { repo: at[1]!, rkey: at[2]! };
  try {
    const url = new URL(value);
    // Only the actor and rkey are read from the URL; the post is looked up on the PDS, never fetched from the URL's host.
    const web = /^\/profile\/([^/]+)\/post\/([A-Za-z0-9._:~-]{1,512})\/?$/.exec(url.pathname);
    if ((url.protocol === 'https:' || url.protocol === 'http:') && web) return { repo: decodeURIComponent(web[1]!), rkey: web[2]! };
  } catch { /* not a URL */ }
  return undefined;
}

const disablesQuotes = (value: unknown): boolean => value === 'disable_quotes' || value === 'true';

export const blueskySettings: SettingsSchema = {
  fields: [
    { name: 'bluesky_alt_text', type: 'string', endpoints: ['photo', 'video'],
      description: 'Alt text per image, in order: one text, a JSON array, or texts separated by ||.' },
    { name: 'bluesky_langs', type: 'string_list', endpoints: ALL_ENDPOINTS, maxLength: 3, description: 'Up to 3 BCP-47 language codes.' },
    { name: 'bluesky_labels', type: 'string_list', endpoints: ALL_ENDPOINTS, oneOf: SELF_LABELS, description: 'Self-labels (content warnings).' },
    { name: 'bluesky_gallery', type: 'boolean', endpoints: ['photo'], default: false,
      description: `Up to ${GALLERY_MAX_IMAGES} images, posted as a thread of ${IMAGES_PER_POST}-image posts.` },
    { name: 'bluesky_threadgate', aliases: ['bluesky_reply_settings'], type: 'string_list', endpoints: ALL_ENDPOINTS,
      default: ['everyone'], description: `Who may reply: ${THREADGATE_HELP}.` },
    { name: 'bluesky_postgate', aliases: ['bluesky_quote_settings'], type: 'string', endpoints: ALL_ENDPOINTS,
      oneOf: ['disable_quotes', 'true', 'false'], description: 'disable_quotes (or true) stops others from quoting the post.' },
    { name: 'bluesky_quote_uri', aliases: ['bluesky_quote_id', 'bluesky_quote_url', 'bluesky_quote_post', 'bluesky_quote'],
      type: 'string', endpoints: ALL_ENDPOINTS, description: 'The post to quote: a bsky.app post URL or an at:// URI.' },
  ],
  check(values, ctx) {
    const violations: SettingViolation[] = [];
    const langs = (values.bluesky_langs as string[] | undefined) ?? [];
    const badLangs = langs.filter((l) => !LANG_TAG.test(l));
    if (badLangs.length) violations.push({ field: 'bluesky_langs', message: `bluesky_langs has ${badLangs.join(', ')}; use BCP-47 codes such as en, pt-BR` });

    const gate = parseThreadgate((values.bluesky_threadgate as string[] | undefined) ?? []);
    if ('error' in gate) violations.push({ field: 'bluesky_threadgate', message: gate.error });

    if (typeof values.bluesky_quote_uri === 'string' && !parsePostRef(values.bluesky_quote_uri)) {
      violations.push({ field: 'bluesky_quote_uri', message: 'bluesky_quote_uri must be a post URL (https://bsky.app/profile/<handle>/post/<id>) or an at:// post URI' });
    }

    const alts = parseAltTexts(values.bluesky_alt_text);
    if ('error' in alts) violations.push({ field: 'bluesky_alt_text', message: alts.error });
    else if (ctx.endpoint === 'video') {
      if (alts.length > 1) violations.push({ field: 'bluesky_alt_text', message: 'bluesky_alt_text takes one text for a video' });
      else if (alts[0] && graphemeCount(alts[0]) > VIDEO_ALT_MAX_GRAPHEMES) {
        violations.push({ field: 'bluesky_alt_text', message: `bluesky_alt_text is at most ${VIDEO_ALT_MAX_GRAPHEMES} characters for a video` });
      }
    } else if (ctx.endpoint === 'photo' && alts.length > ctx.mediaCount) {
      violations.push({ field: 'bluesky_alt_text', message: `bluesky_alt_text has ${alts.length} texts for ${ctx.mediaCount} photos` });
    }
    return violations;
  },
};

export const blueskyDescriptor: PlatformDescriptor = {
  id: 'bluesky',
  displayName: 'Bluesky',
  connect: 'credentials',
  endpoints: ['text', 'photo', 'video'],
  limits: {
    // Bluesky counts graphemes; the adapter checks those (a grapheme may be several code points).
    textMaxChars: TEXT_MAX_GRAPHEMES,
    textLength: graphemeCount,
    video: {
      maxBytes: 300_000_000,
      maxSeconds: 600,
      containers: ['mov,mp4,m4a,3gp,3g2,mj2', 'matroska,webm', 'mpeg'],
    },
    photo: {
      maxBytes: IMAGE_MAX_BYTES,
      // 4 per post; more are dropped with a warning (spec), up to 20 with bluesky_gallery.
      maxCount: GALLERY_MAX_IMAGES,
      contentTypes: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'],
    },
  },
  settings: blueskySettings,
  rules: { dailyCap: 50 },
};

const VIDEO_TYPES: Record<string, string> = { 'video/mp4': 'mp4', 'video/quicktime': 'mov', 'video/webm': 'webm', 'video/mpeg': 'mpeg' };

// ---------------------------------------------------------------------------------------------
// Failure mapping

/** What came back from Bluesky, before it is given a meaning. */
export type BlueskyOutcome =
  | HttpExchange
  /** A 2xx whose body is not what the method returns. */
  | { kind: 'malformed'; status: number; what: string }
  /** The video service's verdict inside a job status (JOB_STATE_FAILED, or `error` on upload). */
  | { kind: 'video_job'; error?: string; failureCode?: string; message?: string }
  /** getUploadLimits said no (daily quota, unconfirmed email, not allowed). */
  | { kind: 'upload_limits'; limits: Json; videoBytes: number }
  /** Still processing after the configured maximum. */
  | { kind: 'video_stalled'; jobId: string; waitedMs: number }
  /** The stored refresh JWT is past its expiry: only a new app-password login helps. */
  | { kind: 'refresh_expired' };

const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

function retryAfterMs(headers: Headers): number {
  const reset = Number.parseInt(headers.get('ratelimit-reset') ?? '', 10);
  if (Number.isFinite(reset) && reset > 0) return Math.max(1000, reset * 1000 - Date.now());
  const after = Number.parseFloat(headers.get('retry-after') ?? '');
  if (Number.isFinite(after) && after >= 0) return Math.max(1000, Math.ceil(after * 1000));
  return 60_000;
}

/** Why a video job failed, by the service's machine-readable codes. */
function videoFailure(error: string | undefined, failureCode: string | undefined): PlatformFailure {
  if (error === 'unconfirmed_email') return { kind: 'invalid_content', code: 'unconfirmed_email' };
  switch (failureCode) {
    case 'validation_failure':
    case 'encoding_failure': return { kind: 'invalid_content', code: 'video_rejected' };
    case 'pds_upload_unsupported_blob_size': return { kind: 'invalid_content', code: 'media_too_large' };
    default: return { kind: 'transient' };
  }
}

/**
 * The one place Bluesky's answers get a meaning in the core taxonomy: by HTTP status and the XRPC
 * `error` name (or the video service's `error` / `failureCode`), never by message text. Messages
 * never contain tokens or passwords.
 */
export function mapBlueskyFailure(outcome: BlueskyOutcome, timeoutMs: number): PlatformError {
  const fail = (failure: PlatformFailure, message: string, upstream: { status?: number; code?: string } = {}) =>
    new PlatformError('bluesky', failure, message, upstream);

  switch (outcome.kind) {
    case 'no_response': {
      const what = outcome.reason === 'timeout' ? `Bluesky did not answer within ${timeoutMs} ms`
        : outcome.reason === 'aborted' ? 'The request to Bluesky was cancelled before it answered'
        : `The connection to Bluesky failed${outcome.detail ? ` (${outcome.detail})` : ''}`;
      return fail({ kind: 'transient' }, `${what}; the outcome is unknown: the request may or may not have taken effect.`);
    }
    case 'malformed':
      // Bluesky may have acted on the request: retrying could post twice, so this is not transient.
      return fail({ kind: 'rejected', code: 'unexpected_response' },
        `Bluesky answered HTTP ${outcome.status} without ${outcome.what}; check the account before retrying.`, { status: outcome.status });
    case 'video_job': {
      const said = outcome.message ?? outcome.error ?? outcome.failureCode ?? 'the video could not be processed';
      const failure = videoFailure(outcome.error, outcome.failureCode);
      const hint = outcome.error === 'unconfirmed_email' ? ' Bluesky accepts videos only from accounts with a verified email: verify it in Bluesky settings.' : '';
      return fail(failure, `Bluesky video service: ${said}.${hint}`, { code: outcome.error ?? outcome.failureCode });
    }
    case 'upload_limits': {
      const { limits } = outcome;
      const said = str(limits.message) ?? str(limits.error) ?? 'video uploads are not allowed right now';
      if (limits.error === 'unconfirmed_email') {
        return fail({ kind: 'invalid_content', code: 'unconfirmed_email' },
          `Bluesky video service: ${said}. Bluesky accepts videos only from accounts with a verified email.`, { code: 'unconfirmed_email' });
      }
      const videosLeft = typeof limits.remainingDailyVideos === 'number' ? limits.remainingDailyVideos : undefined;
      const bytesLeft = typeof limits.remainingDailyBytes === 'number' ? limits.remainingDailyBytes : undefined;
      if ((videosLeft !== undefined && videosLeft < 1) || (bytesLeft !== undefined && bytesLeft < outcome.videoBytes)) {
        return fail({ kind: 'rate_limited', retryAfterMs: VIDEO_DAILY_LIMIT_RETRY_MS },
          `Bluesky's daily video upload limit is reached (${videosLeft ?? '?'} videos, ${bytesLeft ?? '?'} bytes left): ${said}.`, { code: 'daily_video_limit' });
      }
      return fail({ kind: 'rejected', code: 'video_upload_not_allowed' }, `Bluesky video service: ${said}.`, { code: str(limits.error) });
    }
    case 'video_stalled':
      return fail({ kind: 'transient' },
        `Bluesky was still processing video job ${outcome.jobId} after ${Math.round(outcome.waitedMs / 1000)} s.`);
    case 'refresh_expired':
      return fail({ kind: 'auth_expired', reason: 'refresh_token_expired' },
        'The Bluesky session expired (refresh tokens last about two months); reconnect the account with an app password.');
    case 'response':
      break;
  }

  const { status, headers } = outcome;
  const body = isObject(outcome.body) ? outcome.body : {};
  const job = isObject(body.jobStatus) ? body.jobStatus : {};
  const code = str(body.error) ?? str(job.error);
  const said = `Bluesky: ${str(body.message) ?? str(job.message) ?? code ?? `HTTP ${status}`}`;
  const upstream = { status, code };

  if (status === 429 || code === 'RateLimitExceeded') {
    return fail({ kind: 'rate_limited', retryAfterMs: retryAfterMs(headers) }, said, upstream);
  }
  switch (code) {
    case 'ExpiredToken':
      return fail({ kind: 'auth_expired', reason: 'token_expired' }, said, upstream);
    case 'InvalidToken':
      return fail({ kind: 'auth_expired', reason: 'token_invalid' }, `${said}. Reconnect the account with an app password.`, upstream);
    case 'AuthenticationRequired':
    case 'AuthMissing':
      return fail({ kind: 'auth_expired', reason: 'authentication_required' }, `${said}. Reconnect the account with an app password.`, upstream);
    case 'AuthFactorTokenRequired':
      return fail({ kind: 'rejected', code: 'auth_factor_required' },
        `${said}. The account asks for an email sign-in code: connect with an app password (Settings → Privacy and security → App passwords).`, upstream);
    case 'AccountTakedown':
    case 'AccountDeactivated':
    case 'AccountSuspended':
      return fail({ kind: 'rejected', code: code === 'AccountTakedown' ? 'account_takedown' : 'account_inactive' }, said, upstream);
    case 'unconfirmed_email':
      return fail({ kind: 'invalid_content', code: 'unconfirmed_email' },
        `${said}. Bluesky accepts videos only from accounts with a verified email: verify it in Bluesky settings.`, upstream);
    case 'BlobTooLarge':
    case 'PayloadTooLarge':
      return fail({ kind: 'invalid_content', code: 'media_too_large' }, said, upstream);
    case 'InvalidMimeType':
      return fail({ kind: 'invalid_content', code: 'media_type_unsupported' }, said, upstream);
    case 'RecordNotFound':
      return fail({ kind: 'invalid_content', code: 'record_not_found' }, said, upstream);
  }
  if (status === 401) return fail({ kind: 'auth_expired', reason: 'authentication_required' }, said, upstream);
  if (status === 413) return fail({ kind: 'invalid_content', code: 'media_too_large' }, said, upstream);
  if (status >= 500) return fail({ kind: 'transient' }, `Bluesky is failing (HTTP ${status}${code ? ` ${code}` : ''}); try again later.`, upstream);
  if (status === 400) return fail({ kind: 'invalid_content' }, said, upstream);
  return fail({ kind: 'rejected', code }, said, upstream);
}

// ---------------------------------------------------------------------------------------------
// Rich text: links, mentions and hashtags as facets with UTF-8 byte offsets.

interface Facet { index: { byteStart: number; byteEnd: number }; features: Json[] }

const utf8Length = (s: string) => Buffer.byteLength(s, 'utf8');

interface Span { start: number; end: number; value: string }

function spans(text: string, pattern: RegExp, tidy: (s: string) => string): Span[] {
  const found: Span[] = [];
  for (const match of text.matchAll(pattern)) {
    const lead = match[1] ?? '';
    const start = match.index! + lead.length;
    const value = tidy(match[0].slice(lead.length));
    if (value) found.push({ start, end: start + value.length, value });
  }
  return found;
}

/** Trailing punctuation ends a sentence, not the URL; a closing bracket belongs to it only if it opened one. */
function trimUrl(url: string): string {
  let out = url.replace(/[.,;:!?'"]+$/, '');
  while (out.endsWith(')') && (out.match(/\(/g)?.length ?? 0) < (out.match(/\)/g)?.length ?? 0)) out = out.slice(0, -1).replace(/[.,;:!?'"]+$/, '');
  return out;
}

const byteIndex = (text: string, span: Span) => ({ byteStart: utf8Length(text.slice(0, span.start)), byteEnd: utf8Length(text.slice(0, span.end)) });

/** Facets for the text; handles that do not resolve stay plain text. */
async function detectFacets(text: string, resolveHandle: (handle: string) => Promise<string | undefined>): Promise<Facet[]> {
  const facets: Facet[] = [];
  for (const link of spans(text, /(^|[\s(])https?:\/\/[^\s<>"]+/g, (s) => trimUrl(s))) {
    facets.push({ index: byteIndex(text, link), features: [{ $type: 'app.bsky.richtext.facet#link', uri: link.value }] });
  }
  const handle = /(^|[\s(])@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+/g;
  for (const mention of spans(text, handle, (s) => s)) {
    const did = await resolveHandle(mention.value.slice(1).toLowerCase());
    if (did) facets.push({ index: byteIndex(text, mention), features: [{ $type: 'app.bsky.richtext.facet#mention', did }] });
  }
  for (const tag of spans(text, /(^|\s)[#＃][^\s#＃]+/gu, (s) => s.replace(/\p{P}+$/u, ''))) {
    const name = tag.value.slice(1);
    // A tag needs a non-digit, and Bluesky caps tags at 64 graphemes.
    if (!/\D/.test(name) || graphemeCount(name) > 64) continue;
    facets.push({ index: byteIndex(text, tag), features: [{ $type: 'app.bsky.richtext.facet#tag', tag: name }] });
  }
  return facets.sort((a, b) => a.index.byteStart - b.index.byteStart);
}

// ---------------------------------------------------------------------------------------------
// Sessions and records

interface Session { did: string; handle: string; accessJwt: string; service: string }
interface StrongRef { uri: string; cid: string }

function jwtExpiry(token: string): number | undefined {
  try {
    const payload: unknown = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
    return isObject(payload) && typeof payload.exp === 'number' ? payload.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

const rkeyOf = (uri: string): string => uri.slice(uri.lastIndexOf('/') + 1);

/** The PDS from a DID document (`#atproto_pds`), where the account's repo and sessions live. */
function pdsEndpoint(didDoc: unknown): string | undefined {
  if (!isObject(didDoc) || !Array.isArray(didDoc.service)) return undefined;
  const entry = didDoc.service.find((s) => isObject(s) && (s.id === '#atproto_pds' || (typeof s.id === 'string' && s.id.endsWith('#atproto_pds'))));
  return isObject(entry) ? str(entry.serviceEndpoint) : undefined;
}

/** The plan of a post: everything validated before anything is sent. */
interface PostPlan {
  text: string;
  images: MediaRef[];
  video?: MediaRef;
  alts: string[];
  langs: string[];
  labels: string[];
  allow?: ThreadgateRule[];
  disableQuotes: boolean;
  quote?: PostRef;
  gallery: boolean;
  warnings: string[];
}

interface VideoState { phase: 'video_processing'; jobId: string; quote: StrongRef | null; startedAt: string }

const IDENTIFIER_HELP = 'identifier must be the Bluesky handle (such as alice.bsky.social), DID or account email.';
const APP_PASSWORD_HELP = 'app_password must be a Bluesky app password such as abcd-efgh-ijkl-mnop (Settings → Privacy and security → App passwords), not the account password.';
const APP_PASSWORD = /^[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}$/;

export function createBlueskyPlatform(opts: BlueskyPlatformOptions = {}): PlatformAdapter {
  const trim = (u: string) => u.replace(/\/+$/, '');
  const apiBase = trim(opts.apiBase ?? BLUESKY_SERVICE);
  const videoBase = trim(opts.videoBase ?? BLUESKY_VIDEO_BASE);
  const videoServiceDid = opts.videoServiceDid ?? BLUESKY_VIDEO_SERVICE_DID;
  const appUrl = trim(opts.appUrl ?? BLUESKY_APP_URL);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const uploadTimeoutMs = opts.uploadTimeoutMs ?? DEFAULT_UPLOAD_TIMEOUT_MS;
  const videoPollMs = opts.videoPollMs ?? DEFAULT_VIDEO_POLL_MS;
  const videoMaxProcessingMs = opts.videoMaxProcessingMs ?? DEFAULT_VIDEO_MAX_PROCESSING_MS;
  const doFetch = opts.fetch ?? fetch;
  const apiOrigin = new URL(apiBase).origin;

  interface Call {
    method: 'GET' | 'POST';
    query?: Record<string, string>;
    json?: Json;
    bytes?: { data: Buffer; contentType: string };
    token?: string;
    signal?: AbortSignal;
    /** Answers that are not failures even without a 2xx (the video service's already_exists). */
    accept?: (status: number, body: unknown) => boolean;
  }

  /** One XRPC call; every failure leaves as a PlatformError from mapBlueskyFailure. */
  async function xrpc(base: string, nsid: string, call: Call): Promise<{ status: number; body: Json }> {
    const query = call.query ? `?${new URLSearchParams(call.query)}` : '';
    const headers: Record<string, string> = { accept: 'application/json' };
    if (call.token) headers.authorization = `Bearer ${call.token}`;
    if (call.json) headers['content-type'] = 'application/json';
    if (call.bytes) headers['content-type'] = call.bytes.contentType;
    const limit = call.bytes ? uploadTimeoutMs : timeoutMs;
    const outcome = await exchangeJson(`${base}/xrpc/${nsid}${query}`, {
      method: call.method,
      headers,
      body: call.json ? JSON.stringify(call.json) : call.bytes ? call.bytes.data : undefined,
    }, { fetch: doFetch, timeoutMs: limit, signal: call.signal });
    if (outcome.kind === 'no_response') throw mapBlueskyFailure(outcome, limit);
    const { status, body } = outcome;
    const ok = status >= 200 && status < 300;
    if (!(ok || call.accept?.(status, body))) throw mapBlueskyFailure(outcome, limit);
    if (!isObject(body)) throw mapBlueskyFailure({ kind: 'malformed', status, what: `a JSON answer to ${nsid}` }, limit);
    return { status, body };
  }

  function sessionOf(credentials: PlatformCredentials): Session {
    const { did, handle, access_jwt: accessJwt, service } = credentials;
    if (!did || !accessJwt || !service) {
      throw new PlatformError('bluesky', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored Bluesky session is incomplete; reconnect the account.');
    }
    return { did, handle: handle || did, accessJwt, service };
  }

  /** A session's PDS must be https (or the configured service's own origin, for loopback simulators). */
  function checkedService(candidate: string | undefined): string {
    if (!candidate) return apiBase;
    try {
      const url = new URL(candidate);
      if (url.protocol === 'https:' || url.origin === apiOrigin) return trim(url.toString());
    } catch { /* fall through */ }
    return apiBase;
  }

  function credentialsOf(body: Json, service: string, previous: PlatformCredentials = {}): PlatformCredentials {
    const accessJwt = str(body.accessJwt);
    const refreshJwt = str(body.refreshJwt);
    const did = str(body.did);
    const handle = str(body.handle);
    if (!accessJwt || !refreshJwt || !did?.startsWith('did:') || !handle) {
      throw mapBlueskyFailure({ kind: 'malformed', status: 200, what: 'a session (accessJwt, refreshJwt, did, handle)' }, timeoutMs);
    }
    const expiresAt = jwtExpiry(accessJwt) ?? Date.now() + FALLBACK_ACCESS_LIFETIME_MS;
    const emailConfirmed = typeof body.emailConfirmed === 'boolean' ? String(body.emailConfirmed) : previous.email_confirmed ?? 'false';
    return {
      did,
      handle,
      access_jwt: accessJwt,
      refresh_jwt: refreshJwt,
      service: checkedService(pdsEndpoint(body.didDoc) ?? service),
      expires_at: new Date(expiresAt).toISOString(),
      email_confirmed: emailConfirmed,
    };
  }

  async function verify(input: Record<string, unknown>): Promise<VerifiedConnection> {
    const trimmed = typeof input.identifier === 'string' ? input.identifier.trim().replace(/^@/, '') : '';
    // Handles and emails are case-insensitive (the PDS lowercases them); DIDs are not.
    const rawId = trimmed.startsWith('did:') ? trimmed : trimmed.toLowerCase();
    if (!rawId || /\s/.test(rawId)) throw invalidInput(IDENTIFIER_HELP, { field: 'identifier' });
    const password = typeof input.app_password === 'string' ? input.app_password.trim().toLowerCase() : '';
    // Checked before sending, so an account password is never sent to (or held by) Herald.
    if (!APP_PASSWORD.test(password)) throw invalidInput(APP_PASSWORD_HELP, { field: 'app_password' });

    const { body } = await xrpc(apiBase, 'com.atproto.server.createSession', { method: 'POST', json: { identifier: rawId, password } });
    const credentials = credentialsOf(body, apiBase);
    const { body: profile } = await xrpc(credentials.service!, 'app.bsky.actor.getProfile', {
      method: 'GET', query: { actor: credentials.did! }, token: credentials.access_jwt,
    });
    const handle = str(profile.handle) ?? credentials.handle!;
    return {
      identity: {
        platformUserId: credentials.did!,
        handle,
        displayName: str(profile.displayName) ?? handle,
        avatarUrl: str(profile.avatar) ?? '',
      },
      credentials,
    };
  }

  async function refresh(credentials: PlatformCredentials): Promise<PlatformCredentials> {
    const refreshJwt = credentials.refresh_jwt;
    if (!refreshJwt) throw mapBlueskyFailure({ kind: 'refresh_expired' }, timeoutMs);
    const expiry = jwtExpiry(refreshJwt);
    if (expiry !== undefined && expiry <= Date.now()) throw mapBlueskyFailure({ kind: 'refresh_expired' }, timeoutMs);
    const service = checkedService(credentials.service);
    const { body } = await xrpc(service, 'com.atproto.server.refreshSession', { method: 'POST', token: refreshJwt });
    return credentialsOf(body, service, credentials);
  }

  // -- publishing --------------------------------------------------------------------------

  const invalid = (code: string, message: string) => new PlatformError('bluesky', { kind: 'invalid_content', code }, message);

  function checkText(text: string, allowEmpty: boolean): void {
    if (!allowEmpty && !text.trim()) throw invalid('text_empty', 'Bluesky cannot post an empty text.');
    const count = graphemeCount(text);
    if (count > TEXT_MAX_GRAPHEMES) throw invalid('text_too_long', `Bluesky posts are limited to ${TEXT_MAX_GRAPHEMES} characters; this text has ${count}.`);
    if (utf8Length(text) > TEXT_MAX_BYTES) throw invalid('text_too_long', `Bluesky posts are limited to ${TEXT_MAX_BYTES} bytes of UTF-8; this text has ${utf8Length(text)}.`);
  }

  /** Validates the post against Bluesky's limits; throws invalid_content before anything is sent. */
  function plan(post: PublishPost): PostPlan {
    const s = post.settings;
    const warnings: string[] = [];
    const alts = parseAltTexts(s.bluesky_alt_text);
    if ('error' in alts) throw invalid('invalid_setting', alts.error);
    const gate = parseThreadgate((s.bluesky_threadgate as string[] | undefined) ?? []);
    if ('error' in gate) throw invalid('invalid_setting', gate.error);
    const quote = typeof s.bluesky_quote_uri === 'string' && s.bluesky_quote_uri ? parsePostRef(s.bluesky_quote_uri) : undefined;
    if (typeof s.bluesky_quote_uri === 'string' && s.bluesky_quote_uri && !quote) throw invalid('invalid_setting', 'bluesky_quote_uri is not a Bluesky post URL or at:// URI.');
    const base = {
      text: post.title,
      alts,
      langs: (s.bluesky_langs as string[] | undefined) ?? [],
      labels: (s.bluesky_labels as string[] | undefined) ?? [],
      ...(gate.allow ? { allow: gate.allow } : {}),
      disableQuotes: disablesQuotes(s.bluesky_postgate),
      ...(quote ? { quote } : {}),
      gallery: s.bluesky_gallery === true,
      warnings,
    };

    if (post.kind === 'text') {
      checkText(post.title, false);
      if (post.media.length) warnings.push(`Bluesky text posts carry no media; ${post.media.length} file(s) were ignored.`);
      return { ...base, images: [] };
    }

    if (post.kind === 'video') {
      checkText(post.title, true);
      const [video, ...rest] = post.media;
      if (!video || video.kind !== 'video') throw invalid('media_missing', 'A Bluesky video post needs one video file.');
      if (rest.length) warnings.push(`Bluesky posts take one video; ${rest.length} more file(s) were dropped.`);
      const limits = blueskyDescriptor.limits.video!;
      if (!VIDEO_TYPES[video.contentType]) throw invalid('media_type_unsupported', `Bluesky takes MP4, MOV, WebM or MPEG videos, not ${video.contentType}.`);
      if (video.size > limits.maxBytes!) {
        throw invalid('media_too_large', `Bluesky videos are limited to ${limits.maxBytes! / 1_000_000} MB; this one has ${(video.size / 1_000_000).toFixed(1)} MB.`);
      }
      const seconds = video.info?.durationSeconds;
      if (seconds != null && seconds > limits.maxSeconds!) {
        throw invalid('video_too_long', `Bluesky videos are limited to ${limits.maxSeconds! / 60} minutes; this one lasts ${Math.ceil(seconds)} s.`);
      }
      const container = video.info?.container;
      if (container && !limits.containers!.includes(container)) throw invalid('media_type_unsupported', `Bluesky does not take ${container} videos.`);
      return { ...base, images: [], video };
    }

    checkText(post.title, true);
    if (!post.media.length) throw invalid('media_missing', 'A Bluesky photo post needs at least one image.');
    const cap = base.gallery ? GALLERY_MAX_IMAGES : IMAGES_PER_POST;
    const images = post.media.slice(0, cap);
    if (post.media.length > cap) {
      warnings.push(`Bluesky takes ${cap} images${base.gallery ? ' in a gallery' : ' per post (send bluesky_gallery=true for up to 20)'}; `
        + `the last ${post.media.length - cap} were dropped.`);
    }
    const { contentTypes } = blueskyDescriptor.limits.photo!;
    images.forEach((image, i) => {
      if (image.kind !== 'image' || !contentTypes!.includes(image.contentType)) {
        throw invalid('media_type_unsupported', `Bluesky photo posts take JPEG, PNG, WebP or GIF images; photo ${i + 1} is ${image.contentType}.`);
      }
      if (image.size > IMAGE_MAX_BYTES) {
        throw invalid('media_too_large', `Bluesky images are limited to 1 MB (${IMAGE_MAX_BYTES} bytes); photo ${i + 1} has ${image.size} bytes.`);
      }
    });
    if (alts.length > images.length) warnings.push(`bluesky_alt_text has ${alts.length} texts for ${images.length} images; the extra texts were ignored.`);
    return { ...base, images };
  }

  async function readMedia(ctx: PublishContext, ref: MediaRef): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.media.read(ref.id)) chunks.push(Buffer.from(chunk));
    return Buffer.concat(chunks);
  }

  const aspectRatio = (ref: MediaRef) =>
    (ref.info?.width && ref.info?.height ? { aspectRatio: { width: ref.info.width, height: ref.info.height } } : {});

  async function resolveQuote(session: Session, ref: PostRef, signal?: AbortSignal): Promise<StrongRef> {
    const { status, body } = await xrpc(session.service, 'com.atproto.repo.getRecord', {
      method: 'GET', query: { repo: ref.repo, collection: POST, rkey: ref.rkey }, token: session.accessJwt, signal,
    });
    const uri = str(body.uri);
    const cid = str(body.cid);
    if (!uri || !cid) throw mapBlueskyFailure({ kind: 'malformed', status, what: 'the quoted post (uri, cid)' }, timeoutMs);
    return { uri, cid };
  }

  async function resolveHandle(session: Session, handle: string, signal?: AbortSignal): Promise<string | undefined> {
    try {
      const { body } = await xrpc(session.service, 'com.atproto.identity.resolveHandle', { method: 'GET', query: { handle }, token: session.accessJwt, signal });
      return str(body.did);
    } catch (err) {
      // An unknown handle stays plain text; every other failure is the call's own.
      if (err instanceof PlatformError && err.failure.kind === 'invalid_content') return undefined;
      throw err;
    }
  }

  async function createRecord(session: Session, collection: string, record: Json, signal?: AbortSignal, rkey?: string): Promise<StrongRef> {
    const { status, body } = await xrpc(session.service, 'com.atproto.repo.createRecord', {
      method: 'POST', token: session.accessJwt, signal,
      json: { repo: session.did, collection, ...(rkey ? { rkey } : {}), record: { $type: collection, ...record } },
    });
    const uri = str(body.uri);
    const cid = str(body.cid);
    if (!uri?.startsWith('at://') || !cid) throw mapBlueskyFailure({ kind: 'malformed', status, what: 'the created record (uri, cid)' }, timeoutMs);
    return { uri, cid };
  }

  const postUrl = (session: Session, uri: string) =>
    `${appUrl}/profile/${session.handle === 'handle.invalid' ? session.did : session.handle}/post/${rkeyOf(uri)}`;

  /** One app.bsky.feed.post record: text with facets, the post's langs and labels, an embed and an optional reply. */
  async function postRecord(
    session: Session, plan: Pick<PostPlan, 'langs' | 'labels'>, text: string, embed: Json | undefined, reply: Json | undefined, signal?: AbortSignal,
  ): Promise<StrongRef> {
    const facets = await detectFacets(text, (h) => resolveHandle(session, h, signal));
    return createRecord(session, POST, {
      text,
      createdAt: new Date().toISOString(),
      ...(facets.length ? { facets } : {}),
      ...(plan.langs.length ? { langs: plan.langs } : {}),
      ...(plan.labels.length ? { labels: { $type: 'com.atproto.label.defs#selfLabels', values: plan.labels.map((val) => ({ val })) } } : {}),
      ...(embed ? { embed } : {}),
      ...(reply ? { reply } : {}),
    }, signal);
  }

  function withQuote(media: Json | undefined, quote: StrongRef | undefined): Json | undefined {
    if (!quote) return media;
    if (!media) return { $type: 'app.bsky.embed.record', record: quote };
    return { $type: 'app.bsky.embed.recordWithMedia', record: { $type: 'app.bsky.embed.record', record: quote }, media };
  }

  /**
   * Creates the post (a thread for a gallery: 4 images per post, each replying to the previous),
   * then its gates. Once the first post exists, later failures become warnings: failing the
   * publish would have the engine retry it and post twice.
   */
  async function createPosts(session: Session, plan: PostPlan, mediaEmbeds: Json[], quote: StrongRef | undefined, signal?: AbortSignal): Promise<PublishOutcome> {
    const warnings = [...plan.warnings];
    const root = await postRecord(session, plan, plan.text, withQuote(mediaEmbeds[0], quote), undefined, signal);
    const thread: StrongRef[] = [root];
    for (let i = 1; i < mediaEmbeds.length; i += 1) {
      try {
        thread.push(await postRecord(session, plan, '', mediaEmbeds[i], { root, parent: thread[thread.length - 1] }, signal));
      } catch (err) {
        warnings.push(`Gallery posts ${i + 1}-${mediaEmbeds.length} of ${mediaEmbeds.length} were not posted: ${(err as Error).message}`);
        break;
      }
    }
    const createdAt = new Date().toISOString();
    if (plan.allow) {
      // A threadgate governs the whole thread from its root, under the root's rkey.
      await createRecord(session, THREADGATE, { post: root.uri, allow: plan.allow, createdAt }, signal, rkeyOf(root.uri))
        .catch((err: Error) => warnings.push(`The reply setting (bluesky_threadgate) was not applied: ${err.message}`));
    }
    if (plan.disableQuotes) {
      for (const post of thread) {
        await createRecord(session, POSTGATE, { post: post.uri, createdAt, embeddingRules: [{ $type: `${POSTGATE}#disableRule` }] }, signal, rkeyOf(post.uri))
          .catch((err: Error) => warnings.push(`Quoting was not disabled (bluesky_postgate) on ${post.uri}: ${err.message}`));
      }
    }
    return {
      postId: root.uri,
      url: postUrl(session, root.uri),
      warnings,
      extra: {
        cid: root.cid,
        ...(thread.length > 1 ? { thread: thread.map((p) => ({ uri: p.uri, cid: p.cid, url: postUrl(session, p.uri) })) } : {}),
      },
    };
  }

  async function uploadImages(ctx: PublishContext, session: Session, plan: PostPlan): Promise<Json[]> {
    const items: Json[] = [];
    for (const [i, image] of plan.images.entries()) {
      const data = await readMedia(ctx, image);
      const { status, body } = await xrpc(session.service, 'com.atproto.repo.uploadBlob', {
        method: 'POST', token: session.accessJwt, signal: ctx.signal, bytes: { data, contentType: image.contentType },
      });
      if (!isObject(body.blob)) throw mapBlueskyFailure({ kind: 'malformed', status, what: 'the uploaded blob' }, uploadTimeoutMs);
      items.push({ image: body.blob, alt: plan.alts[i] ?? '', ...aspectRatio(image) });
    }
    const embeds: Json[] = [];
    for (let i = 0; i < items.length; i += IMAGES_PER_POST) {
      embeds.push({ $type: 'app.bsky.embed.images', images: items.slice(i, i + IMAGES_PER_POST) });
    }
    return embeds;
  }

  const videoEmbed = (plan: PostPlan, blob: Json): Json =>
    ({ $type: 'app.bsky.embed.video', video: blob, ...(plan.alts[0] ? { alt: plan.alts[0] } : {}), ...aspectRatio(plan.video!) });

  async function serviceToken(session: Session, aud: string, lxm: string, signal?: AbortSignal): Promise<string> {
    const exp = String(Math.floor(Date.now() / 1000) + SERVICE_TOKEN_LIFETIME_S);
    const { status, body } = await xrpc(session.service, 'com.atproto.server.getServiceAuth', {
      method: 'GET', query: { aud, lxm, exp }, token: session.accessJwt, signal,
    });
    const token = str(body.token);
    if (!token) throw mapBlueskyFailure({ kind: 'malformed', status, what: 'a service token' }, timeoutMs);
    return token;
  }

  const jobStatusOf = (body: Json): Json => (isObject(body.jobStatus) ? body.jobStatus : body);

  /**
   * The video service's flow (docs.bsky.app/docs/tutorials/video): email and daily quota checked
   * first so nothing large is sent in vain, then the bytes with a service token for the PDS (the
   * service stores the processed blob there on the user's behalf).
   */
  async function startVideo(ctx: PublishContext, session: Session, plan: PostPlan, quote: StrongRef | undefined): Promise<PublishStep> {
    const video = plan.video!;
    if (ctx.credentials.email_confirmed !== 'true') {
      // Stored at connect time; the email may have been confirmed since, so ask before refusing.
      const { body } = await xrpc(session.service, 'com.atproto.server.getSession', { method: 'GET', token: session.accessJwt, signal: ctx.signal });
      if (body.emailConfirmed !== true) {
        throw mapBlueskyFailure({ kind: 'video_job', error: 'unconfirmed_email', message: 'the account email is not verified' }, timeoutMs);
      }
    }
    const limitsToken = await serviceToken(session, videoServiceDid, 'app.bsky.video.getUploadLimits', ctx.signal);
    const { body: limits } = await xrpc(videoBase, 'app.bsky.video.getUploadLimits', { method: 'GET', token: limitsToken, signal: ctx.signal });
    const videosLeft = typeof limits.remainingDailyVideos === 'number' ? limits.remainingDailyVideos : Infinity;
    const bytesLeft = typeof limits.remainingDailyBytes === 'number' ? limits.remainingDailyBytes : Infinity;
    if (limits.canUpload !== true || videosLeft < 1 || bytesLeft < video.size) {
      throw mapBlueskyFailure({ kind: 'upload_limits', limits, videoBytes: video.size }, timeoutMs);
    }

    const pdsDid = `did:web:${encodeURIComponent(new URL(session.service).host)}`;
    const uploadToken = await serviceToken(session, pdsDid, 'com.atproto.repo.uploadBlob', ctx.signal);
    const data = await readMedia(ctx, video);
    const name = `${video.id.slice(0, 16)}.${VIDEO_TYPES[video.contentType]}`;
    const { status, body } = await xrpc(videoBase, 'app.bsky.video.uploadVideo', {
      method: 'POST', query: { did: session.did, name }, token: uploadToken, signal: ctx.signal,
      bytes: { data, contentType: video.contentType },
      // The same bytes sent again (a retried step) answer already_exists with the earlier job.
      accept: (_status, b) => isObject(b) && jobStatusOf(b).error === 'already_exists' && !!str(jobStatusOf(b).jobId),
    });
    const job = jobStatusOf(body);
    const jobId = str(job.jobId);
    if (job.error && job.error !== 'already_exists') {
      throw mapBlueskyFailure({ kind: 'video_job', error: str(job.error), failureCode: str(job.failureCode), message: str(job.message) }, uploadTimeoutMs);
    }
    if (!jobId) throw mapBlueskyFailure({ kind: 'malformed', status, what: 'a video job id' }, uploadTimeoutMs);
    const state: VideoState = { phase: 'video_processing', jobId, quote: quote ?? null, startedAt: new Date().toISOString() };
    return pollVideo(ctx, session, plan, state, job);
  }

  /** Finishes the post once the job completed; otherwise asks to be resumed later. */
  async function pollVideo(ctx: PublishContext, session: Session, plan: PostPlan, state: VideoState, job: Json): Promise<PublishStep> {
    if (job.state === 'JOB_STATE_COMPLETED' && isObject(job.blob)) {
      return { kind: 'done', outcome: await createPosts(session, plan, [videoEmbed(plan, job.blob)], state.quote ?? undefined, ctx.signal) };
    }
    if (job.state === 'JOB_STATE_FAILED') {
      throw mapBlueskyFailure({ kind: 'video_job', error: str(job.error), failureCode: str(job.failureCode), message: str(job.message) }, timeoutMs);
    }
    const waitedMs = Date.now() - Date.parse(state.startedAt);
    if (waitedMs > videoMaxProcessingMs) throw mapBlueskyFailure({ kind: 'video_stalled', jobId: state.jobId, waitedMs }, timeoutMs);
    return { kind: 'wait', afterMs: videoPollMs, state: { ...state } };
  }

  async function publish(ctx: PublishContext, post: PublishPost): Promise<PublishStep> {
    const session = sessionOf(ctx.credentials);
    const p = plan(post);
    // Resolved first: a quote of a missing post fails before any media is uploaded.
    const quote = p.quote ? await resolveQuote(session, p.quote, ctx.signal) : undefined;
    if (p.video) return startVideo(ctx, session, p, quote);
    const embeds = p.images.length ? await uploadImages(ctx, session, p) : [];
    return { kind: 'done', outcome: await createPosts(session, p, embeds, quote, ctx.signal) };
  }

  async function resume(ctx: PublishContext, post: PublishPost, raw: Record<string, unknown>): Promise<PublishStep> {
    const session = sessionOf(ctx.credentials);
    if (raw.phase !== 'video_processing' || typeof raw.jobId !== 'string') {
      throw new PlatformError('bluesky', { kind: 'rejected', code: 'invalid_state' }, 'Cannot resume this Bluesky publish: its saved state is not a video job.');
    }
    const state = raw as unknown as VideoState;
    const { body } = await xrpc(videoBase, 'app.bsky.video.getJobStatus', { method: 'GET', query: { jobId: state.jobId }, signal: ctx.signal });
    return pollVideo(ctx, session, plan(post), state, jobStatusOf(body));
  }

  const firstCommenter: Comments = {
    async create(ctx, { post, text }) {
      if (!post.id) return { warnings: ['The Bluesky first comment was skipped: the post id is not known yet.'] };
      const session = sessionOf(ctx.credentials);
      checkText(text, false);
      const extra = post.extra ?? {};
      const rootRef = parsePostRef(post.id);
      if (!rootRef) throw invalid('invalid_post_id', `The Bluesky post id ${post.id} is not an at:// post URI.`);
      const root: StrongRef = typeof extra.cid === 'string' ? { uri: post.id, cid: extra.cid } : await resolveQuote(session, rootRef, ctx.signal);
      // On a gallery thread the comment follows the last post, as a reply in the same thread.
      const thread = Array.isArray(extra.thread) ? extra.thread.filter((t): t is StrongRef => isObject(t) && typeof t.uri === 'string' && typeof t.cid === 'string') : [];
      const parent = thread.length ? { uri: thread[thread.length - 1]!.uri, cid: thread[thread.length - 1]!.cid } : root;
      const reply = await postRecord(session, { langs: [], labels: [] }, text, undefined, { root, parent }, ctx.signal);
      return { comment: { id: reply.uri, post } };
    },
  };

  return {
    descriptor: blueskyDescriptor,
    credentials: { verify },
    refresher: { refresh },
    publisher: { publish, resume },
    comments: firstCommenter,
  };
}
