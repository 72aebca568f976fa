/**
 * X through the API v2 for a user who connected with OAuth 2 Authorization Code + PKCE
 * (docs.x.com/resources/fundamentals/authentication/oauth-2-0/authorization-code): authorize on
 * x.com, token and refresh (rotating) on api.x.com/2/oauth2/token, identity from /2/users/me.
 * Publishing: chunked media upload v2 (/2/media/upload/initialize → /{id}/append → /{id}/finalize,
 * then GET /2/media/upload?command=STATUS while X processes), alt text with POST /2/media/metadata,
 * and POST /2/tweets, one call per tweet of a thread.
 */
import { PlatformError, type PlatformFailure } from '../../../core/domain/errors';
import type { MediaRef } from '../../../core/domain/media';
import type { SettingViolation, SettingsSchema } from '../../../core/domain/settings';
import type {
  AccountIdentity, PlatformAdapter, PlatformCredentials, PlatformDescriptor, PublishContext, PublishOutcome, PublishPost,
  PublishStep, VerifiedConnection,
} from '../../../core/ports/platform';
import type { CallContext } from '../../../core/ports/platform';
import { exchangeJson, isObject, type HttpExchange, type Json } from '../kit/http';

export const X_API_BASE = 'https://api.x.com';
export const X_AUTH_BASE = 'https://x.com';
/** offline.access is what makes X hand out a refresh token; media.write is needed by the v2 upload. */
export const X_SCOPES: readonly string[] = ['tweet.read', 'tweet.write', 'users.read', 'media.write', 'offline.access'];

const DEFAULT_TIMEOUT_MS = 30_000;
/** X takes append segments up to 5 MB; 4 MiB leaves room for the multipart envelope. */
const MAX_SEGMENT_BYTES = 5 * 1024 * 1024;
const DEFAULT_CHUNK_BYTES = 4 * 1024 * 1024;
const TWEET_MAX_WEIGHT = 280;
/** The longest single post X accepts (Premium); threads have no overall cap, so this bounds the text too. */
const LONG_POST_MAX_WEIGHT = 25_000;
const ALT_TEXT_MAX = 1000;
const IMAGES_PER_TWEET = 4;
const STILL_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
const GIF_MAX_BYTES = 15 * 1024 * 1024;
/** A tweet of a half-posted thread is retried in place this many times before the rest is given up. */
const THREAD_RETRY_LIMIT = 3;
const THREAD_BACKOFF_MS = 5_000;
const THREAD_MAX_WAIT_MS = 15 * 60_000;

