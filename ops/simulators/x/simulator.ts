/**
 * Loopback simulator of X as Herald uses it (docs.x.com): the OAuth 2 authorize page
 * (`/i/oauth2/authorize`) and token endpoint (`/2/oauth2/token`, PKCE, rotating refresh tokens),
 * `GET /2/users/me`, the v2 chunked media upload (`/2/media/upload/initialize`, `/{id}/append`,
 * `/{id}/finalize`, `GET /2/media/upload?command=STATUS`, and the older `command=INIT|APPEND|FINALIZE`
 * form), `POST /2/media/metadata` and `POST /2/tweets`, with X's problem-JSON errors and
 * `x-rate-limit-*` headers. One origin plays both x.com and api.x.com.
 */
import { listUserTweets } from './media';
import { seedInputOf, type SeedCommentInput } from '../kit/comments';
import { mentionsOf, xCommentRoute, X_COMMENT_SCOPES, type XFan } from './comments';
import type { ServerResponse } from 'node:http';
import { clockControl, createAnalyticsModel } from '../kit/metrics';
import { createXAnalytics } from './analytics';
import {
  createSeededSource, sendJson, sendText, startSimulatorHost, type ParsedBody, type SimRequest,
} from '../kit/http';
import {
  X_FAILURE_MODES, type XFailureMode, X_SIM_RATE_LIMIT_RESET_SECONDS, X_SIM_DAILY_LIMIT_RESET_SECONDS,
  X_EPOCH, SEGMENT_MAX_BYTES, USER_FIELDS, TWEET_KEYS, REPLY_SETTINGS, NUMERIC_ID, CATEGORIES, categoryFor,
  type XSimClient, type XSimAccount, type XSimMedia, type MediaRecord, type XSimTweet,
  type XSimArticle, type XSimulatorOptions, type XSimulator, weightedLength, problem, fieldsOf, looksLike,
} from './fixtures';
import { handlePostRoutes, handleTweetEdit, type XPostsState } from './posts';
import { createXOAuth } from './oauth';
import type { OAuthToken } from '../kit/oauth';

export {
  X_FAILURE_MODES, type XFailureMode, X_SIM_RATE_LIMIT_RESET_SECONDS, X_SIM_DAILY_LIMIT_RESET_SECONDS, X_SIM_SCOPES,
  type XSimClient, type XSimAccount, type XSimMedia, type XSimTweet, type XSimArticle, type XSimulatorOptions,
  type XSimulator,
} from './fixtures';

const DEFAULT_SCOPES = ['tweet.read', 'tweet.write', 'users.read', 'media.write', 'offline.access'];

