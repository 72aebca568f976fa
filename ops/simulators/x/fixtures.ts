import type { XAnalytics } from './analytics';
/** The X simulator's public surface (options, fixtures, failure modes, controls) and its wire conventions (scopes, media categories, weighted text length, problem bodies, file sniffing). */
import type { ParsedBody, RecordedRequest } from '../kit/http';

export const X_FAILURE_MODES = [
  /** The caller's access token (or refresh token, on the token endpoint) expires now: 401 / 400 invalid_request. */
  'expired_token',
  /** Every token of the caller's account is revoked (the user removed the app): 401 / 400 invalid_request, refresh fails too. */
  'revoked_token',
  /** 429 with `x-rate-limit-*` headers (15-minute window). */
  'rate_limited',
  /** 429 with `x-user-limit-24hour-*` headers: the account's daily post cap. */
  'daily_limit',
  /** 429 `usage-capped` problem: the app's monthly cap. */
  'usage_capped',
  'server_error',
  'service_unavailable',
  /** 403 "You are not allowed to create a Tweet with duplicate content." */
  'duplicate_content',
  /** 403 "You are not permitted to perform this action." */
  'forbidden',
  /** 400 invalid-request problem. */
  'invalid_request',
  /** The request goes through; the next media processing ends `failed` (InvalidMedia). */
  'media_processing_failed',
] as const;
export type XFailureMode = (typeof X_FAILURE_MODES)[number];

/** What a rate_limited failure answers: `x-rate-limit-reset` this many seconds ahead. */
export const X_SIM_RATE_LIMIT_RESET_SECONDS = 60;
export const X_SIM_DAILY_LIMIT_RESET_SECONDS = 6 * 3600;
export const X_SIM_SCOPES = ['tweet.read', 'tweet.write', 'tweet.moderate.write', 'users.read', 'follows.read', 'follows.write',
  'offline.access', 'space.read', 'mute.read', 'mute.write', 'like.read', 'like.write', 'list.read', 'list.write',
  'block.read', 'block.write', 'bookmark.read', 'bookmark.write', 'media.write'] as const;

export const X_EPOCH = 1288834974657n;
export const SEGMENT_MAX_BYTES = 5 * 1024 * 1024;
export const USER_FIELDS = ['id', 'name', 'username', 'profile_image_url', 'created_at', 'description', 'protected', 'verified', 'verified_type', 'subscription_type', 'location', 'url', 'public_metrics'];
export const TWEET_KEYS = ['text', 'media', 'reply', 'reply_settings', 'geo', 'nullcast', 'for_super_followers_only', 'community_id', 'share_with_followers',
  'direct_message_deep_link', 'quote_tweet_id', 'made_with_ai', 'paid_partnership', 'poll', 'card_uri', 'edit_options'];
export const REPLY_SETTINGS = ['following', 'mentionedUsers', 'subscribers', 'verified'];
export const NUMERIC_ID = /^[0-9]{1,19}$/;

export interface Category { types: readonly string[]; maxBytes: number; processes: boolean; keyPrefix: number }
export const CATEGORIES: Record<string, Category> = {
  tweet_image: { types: ['image/jpeg', 'image/png', 'image/webp', 'image/bmp', 'image/tiff'], maxBytes: 5 * 1024 * 1024, processes: false, keyPrefix: 3 },
  tweet_gif: { types: ['image/gif'], maxBytes: 15 * 1024 * 1024, processes: true, keyPrefix: 16 },
  tweet_video: { types: ['video/mp4', 'video/quicktime'], maxBytes: 8 * 1024 ** 3, processes: true, keyPrefix: 7 },
  amplify_video: { types: ['video/mp4', 'video/quicktime'], maxBytes: 8 * 1024 ** 3, processes: true, keyPrefix: 13 },
};
export const categoryFor = (mediaType: string) => Object.keys(CATEGORIES).find((c) => CATEGORIES[c]!.types.includes(mediaType));

export interface XSimClient { clientId: string; clientSecret: string | null; name: string; redirectUris: string[] }
export interface XSimAccount { id: string; username: string; name: string; profileImageUrl: string; premium: boolean }


export interface XSimMedia {
  id: string;
  mediaKey: string;
  ownerId: string;
  mediaType: string;
  category: string;
  totalBytes: number;
  /** Received segment sizes by segment_index. */
  segments: Record<number, number>;
  state: 'uploading' | 'pending' | 'in_progress' | 'succeeded' | 'failed';
  altText?: string;
}
export interface MediaRecord extends Omit<XSimMedia, 'segments' | 'state'> {
  segments: Map<number, Buffer>;
  phase: 'uploading' | 'processing' | 'succeeded' | 'failed';
  finalizedAt?: number;
  failProcessing: boolean;
  expiresAt: number;
}

/** A post as the simulator stored it, with every field of the create request it accepted. */
export interface XSimTweet {
  id: string;
  author_id: string;
  text: string;
  /** Edits (posts.ts): the chain's ids oldest first, the id that replaced this version, deletion, a repost's original. */
  edit_history_tweet_ids?: string[];
  superseded_by?: string;
  deleted?: boolean;
  retweet_of?: string;
  created_at: string;
  conversation_id: string;
  in_reply_to_tweet_id?: string;
  exclude_reply_user_ids?: string[];
  media_ids: string[];
  tagged_user_ids?: string[];
  quote_tweet_id?: string;
  reply_settings?: string;
  place_id?: string;
  community_id?: string;
  share_with_followers?: boolean;
  direct_message_deep_link?: string;
  nullcast?: boolean;
  for_super_followers_only?: boolean;
  made_with_ai?: boolean;
  paid_partnership?: boolean;
}