export interface XPlatformOptions {
  /** Default https://api.x.com (API, token endpoint, media upload); a simulator's origin in tests. */
  apiBase?: string;
  /** Default https://x.com, where the authorize page lives. */
  authBase?: string;
  clientId: string;
  /** Confidential client: token calls authenticate with HTTP Basic. Omit for a public client. */
  clientSecret?: string;
  /** X shows links in posts only on paid add-ons: by default they are stripped (with a warning). */
  keepLinks?: boolean;
  /** Append segment size in bytes (default 4 MiB, at most 5 MiB). */
  chunkBytes?: number;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

// ---------------------------------------------------------------------------------------------
// Settings: the X fields of the spec on each endpoint. `x_title` and `x_first_comment` are not
// here: the engine folds `<platform>_title` into the post text and `<platform>_first_comment`
// into the first comment for every network.

const ALL = ['video', 'photo', 'text'] as const;
const MEDIA = ['video', 'photo'] as const;
const NUMERIC_ID = /^[0-9]{1,19}$/;
const isGif = (m: MediaRef) => m.contentType === 'image/gif';

function checkXSettings(values: Record<string, unknown>, ctx: { mediaCount: number }): SettingViolation[] {
  const violations: SettingViolation[] = [];
  const list = (name: string) => (Array.isArray(values[name]) ? (values[name] as string[]) : []);
  for (const name of ['reply_to_id', 'quote_tweet_id', 'community_id']) {
    const value = values[name];
    if (typeof value === 'string' && !NUMERIC_ID.test(value)) violations.push({ field: name, message: `${name} must be a numeric X id` });
  }
  for (const name of ['tagged_user_ids', 'exclude_reply_user_ids']) {
    const bad = list(name).filter((id) => !NUMERIC_ID.test(id));
    if (bad.length) violations.push({ field: name, message: `${name} must hold numeric X user ids; not ${bad.join(', ')}` });
  }
  if (list('exclude_reply_user_ids').length && values.reply_to_id === undefined) {
    violations.push({ field: 'exclude_reply_user_ids', message: 'exclude_reply_user_ids requires reply_to_id' });
  }
  if (values.quote_tweet_id !== undefined && ctx.mediaCount > 0) {
    violations.push({ field: 'quote_tweet_id', message: 'quote_tweet_id cannot be combined with media' });
  }
  if (values.share_with_followers === true && values.community_id === undefined) {
    violations.push({ field: 'share_with_followers', message: 'share_with_followers requires community_id' });
  }
  if (typeof values.direct_message_deep_link === 'string') {
    const link = URL.canParse(values.direct_message_deep_link) ? new URL(values.direct_message_deep_link) : undefined;
    if (!link || !['twitter.com', 'x.com'].includes(link.hostname.replace(/^www\./, '')) || !link.pathname.startsWith('/messages/compose')) {
      violations.push({ field: 'direct_message_deep_link', message: 'direct_message_deep_link must be an X DM link (https://x.com/messages/compose?recipient_id=…)' });
    }
  }
  const layout = values.x_thread_image_layout;
  if (Array.isArray(layout)) {
    const counts = layout.map((item) => (/^[0-4]$/.test(String(item)) ? Number(item) : NaN));
    if (counts.some(Number.isNaN)) {
      violations.push({ field: 'x_thread_image_layout', message: 'x_thread_image_layout takes a comma list of numbers 0-4' });
    } else if (counts.reduce((a, b) => a + b, 0) !== ctx.mediaCount) {
      violations.push({ field: 'x_thread_image_layout', message: `x_thread_image_layout adds up to ${counts.reduce((a, b) => a + b, 0)} images, but ${ctx.mediaCount} were sent` });
    }
  }
  const alts = list('x_alt_text');
  const tooLong = alts.findIndex((alt) => [...alt].length > ALT_TEXT_MAX);
  if (tooLong >= 0) violations.push({ field: 'x_alt_text', message: `x_alt_text is at most ${ALT_TEXT_MAX} characters per image (item ${tooLong + 1} is longer)` });
  if (alts.length > ctx.mediaCount) violations.push({ field: 'x_alt_text', message: `x_alt_text has ${alts.length} items for ${ctx.mediaCount} images` });
  return violations;
}

export const xSettings: SettingsSchema = {
  fields: [
    { name: 'x_long_text_as_post', type: 'boolean', endpoints: ALL, default: false, description: 'Post a long text as one (Premium) post instead of a thread.' },
    { name: 'x_article_title', type: 'string', endpoints: ['text'], maxLength: 100, description: 'Publish the text as a long-form X Article with this title (Premium accounts).' },
    { name: 'x_article_draft', type: 'boolean', endpoints: ['text'], description: 'With x_article_title: save the Article as a draft instead of publishing it.' },
    { name: 'x_thread_image_layout', type: 'string_list', endpoints: ['photo'], separator: ',', description: 'Images per tweet of the thread, e.g. 2,0,2 (0 = text-only tweet); must add up to the number of images.' },
    { name: 'reply_settings', type: 'string', endpoints: ALL, oneOf: ['following', 'mentionedUsers', 'subscribers', 'verified'] },
    { name: 'geo_place_id', type: 'string', endpoints: ALL },
    { name: 'nullcast', type: 'boolean', endpoints: ALL, default: false, description: 'Promoted-only post: not shown on the timeline.' },
    // The spec maps is_ai_generated to made_with_ai on x; the x field wins when both are sent.
    { name: 'made_with_ai', aliases: ['is_ai_generated'], type: 'boolean', endpoints: ALL, default: false },
    { name: 'for_super_followers_only', type: 'boolean', endpoints: ALL, default: false },
    { name: 'community_id', type: 'string', endpoints: ALL },
    { name: 'share_with_followers', type: 'boolean', endpoints: ALL, default: false },
    { name: 'direct_message_deep_link', type: 'url', endpoints: ALL },
    { name: 'tagged_user_ids', type: 'string_list', endpoints: MEDIA, maxLength: 10 },
    { name: 'reply_to_id', type: 'string', endpoints: ALL },
    { name: 'exclude_reply_user_ids', type: 'string_list', endpoints: ALL },
    // Alt texts contain commas, so items are separated by `||` (or sent as a JSON array / repeated field).
    { name: 'x_alt_text', type: 'string_list', endpoints: ['photo'], separator: '||' },
    // The spec lists it on photos; X takes it on any post, so video and text posts may carry it too.
    { name: 'x_paid_partnership', type: 'boolean', endpoints: ALL, default: false },
    { name: 'quote_tweet_id', type: 'string', endpoints: ALL },
  ],
  check: (values, ctx) => checkXSettings(values, ctx),
};

export const xDescriptor: PlatformDescriptor = {
  id: 'x',
  displayName: 'X',
  connect: 'oauth',
  endpoints: ['video', 'photo', 'text'],
  limits: {
    // Per tweet X allows 280 weighted characters, but longer texts become threads (or one Premium post).
    textMaxChars: LONG_POST_MAX_WEIGHT,
    video: { maxBytes: 8 * 1024 ** 3, minSeconds: 0.5, maxSeconds: 20 * 60, containers: ['mov,mp4,m4a,3gp,3g2,mj2'], maxFps: 60 },
    // GIFs may reach 15 MB; still images are held to 5 MB by the publisher.
    photo: { maxBytes: GIF_MAX_BYTES, contentTypes: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] },
  },
  settings: xSettings,
  rules: { dailyCap: 50 },
};

// ---------------------------------------------------------------------------------------------
// Text: X's weighted counting (twitter-text v3: most scripts 1, CJK and emoji 2, links 23),
// link stripping and thread splitting.