export async function startXSimulator(opts: XSimulatorOptions = {}): Promise<XSimulator> {
  const seeded = createSeededSource(opts.seed);
  const processingMs = opts.processingMs ?? 50;
  const clients = new Map<string, XSimClient>();
  const accounts = new Map<string, XSimAccount>();
  const communities = new Map<string, string>();
  const mediaById = new Map<string, MediaRecord>();
  const tweets: XSimTweet[] = [];
  const fans = new Map<string, XFan>();
  const articles = new Map<string, XSimArticle>();
  let sequence = 0;
  let failNextProcessing = false;
  const analytics = createXAnalytics({
    model: createAnalyticsModel(opts.seed), tweets: () => tweets,
    invalidRequest: (res, message, parameters) => invalidRequest(res, message, parameters), forbidden: (res, detail) => forbidden(res, detail),
  });

  const fixtureId = (kind: string) => {
    const bytes = seeded(kind);
    const ms = 1672531200000n + BigInt(bytes.readUInt32BE(0) % (365 * 86400)) * 1000n;
    return (((ms - X_EPOCH) << 22n) | BigInt(bytes.readUInt32BE(4) & 0x3fffff)).toString();
  };
  const liveId = () => (((BigInt(Date.now()) - X_EPOCH) << 22n) | (1n << 17n) | BigInt(sequence++ & 0xfff)).toString();
  const secret = (kind: string, length = 43) => seeded(kind).toString('base64url').slice(0, length);

  const oauth = createXOAuth({ seeded, clients, accounts, tokenTtlSeconds: opts.tokenTtlSeconds ?? 7200 });

  // --- errors in X's shapes ------------------------------------------------------------------
  const unauthorized = (res: ServerResponse) => sendJson(res, 401, problem(401, 'Unauthorized', 'Unauthorized'));
  const forbidden = (res: ServerResponse, detail: string) => sendJson(res, 403, problem(403, 'Forbidden', detail));
  const invalidRequest = (res: ServerResponse, message: string, parameters: Record<string, unknown[]> = {}) =>
    sendJson(res, 400, {
      errors: [{ parameters, message }],
      title: 'Invalid Request',
      detail: 'One or more parameters to your request was invalid.',
      type: 'https://api.twitter.com/2/problems/invalid-request',
    });
  const resetIn = (seconds: number) => String(Math.ceil(Date.now() / 1000) + seconds);
  function tooMany(res: ServerResponse, mode: 'rate_limited' | 'daily_limit' | 'usage_capped') {
    const headers: Record<string, string> = {
      'x-rate-limit-limit': '100',
      'x-rate-limit-remaining': mode === 'rate_limited' ? '0' : '99',
      'x-rate-limit-reset': resetIn(X_SIM_RATE_LIMIT_RESET_SECONDS),
    };
    if (mode === 'daily_limit') {
      Object.assign(headers, { 'x-user-limit-24hour-limit': '17', 'x-user-limit-24hour-remaining': '0', 'x-user-limit-24hour-reset': resetIn(X_SIM_DAILY_LIMIT_RESET_SECONDS) });
    }
    const body = mode === 'usage_capped'
      ? problem(429, 'UsageCapExceeded', 'Usage cap exceeded: Monthly product cap', 'https://api.twitter.com/2/problems/usage-capped')
      : problem(429, 'Too Many Requests', 'Too Many Requests');
    sendJson(res, 429, body, headers);
  }

  // --- OAuth ---------------------------------------------------------------------------------

  function tokenEndpoint(req: SimRequest, res: ServerResponse, failure: XFailureMode | undefined) {
    if (req.method !== 'POST') return sendJson(res, 405, problem(405, 'Method Not Allowed', 'Method Not Allowed'));
    if (failure === 'rate_limited' || failure === 'usage_capped' || failure === 'daily_limit') return tooMany(res, failure);
    if (failure === 'server_error') return sendJson(res, 500, problem(500, 'Internal Server Error', 'Internal Server Error'));
    if (failure === 'service_unavailable') return sendJson(res, 503, problem(503, 'Service Unavailable', 'Service Unavailable'));
    return oauth.token(req, res, {
      beforeRefresh(stored) {
        if (stored && failure === 'expired_token') stored.revoked = true;
        if (stored && failure === 'revoked_token') oauth.revoke(stored.accountId);
      },
    });
  }

  // --- API -----------------------------------------------------------------------------------

  type Caller = { account: XSimAccount; token: OAuthToken };
  function authenticate(req: SimRequest): { caller: Caller } | { bearer?: OAuthToken } {
    const check = oauth.bearer(req);
    const token = 'token' in check ? check.token : undefined;
    const account = token ? accounts.get(token.accountId) : undefined;
    if (check.kind !== 'ok' || !account) return { bearer: token };
    return { caller: { account, token: check.token } };
  }

  function mediaView(m: MediaRecord): XSimMedia {
    refreshPhase(m);
    const state = m.phase === 'processing' ? (Date.now() - m.finalizedAt! >= processingMs / 2 ? 'in_progress' : 'pending') : m.phase;
    const segments = Object.fromEntries([...m.segments].map(([i, b]) => [i, b.length]));
    return { id: m.id, mediaKey: m.mediaKey, ownerId: m.ownerId, mediaType: m.mediaType, category: m.category, totalBytes: m.totalBytes, segments, state, ...(m.altText !== undefined ? { altText: m.altText } : {}) };
  }
  function refreshPhase(m: MediaRecord) {
    if (m.phase === 'processing' && Date.now() - m.finalizedAt! >= processingMs) m.phase = m.failProcessing ? 'failed' : 'succeeded';
  }
  function processingInfo(m: MediaRecord) {
    const view = mediaView(m);
    if (view.state === 'failed') return { state: 'failed', progress_percent: 100, error: { code: 1, name: 'InvalidMedia', message: 'Unsupported video format' } };
    if (view.state === 'succeeded') return { state: 'succeeded', progress_percent: 100 };
    return { state: view.state, check_after_secs: 1, progress_percent: view.state === 'pending' ? 0 : 50 };
  }
  const mediaData = (m: MediaRecord, extra: Record<string, unknown> = {}) => ({ id: m.id, media_key: m.mediaKey, expires_after_secs: Math.max(0, Math.round((m.expiresAt - Date.now()) / 1000)), ...extra });

  function ownMedia(res: ServerResponse, caller: Caller, id: unknown): MediaRecord | undefined {
    const m = mediaById.get(String(id ?? ''));
    if (!m || m.ownerId !== caller.account.id || m.expiresAt < Date.now()) {
      invalidRequest(res, `The media_id ${String(id)} is invalid or expired.`, { media_id: [String(id)] });
      return undefined;
    }
    return m;
  }

  function initialize(res: ServerResponse, caller: Caller, fields: Record<string, unknown>) {
    const mediaType = String(fields.media_type ?? '');
    const totalBytes = Number(fields.total_bytes);
    const category = fields.media_category === undefined ? categoryFor(mediaType) : String(fields.media_category).toLowerCase();
    const rules = category ? CATEGORIES[category] : undefined;
    if (!rules) return invalidRequest(res, `media_category ${String(fields.media_category ?? '')} is not supported for ${mediaType}.`, { media_category: [String(fields.media_category)] });
    if (!rules.types.includes(mediaType)) return invalidRequest(res, `media_type ${mediaType} is not allowed for ${category}.`, { media_type: [mediaType] });
    if (!Number.isInteger(totalBytes) || totalBytes <= 0) return invalidRequest(res, 'total_bytes must be a positive integer.', { total_bytes: [String(fields.total_bytes)] });
    if (totalBytes > rules.maxBytes) return invalidRequest(res, `File size exceeds ${rules.maxBytes} bytes.`, { total_bytes: [String(totalBytes)] });
    const id = liveId();
    const m: MediaRecord = {
      id, mediaKey: `${rules.keyPrefix}_${id}`, ownerId: caller.account.id, mediaType, category: category!, totalBytes,
      segments: new Map(), phase: 'uploading', failProcessing: false, expiresAt: Date.now() + 86_400_000,
    };
    mediaById.set(id, m);
    sendJson(res, 200, { data: mediaData(m) });
  }

  function append(req: SimRequest, res: ServerResponse, m: MediaRecord, fields: Record<string, unknown>) {
    if (m.phase !== 'uploading') return invalidRequest(res, 'Media is already finalized.', { media_id: [m.id] });
    const index = Number(fields.segment_index);
    if (!Number.isInteger(index) || index < 0 || index > 999) return invalidRequest(res, 'segment_index must be an integer 0-999.', { segment_index: [String(fields.segment_index)] });
    let bytes: Buffer | undefined;
    if (req.body.kind === 'multipart') bytes = req.body.files.find((f) => f.name === 'media')?.data;
    const encoded = fields.media_data ?? (req.body.kind === 'json' ? fields.media : undefined);
    if (!bytes && typeof encoded === 'string') bytes = Buffer.from(encoded, 'base64');
    if (!bytes || !bytes.length) return invalidRequest(res, 'media is required: the segment bytes as a multipart file part.', { media: [] });
    if (bytes.length > SEGMENT_MAX_BYTES) return invalidRequest(res, 'Segment exceeds 5 MB.', { media: [] });
    m.segments.set(index, bytes);
    const received = [...m.segments.values()].reduce((n, b) => n + b.length, 0);
    if (received > m.totalBytes) return invalidRequest(res, 'Segments exceed the total_bytes given at initialize.', { segment_index: [String(index)] });
    sendJson(res, 200, { data: { expires_at: Math.round(m.expiresAt / 1000) } });
  }

  function finalize(res: ServerResponse, m: MediaRecord) {
    if (m.phase !== 'uploading') return sendJson(res, 200, { data: mediaData(m, { size: m.totalBytes, processing_info: processingInfo(m) }) });
    const indexes = [...m.segments.keys()].sort((a, b) => a - b);
    const bytes = Buffer.concat(indexes.map((i) => m.segments.get(i)!));
    if (indexes.some((n, i) => n !== i) || bytes.length !== m.totalBytes) {
      return invalidRequest(res, 'Segments do not add up to provided total file size.', { media_id: [m.id] });
    }
    const valid = looksLike(m.mediaType, bytes);
    if (!CATEGORIES[m.category]!.processes) {
      if (!valid) return invalidRequest(res, `The media is not a valid ${m.mediaType} file.`, { media_id: [m.id] });
      m.phase = 'succeeded';
      return sendJson(res, 200, { data: mediaData(m, { size: m.totalBytes }) });
    }
    m.phase = 'processing';
    m.finalizedAt = Date.now();
    m.failProcessing = !valid || failNextProcessing;
    failNextProcessing = false;
    sendJson(res, 200, { data: mediaData(m, { size: m.totalBytes, processing_info: processingInfo(m) }) });
  }

  function status(res: ServerResponse, m: MediaRecord) {
    const info = m.phase === 'uploading' ? undefined : CATEGORIES[m.category]!.processes ? processingInfo(m) : undefined;
    sendJson(res, 200, { data: mediaData(m, info ? { processing_info: info } : {}) });
  }

  function metadata(res: ServerResponse, caller: Caller, fields: Record<string, unknown>) {
    const m = ownMedia(res, caller, fields.id);
    if (!m) return;
    const meta = fields.metadata as { alt_text?: { text?: unknown } } | undefined;
    const text = meta?.alt_text?.text;
    if (typeof text !== 'string') return invalidRequest(res, 'metadata.alt_text.text is required.', { metadata: [] });
    if ([...text].length > 1000) return invalidRequest(res, 'Alt text must be 1000 characters or fewer.', { 'metadata.alt_text.text': [text.slice(0, 20)] });
    if (!m.mediaType.startsWith('image/')) return invalidRequest(res, 'Alt text is supported for images and GIFs only.', { id: [m.id] });
    m.altText = text;
    sendJson(res, 200, { data: { id: m.id, associated_metadata: { alt_text: { text } } } });
  }

  /** The legacy single endpoint: `command=INIT|APPEND|FINALIZE` in the query or the body. */
  function legacyUpload(req: SimRequest, res: ServerResponse, caller: Caller) {
    const fields = { ...req.query, ...fieldsOf(req.body) };
    const command = String(fields.command ?? '');
    if (command === 'INIT') return initialize(res, caller, fields);
    const m = ownMedia(res, caller, fields.media_id);
    if (!m) return;
    if (command === 'APPEND') return append(req, res, m, fields);
    if (command === 'FINALIZE') return finalize(res, m);
    return invalidRequest(res, 'command must be INIT, APPEND or FINALIZE.', { command: [command] });
  }

  function usersMe(req: SimRequest, res: ServerResponse, caller: Caller) {
    const requested = (req.query['user.fields'] ?? '').split(',').filter(Boolean);
    const unknown = requested.filter((f) => !USER_FIELDS.includes(f));
    if (unknown.length) return invalidRequest(res, `The \`user.fields\` query parameter value [${unknown[0]}] is not one of [${USER_FIELDS.join(',')}]`, { 'user.fields': unknown });
    const a = caller.account;
    const all: Record<string, unknown> = {
      id: a.id, name: a.name, username: a.username, profile_image_url: a.profileImageUrl, protected: false,
      verified: a.premium, subscription_type: a.premium ? 'Premium' : 'None', created_at: '2020-01-01T00:00:00.000Z',
      public_metrics: analytics.userMetrics(a),
    };
    const data = Object.fromEntries(Object.entries(all).filter(([k]) => ['id', 'name', 'username', ...requested].includes(k)));
    sendJson(res, 200, { data });
  }

  const posts: XPostsState = { tweets, liveId, weightedLength, forbidden, invalidRequest };
  const tweetExists = (id: unknown) => typeof id === 'string' && tweets.some((t) => t.id === id && !t.deleted);
  const idList = (value: unknown) => Array.isArray(value) && value.every((v) => typeof v === 'string' && NUMERIC_ID.test(v));

  // Articles: title + DraftJS content_state (blocks of text); a draft becomes public with /publish.
  function createArticleDraft(res: ServerResponse, caller: Caller, body: ParsedBody) {
    if (body.kind !== 'json' || !body.value || typeof body.value !== 'object') return invalidRequest(res, 'The request body must be a JSON object.');
    const a = body.value as { title?: unknown; content_state?: { blocks?: unknown; entities?: unknown } };
    if (typeof a.title !== 'string' || !a.title.trim()) return invalidRequest(res, 'title is required.', { title: [] });
    if (a.title.length > 100) return invalidRequest(res, 'title is at most 100 characters.', { title: [a.title] });
    const blocks = a.content_state?.blocks;
    if (!Array.isArray(blocks) || !blocks.length || blocks.some((b) => typeof (b as { text?: unknown })?.text !== 'string' || typeof (b as { key?: unknown })?.key !== 'string')) {
      return invalidRequest(res, 'content_state.blocks must be a non-empty list of {key, text} blocks.', { 'content_state.blocks': [] });
    }
    if (!caller.account.premium) return forbidden(res, 'Articles are available to Premium accounts only.');
    const id = liveId();
    articles.set(id, { id, author_id: caller.account.id, title: a.title, text: (blocks as Array<{ text: string }>).map((b) => b.text).join('\n\n'), status: 'draft' });
    return sendJson(res, 201, { data: { id } });
  }

  function publishArticleDraft(res: ServerResponse, caller: Caller, id: string) {
    const article = articles.get(id);
    if (!article || article.author_id !== caller.account.id) return sendJson(res, 404, problem(404, 'Not Found Error', 'Could not find the article.'));
    if (article.status === 'published') return invalidRequest(res, 'The article is published already.', { article_id: [id] });
    const postId = liveId();
    tweets.push({ id: postId, author_id: caller.account.id, text: article.title, created_at: new Date().toISOString(), conversation_id: postId, media_ids: [] });
    article.status = 'published';
    article.post_id = postId;
    return sendJson(res, 200, { data: { post_id: postId } });
  }

  function createTweet(res: ServerResponse, caller: Caller, body: ParsedBody) {
    if (body.kind !== 'json' || !body.value || typeof body.value !== 'object' || Array.isArray(body.value)) {
      return invalidRequest(res, 'The request body must be a JSON object.');
    }
    const t = body.value as Record<string, unknown>;
    if (handleTweetEdit(posts, res, caller.account, t)) return;
    const unknownKey = Object.keys(t).find((k) => !TWEET_KEYS.includes(k));
    if (unknownKey) return invalidRequest(res, `[${unknownKey}] is not a valid field of the request.`, { [unknownKey]: [] });
    if (t.text !== undefined && typeof t.text !== 'string') return invalidRequest(res, 'text must be a string.', { text: [] });
    for (const flag of ['nullcast', 'for_super_followers_only', 'share_with_followers', 'made_with_ai', 'paid_partnership']) {
      if (t[flag] !== undefined && typeof t[flag] !== 'boolean') return invalidRequest(res, `${flag} must be a boolean.`, { [flag]: [String(t[flag])] });
    }
    const text = (t.text as string | undefined) ?? '';
    const media = t.media as { media_ids?: unknown; tagged_user_ids?: unknown } | undefined;
    const mediaIds = media?.media_ids;
    if (media !== undefined) {
      if (typeof media !== 'object' || Object.keys(media).some((k) => k !== 'media_ids' && k !== 'tagged_user_ids')) return invalidRequest(res, 'media has unknown fields.', { media: [] });
      if (!idList(mediaIds) || (mediaIds as string[]).length < 1 || (mediaIds as string[]).length > 4) return invalidRequest(res, 'media.media_ids takes 1 to 4 media ids.', { 'media.media_ids': [] });
      if (media.tagged_user_ids !== undefined && (!idList(media.tagged_user_ids) || (media.tagged_user_ids as string[]).length > 10)) {
        return invalidRequest(res, 'media.tagged_user_ids takes at most 10 user ids.', { 'media.tagged_user_ids': [] });
      }
    }
    const ids = (mediaIds as string[] | undefined) ?? [];
    if (!text.trim() && !ids.length) return invalidRequest(res, 'You must specify text or media.', { text: [] });
    const weight = weightedLength(text);
    if (weight > (caller.account.premium ? 25_000 : 280)) {
      return sendJson(res, 400, problem(400, 'Bad Request', 'Your Tweet text is too long. For more information on how Twitter determines text length see https://github.com/twitter/twitter-text.'));
    }
    const reply = t.reply as { in_reply_to_tweet_id?: unknown; exclude_reply_user_ids?: unknown } | undefined;
    if (reply !== undefined) {
      if (!tweetExists(reply.in_reply_to_tweet_id)) return invalidRequest(res, 'reply.in_reply_to_tweet_id is not a post you can reply to.', { 'reply.in_reply_to_tweet_id': [String(reply.in_reply_to_tweet_id)] });
      if (reply.exclude_reply_user_ids !== undefined && !idList(reply.exclude_reply_user_ids)) return invalidRequest(res, 'reply.exclude_reply_user_ids must be user ids.', { 'reply.exclude_reply_user_ids': [] });
    }
    if (t.quote_tweet_id !== undefined) {
      if (!tweetExists(t.quote_tweet_id)) return invalidRequest(res, 'quote_tweet_id is not a post you can quote.', { quote_tweet_id: [String(t.quote_tweet_id)] });
      if (ids.length) return invalidRequest(res, 'quote_tweet_id and media are mutually exclusive.', { quote_tweet_id: [String(t.quote_tweet_id)] });
    }
    if (t.reply_settings !== undefined && !REPLY_SETTINGS.includes(String(t.reply_settings))) {
      return invalidRequest(res, `reply_settings must be one of ${REPLY_SETTINGS.join(', ')}.`, { reply_settings: [String(t.reply_settings)] });
    }
    const geo = t.geo as { place_id?: unknown } | undefined;
    if (geo !== undefined && typeof geo?.place_id !== 'string') return invalidRequest(res, 'geo.place_id must be a string.', { 'geo.place_id': [] });
    if (t.community_id !== undefined && !communities.has(String(t.community_id))) return invalidRequest(res, 'community_id is not a community you belong to.', { community_id: [String(t.community_id)] });
    if (t.share_with_followers === true && t.community_id === undefined) return invalidRequest(res, 'share_with_followers requires community_id.', { share_with_followers: ['true'] });
    if (t.direct_message_deep_link !== undefined && !/^https:\/\/(www\.)?(twitter|x)\.com\/messages\/compose\?/.test(String(t.direct_message_deep_link))) {
      return invalidRequest(res, 'direct_message_deep_link must be a DM compose link.', { direct_message_deep_link: [String(t.direct_message_deep_link)] });
    }
    const records = ids.map((id) => mediaById.get(id));
    const missing = ids.filter((_, i) => !records[i] || records[i]!.ownerId !== caller.account.id);
    if (missing.length) return invalidRequest(res, 'Your media IDs are invalid.', { 'media.media_ids': missing });
    for (const m of records as MediaRecord[]) {
      refreshPhase(m);
      if (m.phase !== 'succeeded') return invalidRequest(res, `Media ${m.id} is not ready: its upload ${m.phase === 'failed' ? 'failed processing' : 'is not finished'}.`, { 'media.media_ids': [m.id] });
    }
    const single = (records as MediaRecord[]).filter((m) => m.category !== 'tweet_image');
    if (single.length && records.length > 1) return invalidRequest(res, 'A post carries one video or GIF, or up to 4 images.', { 'media.media_ids': ids });
    if (text.trim() && tweets.some((p) => p.author_id === caller.account.id && p.text === text && !p.deleted)) {
      return forbidden(res, 'You are not allowed to create a Tweet with duplicate content.');
    }

    const id = liveId();
    const parent = reply ? tweets.find((p) => p.id === reply.in_reply_to_tweet_id) : undefined;
    const stored: XSimTweet = {
      id, author_id: caller.account.id, text, created_at: new Date().toISOString(), conversation_id: parent?.conversation_id ?? id, media_ids: ids,
      ...(parent ? { in_reply_to_tweet_id: parent.id } : {}),
      ...(reply?.exclude_reply_user_ids ? { exclude_reply_user_ids: reply.exclude_reply_user_ids as string[] } : {}),
      ...(media?.tagged_user_ids ? { tagged_user_ids: media.tagged_user_ids as string[] } : {}),
      ...(t.quote_tweet_id !== undefined ? { quote_tweet_id: String(t.quote_tweet_id) } : {}),
      ...(t.reply_settings !== undefined ? { reply_settings: String(t.reply_settings) } : {}),
      ...(geo ? { place_id: String(geo.place_id) } : {}),
      ...(t.community_id !== undefined ? { community_id: String(t.community_id) } : {}),
      ...(t.direct_message_deep_link !== undefined ? { direct_message_deep_link: String(t.direct_message_deep_link) } : {}),
      ...Object.fromEntries(['share_with_followers', 'nullcast', 'for_super_followers_only', 'made_with_ai', 'paid_partnership'].filter((f) => t[f] !== undefined).map((f) => [f, t[f]])),
    };
    tweets.push(stored);
    sendJson(res, 201, { data: { id, text, edit_history_tweet_ids: [id] } });
  }

  const SCOPES_NEEDED: Array<[RegExp, string[]]> = [
    [/^\/2\/users\/me$/, ['tweet.read', 'users.read']],
    [/^\/2\/users\/[0-9]+\/tweets$/, ['tweet.read', 'users.read']],
    [/^\/2\/tweets\/[0-9]+$/, ['tweet.read', 'users.read']],
    [/^\/2\/tweets$/, ['tweet.read', 'tweet.write', 'users.read']],
    [/^\/2\/users\/[^/]+\/tweets$/, ['tweet.read', 'users.read']],
    [/^\/2\/tweets\//, ['tweet.read', 'tweet.write', 'users.read']],
    [/^\/2\/users\/[0-9]+\/retweets$/, ['tweet.read', 'tweet.write', 'users.read']],
    [/^\/2\/media\//, ['media.write']],
    ...X_COMMENT_SCOPES,
  ];

  function api(req: SimRequest, res: ServerResponse, failure: XFailureMode | undefined) {
    const auth = authenticate(req);
    switch (failure) {
      case 'rate_limited': case 'daily_limit': case 'usage_capped': return tooMany(res, failure);
      case 'server_error': return sendJson(res, 500, problem(500, 'Internal Server Error', 'Internal Server Error'));
      case 'service_unavailable': return sendJson(res, 503, problem(503, 'Service Unavailable', 'Service Unavailable'));
      case 'duplicate_content': return forbidden(res, 'You are not allowed to create a Tweet with duplicate content.');
      case 'forbidden': return forbidden(res, 'You are not permitted to perform this action.');
      case 'invalid_request': return invalidRequest(res, 'The request is invalid.');
      case 'expired_token': {
        const token = 'caller' in auth ? auth.caller.token : auth.bearer;
        if (token) token.expiresAt = Date.now();
        return unauthorized(res);
      }
      case 'revoked_token': {
        const token = 'caller' in auth ? auth.caller.token : auth.bearer;
        if (token) oauth.revoke(token.accountId);
        return unauthorized(res);
      }
      case 'media_processing_failed': failNextProcessing = true; break;
      case undefined: break;
    }
    if (!('caller' in auth)) return unauthorized(res);
    const { caller } = auth;
    const needed = SCOPES_NEEDED.find(([pattern]) => pattern.test(req.path))?.[1] ?? [];
    const lacking = needed.filter((s) => !caller.token.scopes.includes(s));
    if (lacking.length) return forbidden(res, `Missing required OAuth 2.0 scope: ${lacking.join(', ')}`);

    const route = `${req.method} ${req.path}`;
    if (route === 'GET /2/users/me') return usersMe(req, res, caller);
    // One endpoint, two readers: metric fields are answered by the analytics model, the rest by the
    // timeline/post routes (media library, post operations).
    const wantsMetrics = /(^|,)(public_metrics|non_public_metrics|organic_metrics)(,|$)/.test(String(req.query['tweet.fields'] ?? ''));
    const timeline = req.method === 'GET' ? /^\/2\/users\/([^/]+)\/tweets$/.exec(req.path) : null;
    if (timeline && wantsMetrics) return analytics.userTweets(res, caller.account, timeline[1]!, req.query);
    if (timeline) return listUserTweets(req, res, { userId: timeline[1]!, userExists: accounts.has(timeline[1]!), tweets, media: mediaById, invalidRequest });
    const single = /^\/2\/tweets\/([0-9]+)$/.exec(req.path);
    if (single && req.method === 'GET' && wantsMetrics) return analytics.tweet(res, caller.account, single[1]!, req.query);
    if (route === 'POST /2/tweets') return createTweet(res, caller, req.body);
    if (handlePostRoutes(posts, req, res, caller.account)) return;
    if (route === 'POST /2/articles/draft') return createArticleDraft(res, caller, req.body);
    const publishArticle = /^\/2\/articles\/([0-9]+)\/publish$/.exec(req.path);
    if (publishArticle && req.method === 'POST') return publishArticleDraft(res, caller, publishArticle[1]!);
    if (route === 'POST /2/media/upload/initialize') return initialize(res, caller, fieldsOf(req.body));
    if (route === 'POST /2/media/metadata') return metadata(res, caller, fieldsOf(req.body));
    if (route === 'POST /2/media/upload') return legacyUpload(req, res, caller);
    if (route === 'GET /2/media/upload') {
      if (req.query.command !== 'STATUS') return invalidRequest(res, 'command must be STATUS.', { command: [req.query.command ?? ''] });
      const m = ownMedia(res, caller, req.query.media_id);
      return m && status(res, m);
    }
    const session = /^\/2\/media\/upload\/([0-9]+)\/(append|finalize)$/.exec(req.path);
    if (session && req.method === 'POST') {
      const m = ownMedia(res, caller, session[1]);
      if (!m) return;
      return session[2] === 'append' ? append(req, res, m, fieldsOf(req.body)) : finalize(res, m);
    }
    if (xCommentRoute({ tweets, accounts, fans, invalidRequest }, req, res, caller.account)) return;
    return sendJson(res, 404, problem(404, 'Not Found Error', `Could not find ${route}`, 'https://api.twitter.com/2/problems/resource-not-found'));
  }

  /** A reply by another X user to a post (`POST /__sim/comment`): it shows in the post author's mentions. */
  function seedComment(input: SeedCommentInput): XSimTweet {
    const parent = tweets.find((t) => t.id === (input.parentId ?? input.postId));
    if (!parent) throw new Error(`no post ${input.parentId ?? input.postId}`);
    const username = (input.authorName ?? 'a_follower').replace(/^@/, '');
    const fan = [...fans.values()].find((f) => f.username === username) ?? { id: input.authorId ?? fixtureId(`fan-${username}`), username, name: username };
    fans.set(fan.id, fan);
    const author = accounts.get(parent.author_id);
    const id = liveId();
    const stored: XSimTweet = {
      id, author_id: fan.id, text: author && !input.text.includes(`@${author.username}`) ? `@${author.username} ${input.text}` : input.text,
      created_at: new Date(Date.now() - (input.ageMs ?? 0)).toISOString(), conversation_id: parent.conversation_id, media_ids: [], in_reply_to_tweet_id: parent.id,
    };
    tweets.push(stored);
    return snapshot(stored);
  }

  const host = await startSimulatorHost<XFailureMode>({
    port: opts.port,
    maxBodyBytes: 6 * 1024 * 1024,
    failureModes: X_FAILURE_MODES,
    state: () => ({
      clients: [...clients.values()].map((c) => ({ clientId: c.clientId, name: c.name, redirectUris: c.redirectUris, confidential: c.clientSecret !== null })),
      accounts: [...accounts.values()],
      tweetCount: tweets.length,
      mediaCount: mediaById.size,
    }),
    controls: { comment: (body) => { seedComment(seedInputOf(body)); }, analytics_clock: clockControl(analytics.model) },
    reset: () => {
      tweets.length = 0;
      articles.clear();
      mediaById.clear();
      oauth.clearCodes();
      failNextProcessing = false;
    },
    handle(req, res, failure) {
      if (req.path === '/i/oauth2/authorize') {
        if (failure === 'server_error' || failure === 'service_unavailable') return sendText(res, 503, '<!doctype html><p>Something went wrong. Try again later.</p>', 'text/html');
        return oauth.authorize(req, res);
      }
      if (req.path === '/2/oauth2/token') return tokenEndpoint(req, res, failure);
      if (req.path.startsWith('/2/')) {
        if (req.body.kind === 'too_large') return sendJson(res, 413, problem(413, 'Payload Too Large', 'Request entity too large'));
        return api(req, res, failure);
      }
      return sendJson(res, 404, problem(404, 'Not Found Error', 'Not Found'));
    },
  });

  const snapshot = (t: XSimTweet) => structuredClone(t);
  const tweetsOf = (authorId?: string) => tweets.filter((t) => !t.deleted && (authorId === undefined || t.author_id === authorId)).map(snapshot);
  const repliesTo = (tweetId: string) => tweets.filter((t) => t.in_reply_to_tweet_id === tweetId).map(snapshot);

  return {
    port: host.port,
    origin: host.origin,
    get requests() { return host.requests; },
    analytics,
    createClient(input) {
      const clientId = input.clientId ?? secret('client-id', 34);
      const clientSecret = input.clientSecret === null ? null : input.clientSecret ?? secret('client-secret', 50);
      clients.set(clientId, { clientId, clientSecret, name: input.name ?? 'Herald', redirectUris: [...input.redirectUris] });
      return { clientId, clientSecret };
    },
    createAccount(input) {
      const id = fixtureId('account');
      const account: XSimAccount = {
        id, username: input.username, name: input.name ?? input.username, premium: input.premium ?? false,
        profileImageUrl: input.profileImageUrl ?? `https://pbs.twimg.com/profile_images/${id}/avatar_normal.jpg`,
      };
      accounts.set(id, account);
      return { ...account };
    },
    issueAuthCode(accountId, input) {
      if (!accounts.has(accountId)) throw new Error(`unknown account ${accountId}`);
      if (!clients.has(input.clientId)) throw new Error(`unknown client ${input.clientId}`);
      return oauth.issueCode(accountId, {
        clientId: input.clientId, redirectUri: input.redirectUri, scopes: input.scopes ?? DEFAULT_SCOPES,
        codeChallenge: input.codeChallenge, codeChallengeMethod: input.codeChallengeMethod ?? 'S256',
      });
    },
    issueTokens(accountId, input) {
      if (!accounts.has(accountId)) throw new Error(`unknown account ${accountId}`);
      const scopes = input.scopes ?? DEFAULT_SCOPES;
      const t = oauth.issueTokens({ accountId, clientId: input.clientId, scopes }, { refresh: scopes.includes('offline.access') });
      return { accessToken: t.access.value, refreshToken: t.refresh?.value ?? '', expiresAt: new Date(t.access.expiresAt) };
    },
    expireAccessTokens: (accountId) => oauth.expireAccessTokens(accountId),
    revokeTokens: (accountId) => oauth.revoke(accountId),
    createTweet(accountId, text) {
      const id = liveId();
      tweets.push({ id, author_id: accountId, text, created_at: new Date().toISOString(), conversation_id: id, media_ids: [] });
      return id;
    },
    backdateTweet(id, ms) {
      const tweet = tweets.find((t) => t.id === id);
      if (!tweet) throw new Error(`unknown tweet ${id}`);
      tweet.created_at = new Date(Date.parse(tweet.created_at) - ms).toISOString();
    },
    articles() {
      return [...articles.values()].map((a) => ({ ...a }));
    },
    createCommunity(name) {
      const id = fixtureId('community');
      communities.set(id, name);
      return id;
    },
    accounts: () => [...accounts.values()].map((a) => ({ ...a })),
    tweets: tweetsOf,
    posts: tweetsOf,
    replies: repliesTo,
    comments: repliesTo,
    seedComment,
    mentions: (accountId) => { const a = accounts.get(accountId); return a ? mentionsOf({ tweets, accounts, fans, invalidRequest }, a).map(snapshot) : []; },
    media: () => [...mediaById.values()].map(mediaView),
    fail: (mode, times) => host.fail(mode, times),
    setLatency: (ms) => host.setLatency(ms),
    state: () => host.state(),
    reset: () => host.reset(),
    close: () => host.close(),
  };
}