/** A long-form Article (POST /2/articles/draft, then /publish). */
export interface XSimArticle {
  id: string;
  author_id: string;
  title: string;
  /** The DraftJS text blocks, joined by blank lines. */
  text: string;
  status: 'draft' | 'published';
  /** The Article's seed post once published. */
  post_id?: string;
}

export interface XSimulatorOptions {
  /** Default 0 (any free port). */
  port?: number;
  /** Ids and tokens derive from it: same seed and same calls, same values. Default random. */
  seed?: string;
  /** How long video and GIF processing takes after FINALIZE. Default 50 ms. */
  processingMs?: number;
  /** Access token lifetime. Default 7200 s, as on X. */
  tokenTtlSeconds?: number;
}

export interface XSimulator {
  port: number;
  /** `http://127.0.0.1:PORT`: the adapter's `apiBase` and `authBase`, and the `/__sim/*` routes. */
  origin: string;
  createClient(input: { clientId?: string; clientSecret?: string | null; name?: string; redirectUris: string[] }): { clientId: string; clientSecret: string | null };
  createAccount(input: { username: string; name?: string; profileImageUrl?: string; premium?: boolean }): XSimAccount;
  /** What the approve page does for a user who clicks "Authorize app". */
  issueAuthCode(accountId: string, input: { clientId: string; redirectUri: string; codeChallenge: string; codeChallengeMethod?: 'S256' | 'plain'; scopes?: string[] }): string;
  /** Tokens as if the account had connected (for publish tests and the sandbox). */
  issueTokens(accountId: string, input: { clientId: string; scopes?: string[] }): { accessToken: string; refreshToken: string; expiresAt: Date };
  expireAccessTokens(accountId?: string): void;
  /** The user removed the app: access and refresh tokens stop working. */
  revokeTokens(accountId?: string): void;
  /** A post made elsewhere (to reply to or quote). */
  createTweet(accountId: string, text: string): string;
  createCommunity(name: string): string;
  accounts(): XSimAccount[];
  /** Live posts (deleted ones left out), every version of an edited post included. */
  tweets(authorId?: string): XSimTweet[];
  /** Moves a post's creation time `ms` into the past (to close its 30-minute edit window in tests). */
  backdateTweet(id: string, ms: number): void;
  /** The metrics model (tests compare an adapter's numbers with these). */
  readonly analytics: XAnalytics;
  /** Alias of tweets(). */
  posts(authorId?: string): XSimTweet[];
  /** Direct replies to a post (X has no separate comments: a first comment is a reply). */
  replies(tweetId: string): XSimTweet[];
  comments(tweetId: string): XSimTweet[];
  /** A reply by another X user to a post (also `POST /__sim/comment {post_id, text, author_name?, parent_id?}`); it mentions the post's author. */
  seedComment(input: import('../kit/comments').SeedCommentInput): XSimTweet;
  /** The account's mentions timeline, newest first. */
  mentions(accountId: string): XSimTweet[];
  media(): XSimMedia[];
  articles(): XSimArticle[];
  fail(mode: XFailureMode, times?: number): void;
  setLatency(ms: number): void;
  readonly requests: RecordedRequest[];
  state(): Record<string, unknown>;
  /** Clears posts, media, codes, queued failures, latency and recorded requests; clients, accounts, tokens stay. */
  reset(): void;
  close(): Promise<void>;
}

// X's own text counting (twitter-text v3): links 23, emoji and most non-Latin scripts 2, the rest 1.
export const LIGHT = [[0, 4351], [8192, 8205], [8208, 8223], [8242, 8247]] as const;
export const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
export function weightedLength(text: string): number {
  let weight = 0;
  const rest = text.normalize('NFC').replace(/https?:\/\/[^\s]+/giu, () => { weight += 23; return ''; });
  for (const { segment } of graphemes.segment(rest)) {
    if (segment.codePointAt(0)! > 0xff && /\p{Extended_Pictographic}/u.test(segment)) weight += 2;
    else for (const c of segment) weight += LIGHT.some(([a, b]) => c.codePointAt(0)! >= a && c.codePointAt(0)! <= b) ? 1 : 2;
  }
  return weight;
}

export const problem = (status: number, title: string, detail: string, type = 'about:blank') => ({ title, detail, type, status });

/** Request fields from JSON, urlencoded or multipart bodies (the legacy commands come in all three). */
export function fieldsOf(body: ParsedBody): Record<string, unknown> {
  if (body.kind === 'json' && body.value && typeof body.value === 'object' && !Array.isArray(body.value)) return body.value as Record<string, unknown>;
  if (body.kind === 'form' || body.kind === 'multipart') return body.fields;
  return {};
}

/** Checks the bytes against the declared type, as X's processing does. */
export function looksLike(mediaType: string, bytes: Buffer): boolean {
  const ascii = (from: number, to: number) => bytes.subarray(from, to).toString('latin1');
  switch (mediaType) {
    case 'image/jpeg': return bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
    case 'image/png': return bytes.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    case 'image/gif': return ascii(0, 4) === 'GIF8';
    case 'image/webp': return ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP';
    case 'video/mp4':
    case 'video/quicktime': return ['ftyp', 'moov', 'mdat', 'wide', 'free'].includes(ascii(4, 8));
    default: return true;
  }
}