const LIGHT_RANGES: ReadonlyArray<readonly [number, number]> = [[0, 4351], [8192, 8205], [8208, 8223], [8242, 8247]];
const LINK_WEIGHT = 23;
const TLDS = 'com|net|org|io|co|me|app|dev|ly|gg|tv|ai|xyz|info|biz|edu|gov|us|uk|de|fr|es|it|nl|ca|au|jp|in|br|ch|se|eu|news|blog|site|online|shop|store|tech|link|page|live';
/** What X turns into a link: scheme URLs, www. hosts and bare domains with a common TLD. */
const LINK_PATTERN = new RegExp(
  String.raw`(?<![\w@./-])(?:https?:\/\/[^\s<>"]+|www\.[^\s<>"]+|(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+(?:${TLDS})(?![\w-])(?:[/?#][^\s<>"]*)?)`,
  'giu',
);
const TRAILING_PUNCTUATION = /[.,;:!?'")\]}]+$/u;
const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

function linkSpans(text: string): Array<[number, number]> {
  return [...text.matchAll(LINK_PATTERN)].map((m) => [m.index, m.index + m[0].replace(TRAILING_PUNCTUATION, '').length]);
}

function plainWeight(text: string): number {
  let weight = 0;
  for (const { segment } of segmenter.segment(text)) {
    if (segment.codePointAt(0)! > 0xff && /\p{Extended_Pictographic}/u.test(segment)) {
      weight += 2;
      continue;
    }
    for (const char of segment) {
      const cp = char.codePointAt(0)!;
      weight += LIGHT_RANGES.some(([from, to]) => cp >= from && cp <= to) ? 1 : 2;
    }
  }
  return weight;
}

/** The length X counts for a post text. */
export function xWeightedLength(text: string): number {
  const normalized = text.normalize('NFC');
  let weight = 0;
  let at = 0;
  for (const [start, end] of linkSpans(normalized)) {
    weight += plainWeight(normalized.slice(at, start)) + LINK_WEIGHT;
    at = end;
  }
  return weight + plainWeight(normalized.slice(at));
}

/** Removes links line by line; a line that held only links goes with them, so paragraphs stay as they were. */
export function stripLinks(text: string): { text: string; removed: number } {
  let removed = 0;
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    const spans = linkSpans(line);
    if (!spans.length) {
      lines.push(line);
      continue;
    }
    removed += spans.length;
    let out = line;
    for (const [start, end] of spans.reverse()) {
      // Take one neighbouring space with the link so no double space is left behind.
      const from = start > 0 && out[start - 1] === ' ' ? start - 1 : start;
      const to = from === start && out[end] === ' ' ? end + 1 : end;
      out = out.slice(0, from) + out.slice(to);
    }
    if (out.trim() !== '') lines.push(out.trimEnd());
  }
  return { text: lines.join('\n').trim(), removed };
}

/** Greedy packing of items joined by `sep`; an item too long on its own is cut by `split`. */
function pack(items: string[], sep: string, fits: (s: string) => boolean, split: (item: string) => string[]): string[] {
  const out: string[] = [];
  let current = '';
  for (const item of items) {
    if (current && fits(`${current}${sep}${item}`)) {
      current = `${current}${sep}${item}`;
      continue;
    }
    if (current) out.push(current);
    if (fits(item)) {
      current = item;
      continue;
    }
    const pieces = split(item);
    out.push(...pieces.slice(0, -1));
    current = pieces[pieces.length - 1] ?? '';
  }
  if (current) out.push(current);
  return out;
}

/**
 * The spec's thread rule: blank-line-separated paragraphs are grouped up to 280 weighted
 * characters per tweet; an over-long paragraph is split by line break, then by word (and a single
 * over-long word by character).
 */
export function splitIntoThread(text: string, limit = TWEET_MAX_WEIGHT): string[] {
  const fits = (s: string) => xWeightedLength(s) <= limit;
  const byCharacter = (word: string) => pack([...segmenter.segment(word)].map((s) => s.segment), '', fits, (g) => [g]);
  const byWord = (line: string) => pack(line.split(/ +/).filter(Boolean), ' ', fits, byCharacter);
  const byLine = (paragraph: string) => pack(paragraph.split('\n').map((l) => l.trimEnd()).filter((l) => l.trim()), '\n', fits, byWord);
  const paragraphs = text.split(/\n[ \t]*\n\s*/).map((p) => p.trim()).filter(Boolean);
  return pack(paragraphs, '\n\n', fits, byLine);
}

// ---------------------------------------------------------------------------------------------
// Failures

/** What came back from X, before it is given a meaning. */
export type XOutcome =
  | HttpExchange
  /** A 2xx whose body is not what the call returns. */
  | { kind: 'malformed'; status: number; what: string }
  /** Media processing ended in `failed` (STATUS or FINALIZE `processing_info.error`). */
  | { kind: 'processing_failed'; mediaId: string; error: { code?: number; name?: string; message?: string } };

export interface XFailureContext {
  timeoutMs: number;
  /** Token endpoint calls: OAuth error bodies mean different things for a code and for a refresh. */
  during?: 'code_exchange' | 'token_refresh';
}

const str = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);

/** X's rate-limit headers give the reset as epoch seconds; the 24-hour user cap has its own. */
function retryAfterMs(headers: Headers): number {
  const epoch = (name: string) => Number.parseInt(headers.get(name) ?? '', 10);
  const dailyExhausted = headers.get('x-user-limit-24hour-remaining') === '0' && Number.isFinite(epoch('x-user-limit-24hour-reset'));
  const reset = dailyExhausted ? epoch('x-user-limit-24hour-reset') : epoch('x-rate-limit-reset');
  if (Number.isFinite(reset)) return Math.max(1000, reset * 1000 - Date.now());
  const seconds = Number.parseFloat(headers.get('retry-after') ?? '');
  return Number.isFinite(seconds) && seconds >= 0 ? Math.max(1000, Math.ceil(seconds * 1000)) : 60_000;
}

/** `https://api.twitter.com/2/problems/usage-capped` → `usage-capped`; about:blank has no slug. */
const problemSlug = (type: string | undefined) => (type && type !== 'about:blank' ? type.split('/').pop() : undefined);

/**
 * The one place X's answers get a meaning in the core taxonomy: by HTTP status, the problem
 * `type` and the OAuth `error` code. Bodies come as a problem `{title, detail, type, status}`,
 * as `{errors:[…], title, detail, type}`, or (token endpoint) as `{error, error_description}`.
 */
export function mapXFailure(outcome: XOutcome, ctx: XFailureContext): PlatformError {
  const fail = (failure: PlatformFailure, message: string, upstream: PlatformError['upstream'] = {}) =>
    new PlatformError('x', failure, message, upstream);

  if (outcome.kind === 'no_response') {
    const what = outcome.reason === 'timeout' ? `X did not answer within ${ctx.timeoutMs} ms`
      : outcome.reason === 'aborted' ? 'The request to X was cancelled before it answered'
      : `The connection to X failed${outcome.detail ? ` (${outcome.detail})` : ''}`;
    return fail({ kind: 'transient' }, `${what}; the outcome is unknown: the request may or may not have taken effect.`);
  }
  if (outcome.kind === 'malformed') {
    // X may have acted on the request: retrying could post twice, so this is not transient.
    return fail({ kind: 'rejected', code: 'unexpected_response' },
      `X answered HTTP ${outcome.status} without ${outcome.what}; check the account before retrying.`, { status: outcome.status });
  }
  if (outcome.kind === 'processing_failed') {
    const { error } = outcome;
    return fail({ kind: 'invalid_content', code: 'media_processing_failed' },
      `X could not process media ${outcome.mediaId}: ${error.message ?? error.name ?? 'processing failed'}.`, { code: error.name ?? error.code });
  }

  const { status, headers } = outcome;
  const body = isObject(outcome.body) ? outcome.body : {};
  const firstError = Array.isArray(body.errors) && isObject(body.errors[0]) ? body.errors[0] : {};
  const oauthError = str(body.error);
  const type = str(body.type) ?? str(firstError.type);
  const slug = problemSlug(type);
  const detail = str(body.detail) ?? str(firstError.detail) ?? str(firstError.message) ?? str(body.error_description) ?? str(body.title);
  const said = `X: ${detail ?? `HTTP ${status}`}`;
  const upstream = { status, code: oauthError ?? slug };

  if (status === 429) {
    const capped = slug === 'usage-capped' ? ' (the app reached its X usage cap)' : '';
    return fail({ kind: 'rate_limited', retryAfterMs: retryAfterMs(headers) }, `${said}${capped}`, upstream);
  }
  if (status >= 500) return fail({ kind: 'transient' }, `X is failing (HTTP ${status}); try again later.`, upstream);

  if (oauthError) {
    if (oauthError === 'unauthorized_client' || oauthError === 'invalid_client') {
      return fail({ kind: 'rejected', code: 'oauth_client_rejected' }, `${said}. Check Herald's X client id and secret.`, upstream);
    }
    if (ctx.during === 'token_refresh') {
      return fail({ kind: 'auth_expired', reason: 'refresh_token_invalid' },
        `${said}. X no longer accepts the refresh token; reconnect the account.`, upstream);
    }
    return fail({ kind: 'rejected', code: 'oauth_code_rejected' }, `${said}. Start the connection again.`, upstream);
  }
  if (status === 401) {
    return fail({ kind: 'auth_expired', reason: 'token_expired' }, `${said}. X refused the access token (expired or revoked).`, upstream);
  }
  if (status === 403) {
    // X answers duplicates with type about:blank: only then is the detail the sole signal there is.
    const duplicate = slug === 'duplicate-content' || (!slug && /duplicate content/i.test(detail ?? ''));
    if (duplicate) return fail({ kind: 'rejected', code: 'duplicate_content' }, `${said} X refuses to post the same text twice.`, upstream);
    return fail({ kind: 'rejected', code: slug?.replace(/-/g, '_') }, said, upstream);
  }
  if (status === 413) return fail({ kind: 'invalid_content', code: 'payload_too_large' }, said, upstream);
  if (status === 400 || status === 422) return fail({ kind: 'invalid_content' }, said, upstream);
  return fail({ kind: 'rejected', code: slug?.replace(/-/g, '_') }, said, upstream);
}

// ---------------------------------------------------------------------------------------------
// Publishing plan and state

interface PlannedTweet {
  text: string;
  /** Indexes into post.media. */
  media: number[];
}

/** The JSON that crosses the workflow between steps. */
interface XPublishState {
  v: 1;
  tweets: PlannedTweet[];
  /** X media id per post.media index. */
  mediaIds: string[];
  /** post.media indexes X is still processing. */
  processing: number[];
  /** Tweet ids posted so far, in thread order. */
  posted: string[];
  /** Failed attempts on the next tweet once the thread is partly live. */
  attempts: number;
  warnings: string[];
}

function isPublishState(value: Record<string, unknown>): value is Record<string, unknown> & XPublishState {
  return value.v === 1 && Array.isArray(value.tweets) && Array.isArray(value.mediaIds) && Array.isArray(value.processing)
    && Array.isArray(value.posted) && typeof value.attempts === 'number' && Array.isArray(value.warnings);
}

const invalid = (code: string, message: string) => new PlatformError('x', { kind: 'invalid_content', code }, message);

function checkMedia(post: PublishPost): void {
  const { kind, media } = post;
  if (kind === 'text') {
    if (media.length) throw invalid('unsupported_media', 'An X text post carries no media.');
    return;
  }
  if (kind === 'video') {
    const [video] = media;
    if (media.length !== 1 || video?.kind !== 'video') throw invalid('unsupported_media', 'An X video post carries exactly one video.');
    const limits = xDescriptor.limits.video!;
    const info = video.info;
    if (!['video/mp4', 'video/quicktime'].includes(video.contentType)) throw invalid('video_format', `X takes MP4 or MOV videos, not ${video.contentType}.`);
    if (video.size > limits.maxBytes!) throw invalid('video_too_large', `X videos are at most 8 GB; this one has ${video.size} bytes.`);
    if (info?.container && !limits.containers!.includes(info.container)) throw invalid('video_format', `X takes MP4 or MOV videos; this one is ${info.container}.`);
    if (info?.durationSeconds != null && info.durationSeconds > limits.maxSeconds!) {
      throw invalid('video_too_long', `X videos are at most ${limits.maxSeconds! / 60} minutes; this one lasts ${Math.round(info.durationSeconds)} s.`);
    }
    if (info?.durationSeconds != null && info.durationSeconds < limits.minSeconds!) throw invalid('video_too_short', 'X videos last at least 0.5 s.');
    if (info?.frameRate != null && info.frameRate > limits.maxFps!) throw invalid('video_format', `X videos are at most 60 fps; this one has ${info.frameRate}.`);
    return;
  }
  if (!media.length) throw invalid('media_missing', 'An X photo post needs at least one image.');
  const types = xDescriptor.limits.photo!.contentTypes!;
  media.forEach((image, i) => {
    if (image.kind !== 'image') throw invalid('unsupported_media', 'X does not take videos on the photo endpoint; publish the video on its own.');
    if (!types.includes(image.contentType)) throw invalid('photo_format', `Image ${i + 1} is ${image.contentType}; X takes ${types.join(', ')}.`);
    const max = isGif(image) ? GIF_MAX_BYTES : STILL_IMAGE_MAX_BYTES;
    if (image.size > max) throw invalid('photo_too_large', `Image ${i + 1} has ${image.size} bytes; X takes at most ${max / 1024 / 1024} MB.`);
  });
}

/** Which images go in which tweet: the layout setting, else groups of 4 with every GIF on its own. */
function imageGroups(media: MediaRef[], layout: unknown): number[][] {
  if (Array.isArray(layout)) {
    let next = 0;
    const groups = layout.map((n) => Array.from({ length: Number(n) }, () => next++));
    const badGroup = groups.findIndex((g) => g.length > 1 && g.some((i) => isGif(media[i]!)));
    if (badGroup >= 0) throw invalid('photo_layout', `x_thread_image_layout puts a GIF together with other images in tweet ${badGroup + 1}; X shows a GIF alone.`);
    return groups;
  }
  const groups: number[][] = [];
  let current: number[] = [];
  media.forEach((image, i) => {
    if (isGif(image)) {
      if (current.length) groups.push(current);
      groups.push([i]);
      current = [];
      return;
    }
    current.push(i);
    if (current.length === IMAGES_PER_TWEET) {
      groups.push(current);
      current = [];
    }
  });
  if (current.length) groups.push(current);
  return groups;
}

/** Turns the post into the tweets of the thread; throws invalid_content for what X would refuse. */
function planThread(post: PublishPost, keepLinks: boolean): { tweets: PlannedTweet[]; warnings: string[] } {
  const violations = checkXSettings(post.settings, { mediaCount: post.media.length });
  if (violations.length) throw invalid('invalid_settings', violations.map((v) => v.message).join('; '));
  checkMedia(post);

  const warnings: string[] = [];
  let text = post.title.trim();
  if (!keepLinks) {
    const stripped = stripLinks(text);
    if (stripped.removed) warnings.push(`${stripped.removed} link(s) were removed from the X post text: X shows links only on accounts with the link add-on.`);
    text = stripped.text;
  }
  let parts: string[];
  // The descriptor's limit holds for a thread too: beyond it, nothing is sent (a 90-tweet thread is no answer).
  const weight = xWeightedLength(text);
  if (weight > LONG_POST_MAX_WEIGHT) {
    throw invalid('text_too_long', `X takes at most ${LONG_POST_MAX_WEIGHT} characters of text (as one long post with x_long_text_as_post, or as a thread); this text counts ${weight}.`);
  }
  if (post.settings.x_long_text_as_post === true) {
    parts = text ? [text] : [];
  } else {
    parts = splitIntoThread(text);
  }

  const groups = post.kind === 'photo' ? imageGroups(post.media, post.settings.x_thread_image_layout) : post.kind === 'video' ? [[0]] : [];
  const count = Math.max(parts.length, groups.length);
  if (count === 0) throw invalid('text_empty', post.title.trim() ? 'The X post text is empty once its links are removed.' : 'The X post has no text.');
  const tweets = Array.from({ length: count }, (_, i) => ({ text: parts[i] ?? '', media: groups[i] ?? [] }));
  const empty = tweets.findIndex((t) => !t.text && !t.media.length);
  if (empty >= 0) throw invalid('photo_layout', `Tweet ${empty + 1} of the thread would have neither text nor images: x_thread_image_layout has more text-only tweets than the text has parts.`);
  return { tweets, warnings };
}

const ids = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

/**
 * The POST /2/tweets body of tweet `index`. Conversation-level choices (reply target, quote,
 * community, place, DM link) go on the first tweet; labels and audience choices on every tweet,
 * so no part of a thread is less restricted or less labelled than its start.
 */
function tweetBody(state: XPublishState, index: number, settings: Record<string, unknown>): Json {
  const tweet = state.tweets[index]!;
  const body: Json = {};
  if (tweet.text) body.text = tweet.text;
  if (tweet.media.length) {
    body.media = { media_ids: tweet.media.map((i) => state.mediaIds[i]!) };
    const tagged = ids(settings.tagged_user_ids);
    if (tagged.length) (body.media as Json).tagged_user_ids = tagged;
  }
  if (index > 0) {
    body.reply = { in_reply_to_tweet_id: state.posted[index - 1]! };
  } else {
    if (typeof settings.reply_to_id === 'string') {
      const exclude = ids(settings.exclude_reply_user_ids);
      body.reply = { in_reply_to_tweet_id: settings.reply_to_id, ...(exclude.length ? { exclude_reply_user_ids: exclude } : {}) };
    }
    if (typeof settings.quote_tweet_id === 'string') body.quote_tweet_id = settings.quote_tweet_id;
    if (typeof settings.community_id === 'string') body.community_id = settings.community_id;
    if (settings.share_with_followers === true) body.share_with_followers = true;
    if (typeof settings.geo_place_id === 'string') body.geo = { place_id: settings.geo_place_id };
    if (typeof settings.direct_message_deep_link === 'string') body.direct_message_deep_link = settings.direct_message_deep_link;
  }
  if (typeof settings.reply_settings === 'string') body.reply_settings = settings.reply_settings;
  if (settings.for_super_followers_only === true) body.for_super_followers_only = true;
  if (settings.nullcast === true) body.nullcast = true;
  if (settings.made_with_ai === true) body.made_with_ai = true;
  if (settings.x_paid_partnership === true) body.paid_partnership = true;
  return body;
}

const mediaCategory = (m: MediaRef) => (m.kind === 'video' ? 'tweet_video' : isGif(m) ? 'tweet_gif' : 'tweet_image');

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts);
}

interface ProcessingInfo { state: string; checkAfterSecs: number; error?: Json }

function processingOf(data: Json): ProcessingInfo | undefined {
  const info = isObject(data.processing_info) ? data.processing_info : undefined;
  if (!info || typeof info.state !== 'string') return undefined;
  const after = typeof info.check_after_secs === 'number' && info.check_after_secs > 0 ? info.check_after_secs : 1;
  return { state: info.state, checkAfterSecs: after, error: isObject(info.error) ? info.error : undefined };
}

// ---------------------------------------------------------------------------------------------

export function createXPlatform(opts: XPlatformOptions): PlatformAdapter {
  const apiBase = (opts.apiBase ?? X_API_BASE).replace(/\/+$/, '');
  const authBase = (opts.authBase ?? X_AUTH_BASE).replace(/\/+$/, '');
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const doFetch = opts.fetch ?? fetch;
  const keepLinks = opts.keepLinks ?? false;
  const chunkBytes = opts.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  if (!Number.isInteger(chunkBytes) || chunkBytes < 1 || chunkBytes > MAX_SEGMENT_BYTES) {
    throw new Error(`chunkBytes must be a whole number of bytes between 1 and ${MAX_SEGMENT_BYTES}`);
  }
  const failure = (outcome: XOutcome, during?: XFailureContext['during']) => mapXFailure(outcome, { timeoutMs, during });

  /** One API call with the user's token; every failure leaves as a PlatformError from mapXFailure. */
  async function api(
    token: string, method: 'GET' | 'POST', path: string,
    init: { query?: Record<string, string>; json?: unknown; form?: FormData; signal?: AbortSignal } = {},
  ): Promise<{ status: number; body: Json }> {
    const query = init.query ? `?${new URLSearchParams(init.query)}` : '';
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
    if (init.json !== undefined) headers['content-type'] = 'application/json';
    const outcome = await exchangeJson(`${apiBase}${path}${query}`, {
      method, headers, body: init.json !== undefined ? JSON.stringify(init.json) : init.form,
    }, { fetch: doFetch, timeoutMs, signal: init.signal });
    if (outcome.kind === 'no_response' || outcome.status < 200 || outcome.status >= 300) throw failure(outcome);
    return { status: outcome.status, body: isObject(outcome.body) ? outcome.body : {} };
  }

  /** The `data` object of a 2xx answer, or a malformed-answer failure naming what was missing. */
  async function apiData(token: string, method: 'GET' | 'POST', path: string, what: string, init?: Parameters<typeof api>[3]): Promise<Json> {
    const { status, body } = await api(token, method, path, init);
    if (!isObject(body.data)) throw failure({ kind: 'malformed', status, what });
    return body.data;
  }

  async function tokenRequest(params: Record<string, string>, during: 'code_exchange' | 'token_refresh'): Promise<Json> {
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    if (opts.clientSecret !== undefined) {
      headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(opts.clientId)}:${encodeURIComponent(opts.clientSecret)}`).toString('base64')}`;
    }
    const outcome = await exchangeJson(`${apiBase}/2/oauth2/token`, {
      method: 'POST', headers, body: new URLSearchParams({ ...params, client_id: opts.clientId }).toString(),
    }, { fetch: doFetch, timeoutMs });
    if (outcome.kind === 'no_response' || outcome.status < 200 || outcome.status >= 300) throw failure(outcome, during);
    const body = isObject(outcome.body) ? outcome.body : {};
    if (!str(body.access_token)) throw failure({ kind: 'malformed', status: outcome.status, what: 'an access token' }, during);
    return body;
  }

  const tokenCredentials = (tokens: Json, previousRefresh = ''): PlatformCredentials => ({
    access_token: String(tokens.access_token),
    // X rotates the refresh token on every refresh: the old one stops working, so the new one is kept.
    refresh_token: str(tokens.refresh_token) ?? previousRefresh,
    expires_at: new Date(Date.now() + (typeof tokens.expires_in === 'number' ? tokens.expires_in : 7200) * 1000).toISOString(),
    scope: str(tokens.scope) ?? X_SCOPES.join(' '),
  });

  function accessToken(ctx: CallContext): string {
    const token = ctx.credentials.access_token;
    if (!token) throw new PlatformError('x', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored X credentials are incomplete; reconnect the account.');
    return token;
  }

  async function readIdentity(token: string): Promise<AccountIdentity> {
    const user = await apiData(token, 'GET', '/2/users/me', 'the user', { query: { 'user.fields': 'profile_image_url,username,name' } });
    if (!str(user.id) || !str(user.username)) throw failure({ kind: 'malformed', status: 200, what: 'the user id and username' });
    return {
      platformUserId: String(user.id),
      handle: String(user.username),
      displayName: str(user.name) ?? String(user.username),
      avatarUrl: str(user.profile_image_url) ?? '',
    };
  }

  /** initialize → append (segments of chunkBytes) → finalize; alt text right after for images. */
  async function uploadMedia(ctx: PublishContext, token: string, ref: MediaRef, altText: string | undefined): Promise<{ id: string; processing?: ProcessingInfo }> {
    const init = await apiData(token, 'POST', '/2/media/upload/initialize', 'the media id', {
      json: { media_type: ref.contentType, total_bytes: ref.size, media_category: mediaCategory(ref) }, signal: ctx.signal,
    });
    const id = str(init.id);
    if (!id) throw failure({ kind: 'malformed', status: 200, what: 'the media id' });
    for (let segment = 0, start = 0; start < ref.size; segment += 1, start += chunkBytes) {
      const bytes = await collect(ctx.media.read(ref.id, { start, end: Math.min(ref.size, start + chunkBytes) }));
      const form = new FormData();
      form.append('segment_index', String(segment));
      form.append('media', new Blob([bytes], { type: 'application/octet-stream' }), 'blob');
      await api(token, 'POST', `/2/media/upload/${encodeURIComponent(id)}/append`, { form, signal: ctx.signal });
    }
    const finalized = await apiData(token, 'POST', `/2/media/upload/${encodeURIComponent(id)}/finalize`, 'the finalized media', { signal: ctx.signal });
    const processing = processingOf(finalized);
    if (processing?.state === 'failed') throw failure({ kind: 'processing_failed', mediaId: id, error: processing.error ?? {} });
    if (altText) {
      await api(token, 'POST', '/2/media/metadata', { json: { id, metadata: { alt_text: { text: altText } } }, signal: ctx.signal });
    }
    return { id, processing: processing && processing.state !== 'succeeded' ? processing : undefined };
  }

  async function createTweet(ctx: CallContext, token: string, body: Json): Promise<string> {
    const data = await apiData(token, 'POST', '/2/tweets', 'the created post', { json: body, signal: ctx.signal });
    const id = str(data.id);
    if (!id) throw failure({ kind: 'malformed', status: 201, what: 'the created post id' });
    return id;
  }

  const postUrl = (ctx: PublishContext, id: string) =>
    ctx.credentials.username ? `https://x.com/${ctx.credentials.username}/status/${id}` : `https://x.com/i/web/status/${id}`;

  function finished(ctx: PublishContext, state: XPublishState): PublishStep {
    const outcome: PublishOutcome = {
      postId: state.posted[0]!,
      url: postUrl(ctx, state.posted[0]!),
      warnings: state.warnings,
      // All ids of the thread: the first comment replies to the last one.
      extra: { post_ids: state.posted },
    };
    return { kind: 'done', outcome };
  }

  /**
   * Posts the remaining tweets. Once part of a thread is live a failure must not restart the
   * publish (it would post the first tweets again), so it becomes a `wait` that retries the same
   * tweet, or, when retrying cannot help, a finished post with a warning about the missing rest.
   */
  async function postThread(ctx: PublishContext, post: PublishPost, state: XPublishState): Promise<PublishStep> {
    const token = accessToken(ctx);
    const postedBefore = state.posted.length;
    while (state.posted.length < state.tweets.length) {
      try {
        state.posted.push(await createTweet(ctx, token, tweetBody(state, state.posted.length, post.settings)));
        state.attempts = 0;
      } catch (err) {
        if (!(err instanceof PlatformError) || state.posted.length === 0) throw err;
        if (err.failure.kind === 'auth_expired') {
          // The caller refreshes and repeats this very step with the state it started from: save
          // the tweets posted in this call first, so the repeat starts after them.
          if (state.posted.length > postedBefore) return { kind: 'wait', afterMs: 0, state: { ...state } };
          throw err;
        }
        const waitMs = err.failure.kind === 'rate_limited' ? err.failure.retryAfterMs
          : err.failure.kind === 'transient' ? THREAD_BACKOFF_MS * 2 ** state.attempts : undefined;
        if (waitMs !== undefined && waitMs <= THREAD_MAX_WAIT_MS && state.attempts < THREAD_RETRY_LIMIT) {
          return { kind: 'wait', afterMs: waitMs, state: { ...state, attempts: state.attempts + 1 } };
        }
        const missing = state.tweets.length - state.posted.length;
        state.warnings.push(`Only ${state.posted.length} of the ${state.tweets.length} posts of the X thread were published; the last ${missing} failed: ${err.message}`);
        return finished(ctx, state);
      }
    }
    return finished(ctx, state);
  }

  /** Polls STATUS for the media X is still processing; posts once all of it is ready. */
  async function continueProcessing(ctx: PublishContext, post: PublishPost, state: XPublishState): Promise<PublishStep> {
    const token = accessToken(ctx);
    let checkAfterSecs = 0;
    const still: number[] = [];
    for (const index of state.processing) {
      const mediaId = state.mediaIds[index]!;
      const data = await apiData(token, 'GET', '/2/media/upload', 'the media status', { query: { command: 'STATUS', media_id: mediaId }, signal: ctx.signal });
      const processing = processingOf(data);
      if (processing?.state === 'failed') throw failure({ kind: 'processing_failed', mediaId, error: processing.error ?? {} });
      if (processing && processing.state !== 'succeeded') {
        still.push(index);
        checkAfterSecs = Math.max(checkAfterSecs, processing.checkAfterSecs);
      }
    }
    state.processing = still;
    if (still.length) return { kind: 'wait', afterMs: checkAfterSecs * 1000, state: { ...state } };
    return postThread(ctx, post, state);
  }

  /**
   * Long-form X Articles (POST /2/articles/draft, then /2/articles/{id}/publish): paragraphs become
   * DraftJS text blocks; links stay (Articles show them). x_article_draft stops after the draft.
   */
  async function publishArticle(ctx: PublishContext, post: PublishPost): Promise<PublishOutcome> {
    const token = accessToken(ctx);
    const title = String(post.settings.x_article_title).trim();
    const paragraphs = post.title.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean);
    if (!title) throw invalid('article_title', 'x_article_title is empty.');
    if (!paragraphs.length) throw invalid('text_empty', 'The X Article has no text.');
    const blocks = paragraphs.map((text, i) => ({ key: `b${i}`, text, type: 'unstyled', entity_ranges: [], inline_style_ranges: [] }));
    const draft = await apiData(token, 'POST', '/2/articles/draft', 'the Article draft', { json: { title, content_state: { blocks, entities: [] } }, signal: ctx.signal });
    const articleId = typeof draft.id === 'string' ? draft.id : '';
    if (!articleId) throw invalid('unexpected_response', 'X answered the Article draft without an id.');
    if (post.settings.x_article_draft === true) {
      return { postId: articleId, warnings: ['The X Article was saved as a draft: publish it on X.'], extra: { x_article_id: articleId, x_article_status: 'draft' } };
    }
    const published = await apiData(token, 'POST', `/2/articles/${encodeURIComponent(articleId)}/publish`, 'the published Article', { signal: ctx.signal });
    const postId = typeof published.post_id === 'string' ? published.post_id : articleId;
    const handle = ctx.credentials.username;
    return {
      postId,
      ...(handle ? { url: `https://x.com/${handle}/status/${postId}` } : {}),
      warnings: [],
      extra: { x_article_id: articleId, x_article_status: 'published' },
    };
  }

  return {
    descriptor: xDescriptor,
    oauth: {
      pkce: true,
      authorizeUrl({ state, redirectUri, codeChallenge }) {
        if (!codeChallenge) throw new Error('X requires PKCE: authorizeUrl needs a code challenge (S256).');
        const params = new URLSearchParams({
          response_type: 'code',
          client_id: opts.clientId,
          redirect_uri: redirectUri,
          scope: X_SCOPES.join(' '),
          state,
          code_challenge: codeChallenge,
          code_challenge_method: 'S256',
        });
        return `${authBase}/i/oauth2/authorize?${params}`;
      },
      async exchangeCode({ code, redirectUri, codeVerifier }): Promise<VerifiedConnection> {
        if (!codeVerifier) throw new Error('X requires PKCE: exchangeCode needs the code verifier.');
        const tokens = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: codeVerifier }, 'code_exchange');
        const credentials = tokenCredentials(tokens);
        const identity = await readIdentity(credentials.access_token!);
        return { identity, credentials: { ...credentials, user_id: identity.platformUserId, username: identity.handle } };
      },
    },
    refresher: {
      async refresh(credentials) {
        if (!credentials.refresh_token) {
          throw new PlatformError('x', { kind: 'auth_expired', reason: 'refresh_token_missing' },
            'X gave no refresh token for this account (offline.access was not granted); reconnect it.');
        }
        const tokens = await tokenRequest({ grant_type: 'refresh_token', refresh_token: credentials.refresh_token }, 'token_refresh');
        return { ...credentials, ...tokenCredentials(tokens, credentials.refresh_token) };
      },
    },
    publisher: {
      async publish(ctx, post) {
        if (post.kind === 'text' && typeof post.settings.x_article_title === 'string') return { kind: 'done', outcome: await publishArticle(ctx, post) };
        const token = accessToken(ctx);
        const { tweets, warnings } = planThread(post, keepLinks);
        // X has no idempotency key on POST /2/tweets; ctx.idempotencyKey cannot be forwarded.
        const state: XPublishState = { v: 1, tweets, mediaIds: [], processing: [], posted: [], attempts: 0, warnings };
        const alts = post.kind === 'photo' ? ids(post.settings.x_alt_text) : [];
        let checkAfterSecs = 0;
        for (const [index, ref] of post.media.entries()) {
          const uploaded = await uploadMedia(ctx, token, ref, alts[index]);
          state.mediaIds.push(uploaded.id);
          if (uploaded.processing) {
            state.processing.push(index);
            checkAfterSecs = Math.max(checkAfterSecs, uploaded.processing.checkAfterSecs);
          }
        }
        if (state.processing.length) return { kind: 'wait', afterMs: checkAfterSecs * 1000, state: { ...state } };
        return postThread(ctx, post, state);
      },
      async resume(ctx, post, saved) {
        if (!isPublishState(saved)) {
          throw new PlatformError('x', { kind: 'rejected', code: 'invalid_state' }, 'The saved X publishing state is not readable; publish again.');
        }
        const state: XPublishState = structuredClone(saved);
        return state.processing.length ? continueProcessing(ctx, post, state) : postThread(ctx, post, state);
      },
    },
    comments: {
      async create(ctx, { post, text }) {
        const threadIds = ids(post.extra?.post_ids);
        const target = threadIds[threadIds.length - 1] ?? post.id;
        if (!target) return { warnings: ['The X first comment was skipped: the post id is not known yet.'] };
        const warnings: string[] = [];
        let comment = text.trim();
        if (!keepLinks) {
          const stripped = stripLinks(comment);
          if (stripped.removed) warnings.push(`${stripped.removed} link(s) were removed from the X first comment.`);
          comment = stripped.text;
        }
        if (!comment) return { warnings: [...warnings, 'The X first comment was skipped: it is empty once its links are removed.'] };
        const weight = xWeightedLength(comment);
        if (weight > TWEET_MAX_WEIGHT) throw invalid('text_too_long', `The X first comment counts ${weight} characters; a reply holds at most ${TWEET_MAX_WEIGHT}.`);
        const commentId = await createTweet(ctx, accessToken(ctx), { text: comment, reply: { in_reply_to_tweet_id: target } });
        return { comment: { id: commentId, post }, warnings };
      },
    },
  };
}
