/**
 * Loopback simulator of TikTok: Login Kit OAuth v2 (authorize page, /v2/oauth/token/ with refresh
 * token rotation), /v2/user/info/, the Content Posting API v2 (creator_info/query, video/init,
 * inbox/video/init, content/init, chunked PUT uploads, status/fetch) and the comment calls of TikTok
 * API for Business (/open_api/v1.3/business/comment/…, see comments.ts).
 * Everything is served on one origin: the adapter's apiBase, authBase and businessApiBase (plus
 * `/open_api`) all point here, and `upload_url` is a loopback URL on it too.
 *
 * Like TikTok it checks tokens (expiry, revocation, scopes), enum values, text lengths, the chunk
 * rules of the media transfer guide, content types and file signatures, and it pulls PULL_FROM_URL
 * media itself. Sandbox stand-ins, documented here because TikTok's public reference has no
 * equivalent: the token response carries `capabilities` (the connection's capability list of the
 * spec), and the capability-gated `post_info` fields (`music_*`, `original_sound_volume`,
 * `location_*`, `cover_image_url`, `video_cover_timestamp_ms`) are refused with invalid_params when
 * the connection lacks the capability.
 */
import { tiktokLookup, TIKTOK_LOOKUP_PATHS } from './lookups';
import { listTikTokVideos } from './media';
import type { ServerResponse } from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import { createCommentStore, seedInputOf } from '../kit/comments';
import { createSeededSource, sendJson, sendText, startSimulatorHost, type SimRequest } from '../kit/http';
import { clockControl, createAnalyticsModel } from '../kit/metrics';
import { createTikTokAnalytics } from './analytics';
import { createTikTokOAuth } from './oauth';
import { isCommentPath, publicComment, seedTikTokComment, tiktokCommentRoute, type TikTokCommentDeps } from './comments';
import {
  INIT_MODES, JOB_MODES, TIKTOK_FAILURE_MODES, type TikTokFailureMode, TIKTOK_SIM_RETRY_AFTER_SECONDS,
  PRIVACY_LEVELS, CAPABILITY_GROUPS, MB, MIN_CHUNK, MAX_CHUNK, MAX_LAST_CHUNK, MAX_VIDEO_BYTES,
  MAX_PHOTO_BYTES, DAY_MS, INIT_LIMIT_PER_MINUTE, DIRECT_POSTS_PER_DAY, PENDING_DRAFTS_PER_DAY,
  type TikTokClientFixture, type TikTokAccountFixture, type TikTokPublishJob, type TikTokPost,
  type TikTokSimulatorOptions, type TikTokSimulator, type Grant, type Job,
  type Route, chars, isRecord, int64, sendJsonInt64, isVideoFile, isJpegOrWebp,
} from './fixtures';

export {
  TIKTOK_FAILURE_MODES, type TikTokFailureMode, TIKTOK_SIM_RETRY_AFTER_SECONDS, TIKTOK_SIM_SCOPES,
  type TikTokClientFixture, type TikTokAccountFixture, type TikTokTokens, type TikTokJobStatus,
  type TikTokPublishJob, type TikTokPost, type TikTokComment, type TikTokSimulatorOptions, type TikTokSimulator,
} from './fixtures';

const DEFAULT_SCOPE = 'user.info.basic,video.publish,video.upload';

export async function startTikTokSimulator(opts: TikTokSimulatorOptions = {}): Promise<TikTokSimulator> {
  const seeded = createSeededSource(opts.seed);
  let processingMs = opts.processingMs ?? 50;
  let postIdDelayMs = opts.postIdDelayMs ?? 0;
  let commentListingDelayMs = opts.commentListingDelayMs ?? 10_000;
  const accessTtlMs = (opts.accessTokenTtlSeconds ?? 86_400) * 1000;
  const refreshTtlMs = (opts.refreshTokenTtlSeconds ?? 31_536_000) * 1000;

  const clients = new Map<string, TikTokClientFixture>();
  const accounts = new Map<string, TikTokAccountFixture>();
  const jobs = new Map<string, Job>();
  const uploads = new Map<string, Job>();
  const posts: TikTokPost[] = [];
  const commentStore = createCommentStore();
  const initCalls = new Map<string, number[]>();
  const activeUsers = new Map<string, Map<string, number>>();
  const deferred: TikTokFailureMode[] = [];
  let origin = '';
  const analytics = createTikTokAnalytics({
    model: createAnalyticsModel(opts.seed), posts: () => posts, commentCount: (videoId) => commentStore.all(videoId).length, accounts: () => accounts,
    grantOf: (token) => { const t = oauth.accessToken(token); return t && grantOf(t); },
    businessAnswer: (res, code, message, data) => businessAnswer(res, code, message, data), v2Error: (res, status, code, message) => v2Error(res, status, code, message),
    v2Ok: (res, data) => v2Ok(res, data),
  });

  const hex = (kind: string, n: number) => seeded(kind).toString('hex').slice(0, n);
  const uuid = (kind: string) => {
    const h = seeded(kind).toString('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
  };
  /** 19 digits starting with 7, like TikTok item ids: past 2^53 on purpose. */
  const itemId = () => `7${BigInt(`0x${randomBytes(8).toString('hex')}`).toString().padStart(20, '0').slice(-18)}`;
  const logId = () => `${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}${randomBytes(8).toString('hex').toUpperCase()}`;

  // --- answers in TikTok's three error shapes -----------------------------------------------

  const v2Error = (res: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}) =>
    sendJson(res, status, { data: {}, error: { code, message, log_id: logId() } }, headers);
  const v2Ok = (res: ServerResponse, data: unknown) => sendJsonInt64(res, 200, { data, error: { code: 'ok', message: '', log_id: logId() } });
  const businessAnswer = (res: ServerResponse, code: number, message: string, data: unknown = {}, headers: Record<string, string> = {}) =>
    sendJson(res, 200, { code, message, request_id: logId(), data }, headers);

  const rateHeaders = () => ({
    'retry-after': String(TIKTOK_SIM_RETRY_AFTER_SECONDS),
    'x-ratelimit-limit': String(INIT_LIMIT_PER_MINUTE),
    'x-ratelimit-remaining': '0',
    'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + TIKTOK_SIM_RETRY_AFTER_SECONDS),
  });

  function applies(mode: TikTokFailureMode, route: Route): boolean {
    if ((INIT_MODES as readonly string[]).includes(mode) || (JOB_MODES as readonly string[]).includes(mode)) return route === 'init';
    if (mode === 'access_token_invalid' || mode === 'scope_not_authorized') return route === 'api' || route === 'init' || route === 'business';
    return route !== 'authorize';
  }

  /** A queued failure meant for a later kind of request waits for it instead of being lost. */
  function takeFailure(route: Route, popped: TikTokFailureMode | undefined): TikTokFailureMode | undefined {
    if (popped) deferred.push(popped);
    const i = deferred.findIndex((m) => applies(m, route));
    return i < 0 ? undefined : deferred.splice(i, 1)[0];
  }

  /** Answers a generic failure mode in the shape of the route's API; false when it is not generic. */
  function answerGeneric(mode: TikTokFailureMode, route: Route, res: ServerResponse): boolean {
    if (mode === 'bad_gateway') {
      sendText(res, 502, '<html><body><h1>502 Bad Gateway</h1></body></html>', 'text/html');
      return true;
    }
    const generic: Record<string, { status: number; message: string; business: number }> = {
      access_token_invalid: { status: 401, message: 'The access token is invalid or not found in the request.', business: 40105 },
      scope_not_authorized: { status: 401, message: 'The user did not authorize the scope required for completing this request.', business: 40001 },
      rate_limit_exceeded: { status: 429, message: 'The API rate limit was exceeded. Please try again later.', business: 40100 },
      internal_error: { status: 500, message: 'Something went wrong. Please try again later.', business: 50000 },
    };
    const answer = generic[mode];
    if (!answer) return false;
    const headers: Record<string, string> = mode === 'rate_limit_exceeded' ? rateHeaders() : {};
    if (route === 'business') businessAnswer(res, answer.business, answer.message, {}, headers);
    else if (route === 'token') oauthError(res, answer.status, mode === 'internal_error' ? 'server_error' : 'rate_limit_exceeded', answer.message);
    else v2Error(res, answer.status, mode, answer.message, headers);
    return true;
  }

  // --- OAuth ---------------------------------------------------------------------------------

  const { oauth, oauthError, tokensBody, grantOf } = createTikTokOAuth({ seeded, clients, accounts, accessTtlMs, refreshTtlMs, logId });
  const scopeList = (raw: string | undefined) => (raw ?? '').split(',').map((s) => s.trim()).filter(Boolean);

  function bearer(req: SimRequest): { token: string; grant: Grant } | undefined {
    const token = /^Bearer\s+(\S+)$/i.exec(String(req.headers.authorization ?? ''))?.[1];
    const stored = oauth.accessToken(token);
    return stored && { token: stored.value, grant: grantOf(stored) };
  }

  // --- Content Posting API ---------------------------------------------------------------------

  const USER_FIELDS = ['open_id', 'union_id', 'avatar_url', 'avatar_url_100', 'avatar_large_url', 'display_name', 'bio_description',
    'profile_deep_link', 'is_verified', 'username', 'follower_count', 'following_count', 'likes_count', 'video_count'];

  function userInfo(req: SimRequest, res: ServerResponse, grant: Grant) {
    if (!grant.scope.includes('user.info.basic')) return v2Error(res, 401, 'scope_not_authorized', 'user.info.basic is required.');
    const fields = scopeList(req.query.fields);
    const unknown = fields.filter((f) => !USER_FIELDS.includes(f));
    if (!fields.length || unknown.length) return v2Error(res, 400, 'invalid_params', `Invalid fields: ${unknown.join(',') || '(none)'}`);
    const a = accounts.get(grant.openId)!;
    const all: Record<string, unknown> = {
      open_id: a.openId, union_id: a.unionId, avatar_url: a.avatarUrl, avatar_url_100: a.avatarUrl, avatar_large_url: a.avatarUrl,
      display_name: a.displayName, bio_description: '', profile_deep_link: `https://vm.tiktok.com/${a.username}`, is_verified: false,
      username: a.username, ...analytics.userStats(a.openId),
    };
    const stats = ['follower_count', 'following_count', 'likes_count', 'video_count'];
    if (fields.some((f) => stats.includes(f)) && !grant.scope.includes('user.info.stats')) return v2Error(res, 401, 'scope_not_authorized', 'user.info.stats is required for the count fields.');
    return v2Ok(res, { user: Object.fromEntries(fields.map((f) => [f, all[f]])) });
  }

  function creatorInfo(res: ServerResponse, grant: Grant) {
    if (!grant.scope.includes('video.publish')) return v2Error(res, 401, 'scope_not_authorized', 'video.publish is required.');
    const a = accounts.get(grant.openId)!;
    return v2Ok(res, {
      creator_avatar_url: a.avatarUrl,
      creator_username: a.username,
      creator_nickname: a.displayName,
      privacy_level_options: a.privacyLevelOptions,
      comment_disabled: a.commentDisabled,
      duet_disabled: a.duetDisabled,
      stitch_disabled: a.stitchDisabled,
      max_video_post_duration_sec: a.maxVideoPostDurationSec,
    });
  }

  type Check = string | undefined;
  const bool = (info: Record<string, unknown>, key: string): Check =>
    info[key] === undefined || typeof info[key] === 'boolean' ? undefined : `post_info.${key} must be a boolean`;

  /** Capability-gated post_info fields (the spec's capability table). */
  const GATED: Record<string, string> = {
    music_id: 'music', music_volume: 'music', music_start_ms: 'music', music_end_ms: 'music', original_sound_volume: 'music',
    location_id: 'location', location_name: 'location', cover_image_url: 'cover_image', video_cover_timestamp_ms: 'cover_timestamp',
  };

  function checkPostInfo(info: Record<string, unknown>, allowed: string[], grant: Grant, titleMax: number): Check {
    const unknown = Object.keys(info).filter((k) => !allowed.includes(k));
    if (unknown.length) return `post_info has unknown fields: ${unknown.join(', ')}`;
    for (const key of ['title', 'description']) {
      if (info[key] !== undefined && typeof info[key] !== 'string') return `post_info.${key} must be a string`;
    }
    if (typeof info.title === 'string' && chars(info.title) > titleMax) return `post_info.title is longer than ${titleMax} characters`;
    if (typeof info.description === 'string' && chars(info.description) > 4000) return 'post_info.description is longer than 4000 characters';
    for (const key of ['disable_comment', 'disable_duet', 'disable_stitch', 'brand_content_toggle', 'brand_organic_toggle', 'is_aigc', 'auto_add_music']) {
      const bad = bool(info, key);
      if (bad) return bad;
    }
    for (const [key, capability] of Object.entries(GATED)) {
      if (info[key] !== undefined && !grant.capabilities.includes(capability)) return `post_info.${key} is not available for this connection`;
    }
    for (const key of ['music_volume', 'original_sound_volume']) {
      const v = info[key];
      if (v !== undefined && (!Number.isInteger(v) || (v as number) < 0 || (v as number) > 100)) return `post_info.${key} must be 0-100`;
    }
    for (const key of ['music_start_ms', 'music_end_ms', 'video_cover_timestamp_ms']) {
      const v = info[key];
      if (v !== undefined && (!Number.isInteger(v) || (v as number) < 0)) return `post_info.${key} must be a non-negative integer`;
    }
    if (info.location_id !== undefined && typeof info.location_name !== 'string') return 'post_info.location_name is required with location_id';
    if (info.cover_image_url !== undefined && !/^https?:\/\//.test(String(info.cover_image_url))) return 'post_info.cover_image_url must be a URL';
    return undefined;
  }

  function checkVideoSource(source: Record<string, unknown>): Check {
    if (source.source === 'PULL_FROM_URL') {
      return typeof source.video_url === 'string' && /^https?:\/\//.test(source.video_url) ? undefined : 'source_info.video_url must be a URL';
    }
    if (source.source !== 'FILE_UPLOAD') return 'source_info.source must be FILE_UPLOAD or PULL_FROM_URL';
    const { video_size: size, chunk_size: chunk, total_chunk_count: count } = source;
    if (!Number.isInteger(size) || !Number.isInteger(chunk) || !Number.isInteger(count)) {
      return 'source_info.video_size, chunk_size and total_chunk_count are required integers';
    }
    const [s, c, n] = [size as number, chunk as number, count as number];
    if (s <= 0 || s > MAX_VIDEO_BYTES) return 'source_info.video_size is out of range';
    // Media transfer guide: under 5 MB the file goes whole; otherwise 5–64 MB chunks, floor(size / chunk) of them.
    if (s < MIN_CHUNK) return c === s && n === 1 ? undefined : 'a video under 5 MB must be uploaded whole: chunk_size = video_size, total_chunk_count = 1';
    if (c < MIN_CHUNK || c > MAX_CHUNK) return c === s && s <= MAX_CHUNK && n === 1 ? undefined : 'source_info.chunk_size must be 5-64 MB';
    if (n !== Math.floor(s / c)) return 'source_info.total_chunk_count must be floor(video_size / chunk_size)';
    if (n < 1 || n > 1000) return 'source_info.total_chunk_count must be 1-1000';
    if (s - (n - 1) * c > MAX_LAST_CHUNK) return 'the last chunk would exceed 128 MB';
    return undefined;
  }

  function checkPhotoSource(source: Record<string, unknown>): Check {
    if (source.source !== 'PULL_FROM_URL') return 'source_info.source must be PULL_FROM_URL for photos';
    const images = source.photo_images;
    if (!Array.isArray(images) || images.length < 1 || images.length > 35 || images.some((u) => typeof u !== 'string' || !/^https?:\/\//.test(u))) {
      return 'source_info.photo_images must hold 1-35 URLs';
    }
    const cover = source.photo_cover_index;
    if (cover !== undefined && (!Number.isInteger(cover) || (cover as number) < 0 || (cover as number) >= images.length)) {
      return 'source_info.photo_cover_index is out of range';
    }
    return undefined;
  }

  const recent = (times: number[], windowMs: number) => times.filter((t) => t > Date.now() - windowMs);

  /** The account-level verdicts TikTok keeps on its side: post caps, draft backlog, active users. */
  function verdict(grant: Grant, mode: 'DIRECT_POST' | 'MEDIA_UPLOAD', privacy: unknown): [number, string, string] | undefined {
    const client = clients.get(grant.clientKey)!;
    jobs.forEach(settle);
    const today = [...jobs.values()].filter((j) => j.openId === grant.openId && j.status !== 'FAILED' && j.createdAt.getTime() > Date.now() - DAY_MS);
    if (mode === 'MEDIA_UPLOAD') {
      if (today.filter((j) => j.postMode === 'MEDIA_UPLOAD').length >= PENDING_DRAFTS_PER_DAY) {
        return [403, 'spam_risk_too_many_pending_share', 'Too many pending inbox shares in the last 24 hours.'];
      }
      return undefined;
    }
    if (!client.audited && privacy !== 'SELF_ONLY') {
      return [403, 'unaudited_client_can_only_post_to_private_accounts', 'Unaudited clients can only post SELF_ONLY content.'];
    }
    if (today.filter((j) => j.postMode === 'DIRECT_POST').length >= DIRECT_POSTS_PER_DAY) {
      return [403, 'spam_risk_too_many_posts', 'The daily post cap from the API is reached for the current user.'];
    }
    const users = activeUsers.get(client.clientKey) ?? new Map<string, number>();
    for (const [id, at] of users) if (at < Date.now() - DAY_MS) users.delete(id);
    if (!users.has(grant.openId) && users.size >= client.activeUserCap) {
      return [403, 'reached_active_user_cap', 'The daily active user cap of this client is reached.'];
    }
    return undefined;
  }

  const INIT_MODE_ANSWERS: Record<string, [number, string]> = {
    reached_active_user_cap: [403, 'The daily active user cap of this client is reached.'],
    spam_risk_too_many_posts: [403, 'The daily post cap from the API is reached for the current user.'],
    spam_risk_user_banned_from_posting: [403, 'The user is banned from making new posts.'],
    spam_risk_too_many_pending_share: [403, 'Too many pending inbox shares in the last 24 hours.'],
    spam_risk_text: [403, 'The text was flagged as spam risk.'],
    spam_risk: [403, 'The request was flagged as spam risk.'],
    privacy_level_option_mismatch: [400, 'privacy_level is not among the options of the creator.'],
    url_ownership_unverified: [403, 'The domain or URL prefix of the media URL is not verified for this client.'],
    unaudited_client_can_only_post_to_private_accounts: [403, 'Unaudited clients can only post to private accounts.'],
  };

  function initPost(req: SimRequest, res: ServerResponse, auth: { token: string; grant: Grant }, failure: TikTokFailureMode | undefined) {
    const { token: tok, grant } = auth;
    const path = req.path;
    const calls = recent(initCalls.get(tok) ?? [], 60_000);
    if (calls.length >= INIT_LIMIT_PER_MINUTE) {
      initCalls.set(tok, calls);
      return v2Error(res, 429, 'rate_limit_exceeded', 'The API rate limit was exceeded. Please try again later.', rateHeaders());
    }
    initCalls.set(tok, [...calls, Date.now()]);
    if (req.body.kind !== 'json' || !isRecord(req.body.value)) return v2Error(res, 400, 'invalid_params', 'The request body must be a JSON object.');
    const body = req.body.value;
    const photo = path.endsWith('/content/init/');
    const inbox = path.endsWith('/inbox/video/init/');
    const mode = inbox ? 'MEDIA_UPLOAD' : photo ? body.post_mode : 'DIRECT_POST';
    if (mode !== 'DIRECT_POST' && mode !== 'MEDIA_UPLOAD') return v2Error(res, 400, 'invalid_params', 'post_mode must be DIRECT_POST or MEDIA_UPLOAD.');
    const needed = mode === 'DIRECT_POST' ? 'video.publish' : 'video.upload';
    if (!grant.scope.includes(needed)) return v2Error(res, 401, 'scope_not_authorized', `${needed} is required.`);

    const allowedTop = inbox ? ['source_info'] : photo ? ['media_type', 'post_mode', 'post_info', 'source_info'] : ['post_info', 'source_info'];
    const unknownTop = Object.keys(body).filter((k) => !allowedTop.includes(k));
    if (unknownTop.length) return v2Error(res, 400, 'invalid_params', `Unknown fields: ${unknownTop.join(', ')}`);
    if (photo && body.media_type !== 'PHOTO') return v2Error(res, 400, 'invalid_params', 'media_type must be PHOTO.');
    const source = isRecord(body.source_info) ? body.source_info : undefined;
    if (!source) return v2Error(res, 400, 'invalid_params', 'source_info is required.');
    const sourceProblem = photo ? checkPhotoSource(source) : checkVideoSource(source);
    if (sourceProblem) return v2Error(res, 400, 'invalid_params', sourceProblem);

    const info = inbox ? {} : isRecord(body.post_info) ? body.post_info : undefined;
    if (!info) return v2Error(res, 400, 'invalid_params', 'post_info is required.');
    const account = accounts.get(grant.openId)!;
    if (mode === 'DIRECT_POST') {
      const allowed = photo
        ? ['title', 'description', 'privacy_level', 'disable_comment', 'auto_add_music', 'brand_content_toggle', 'brand_organic_toggle', 'is_aigc', 'music_id', 'location_id', 'location_name']
        : ['title', 'privacy_level', 'disable_duet', 'disable_comment', 'disable_stitch', 'video_cover_timestamp_ms', 'brand_content_toggle',
          'brand_organic_toggle', 'is_aigc', ...Object.keys(GATED)];
      const problem = checkPostInfo(info, allowed, grant, photo ? 90 : 2200);
      if (problem) return v2Error(res, 400, 'invalid_params', problem);
      if (!PRIVACY_LEVELS.includes(String(info.privacy_level))) return v2Error(res, 400, 'invalid_params', 'post_info.privacy_level is required: one of ' + PRIVACY_LEVELS.join(', '));
      if (!account.privacyLevelOptions.includes(String(info.privacy_level))) {
        return v2Error(res, 400, 'privacy_level_option_mismatch', 'privacy_level is not among the options of the creator.');
      }
    } else if (photo) {
      const problem = checkPostInfo(info, ['title', 'description', 'auto_add_music'], grant, 90);
      if (problem) return v2Error(res, 400, 'invalid_params', problem);
    }

    if (failure && INIT_MODE_ANSWERS[failure]) {
      const [status, message] = INIT_MODE_ANSWERS[failure];
      return v2Error(res, status, failure, message);
    }
    const refused = verdict(grant, mode, info.privacy_level);
    if (refused) return v2Error(res, refused[0], refused[1], refused[2]);

    const src = String(source.source) as 'FILE_UPLOAD' | 'PULL_FROM_URL';
    const prefix = `${photo ? 'p' : 'v'}_${mode === 'DIRECT_POST' ? 'pub' : 'inbox'}_${src === 'FILE_UPLOAD' ? 'file' : 'url'}`;
    const job: Job = {
      publishId: `${prefix}~v2-1.${itemId()}`,
      openId: grant.openId,
      token: tok,
      mediaType: photo ? 'PHOTO' : 'VIDEO',
      postMode: mode,
      source: src,
      postInfo: structuredClone(info),
      sourceInfo: structuredClone(source),
      status: src === 'FILE_UPLOAD' ? 'PROCESSING_UPLOAD' : 'PROCESSING_DOWNLOAD',
      uploadedBytes: 0,
      downloadedBytes: 0,
      chunksReceived: 0,
      createdAt: new Date(),
      hash: createHash('sha256'),
      head: Buffer.alloc(0),
      mediaSha256: [],
      ...(failure && failure.startsWith('job_') ? { forcedFailReason: failure.slice(4) } : {}),
    };
    jobs.set(job.publishId, job);
    if (mode === 'DIRECT_POST') {
      const users = activeUsers.get(grant.clientKey) ?? new Map<string, number>();
      users.set(grant.openId, Date.now());
      activeUsers.set(grant.clientKey, users);
    }
    if (src === 'FILE_UPLOAD') {
      job.uploadId = itemId();
      job.uploadToken = randomBytes(16).toString('hex');
      job.videoSize = source.video_size as number;
      job.chunkSize = source.chunk_size as number;
      job.totalChunks = source.total_chunk_count as number;
      uploads.set(job.uploadId, job);
      return v2Ok(res, { publish_id: job.publishId, upload_url: `${origin}/upload/video/?upload_id=${job.uploadId}&upload_token=${job.uploadToken}` });
    }
    void pull(job, photo ? (source.photo_images as string[]) : [source.video_url as string]);
    return v2Ok(res, { publish_id: job.publishId });
  }

  /** TikTok downloads PULL_FROM_URL media itself; a URL that does not answer fails the post. */
  async function pull(job: Job, urls: string[]) {
    const photo = job.mediaType === 'PHOTO';
    try {
      for (const url of urls) {
        const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
        if (!res.ok) throw new Error('pull');
        const bytes = Buffer.from(await res.arrayBuffer());
        const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
        const fits = photo
          ? ['image/jpeg', 'image/webp'].includes(type) && bytes.length <= MAX_PHOTO_BYTES && isJpegOrWebp(bytes)
          : type.startsWith('video/') && bytes.length <= MAX_VIDEO_BYTES && isVideoFile(bytes);
        if (!fits) {
          job.forcedFailReason ??= 'file_format_check_failed';
        }
        job.downloadedBytes += bytes.length;
        job.mediaSha256.push(createHash('sha256').update(bytes).digest('hex'));
      }
    } catch {
      job.forcedFailReason = photo ? 'photo_pull_failed' : 'video_pull_failed';
    }
    job.mediaReadyAt = Date.now();
  }

  function upload(req: SimRequest, res: ServerResponse) {
    const job = uploads.get(req.query.upload_id ?? '');
    if (!job || job.uploadToken !== req.query.upload_token) return v2Error(res, 404, 'invalid_params', 'Unknown upload_id or upload_token.');
    if (req.method !== 'PUT') return v2Error(res, 405, 'invalid_params', 'Use PUT.');
    if (job.mediaReadyAt !== undefined) return v2Error(res, 400, 'invalid_params', 'The upload is already complete.');
    if (req.body.kind === 'too_large') return v2Error(res, 413, 'invalid_file_upload', 'The chunk is too large.');
    const type = String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (!['video/mp4', 'video/quicktime', 'video/webm'].includes(type) || req.body.kind !== 'binary') {
      return v2Error(res, 400, 'invalid_file_upload', 'Content-Type must be video/mp4, video/quicktime or video/webm.');
    }
    const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(String(req.headers['content-range'] ?? ''));
    const size = job.videoSize!;
    const index = job.chunksReceived;
    const first = index * job.chunkSize!;
    const last = index === job.totalChunks! - 1 ? size - 1 : first + job.chunkSize! - 1;
    if (!range || Number(range[3]) !== size || Number(range[1]) !== first || Number(range[2]) !== last) {
      return v2Error(res, 416, 'invalid_params', `Expected Content-Range: bytes ${first}-${last}/${size} (chunks in order).`);
    }
    const data = req.body.data;
    if (data.length !== last - first + 1) return v2Error(res, 400, 'invalid_params', 'The body length does not match Content-Range.');
    job.hash.update(data);
    if (job.head.length < 16) job.head = Buffer.concat([job.head, data.subarray(0, 16)]);
    job.uploadedBytes += data.length;
    job.chunksReceived += 1;
    if (job.chunksReceived < job.totalChunks!) {
      res.writeHead(206, { 'content-length': 0 });
      return res.end();
    }
    job.mediaSha256.push(job.hash.digest('hex'));
    if (!isVideoFile(job.head)) job.forcedFailReason ??= 'file_format_check_failed';
    job.mediaReadyAt = Date.now();
    res.writeHead(201, { 'content-length': 0 });
    return res.end();
  }

  /** Moves a job on by the clock: processing ends `processingMs` after its media is all there. */
  function settle(job: Job) {
    if (job.mediaReadyAt === undefined || job.status === 'FAILED' || job.completedAt !== undefined) return;
    if (Date.now() < job.mediaReadyAt + processingMs) {
      job.status = 'PROCESSING_UPLOAD';
      return;
    }
    if (job.forcedFailReason) {
      job.status = 'FAILED';
      job.failReason = job.forcedFailReason;
      return;
    }
    job.completedAt = Date.now();
    job.status = job.postMode === 'DIRECT_POST' ? 'PUBLISH_COMPLETE' : 'SEND_TO_USER_INBOX';
    job.postId = itemId();
    posts.push({
      id: job.postId,
      publishId: job.publishId,
      openId: job.openId,
      mediaType: job.mediaType,
      state: job.postMode === 'DIRECT_POST' ? 'published' : 'inbox',
      postInfo: job.postInfo,
      mediaSha256: job.mediaSha256,
      mediaBytes: job.uploadedBytes + job.downloadedBytes,
      ...(job.mediaType === 'PHOTO' ? { photoCoverIndex: (job.sourceInfo.photo_cover_index as number | undefined) ?? 0 } : {}),
      createdAt: new Date(),
    });
  }

  function statusFetch(req: SimRequest, res: ServerResponse, grant: Grant) {
    if (!grant.scope.includes('video.publish') && !grant.scope.includes('video.upload')) {
      return v2Error(res, 401, 'scope_not_authorized', 'video.publish or video.upload is required.');
    }
    const publishId = req.body.kind === 'json' && isRecord(req.body.value) ? req.body.value.publish_id : undefined;
    const job = typeof publishId === 'string' ? jobs.get(publishId) : undefined;
    if (!job || job.openId !== grant.openId) return v2Error(res, 400, 'invalid_params', 'publish_id is invalid.');
    settle(job);
    const released = job.status === 'PUBLISH_COMPLETE' && Date.now() >= job.completedAt! + postIdDelayMs;
    return v2Ok(res, {
      status: job.status,
      ...(job.failReason ? { fail_reason: job.failReason } : {}),
      publicaly_available_post_id: released ? [int64(job.postId!)] : [],
      uploaded_bytes: job.uploadedBytes,
      downloaded_bytes: job.downloadedBytes,
    });
  }

  // --- API for Business: comments --------------------------------------------------------------

  const commentDeps: TikTokCommentDeps = {
    store: commentStore, posts, accounts, newId: () => itemId(), listingDelayMs: () => commentListingDelayMs,
    answer: (res, code, message, data) => businessAnswer(res, code, message, data),
  };

  function businessCall(req: SimRequest, res: ServerResponse) {
    jobs.forEach(settle);
    const stored = oauth.accessToken(String(req.headers['access-token'] ?? ''));
    if (!stored) return businessAnswer(res, 40105, 'Access token is invalid or has expired.');
    return tiktokCommentRoute(commentDeps, req, res, grantOf(stored));
  }

  // --- routing ---------------------------------------------------------------------------------

  function routeOf(path: string): Route | undefined {
    if (path === '/v2/auth/authorize/') return 'authorize';
    if (path === '/v2/oauth/token/') return 'token';
    if (path === '/upload/video/') return 'upload';
    if (isCommentPath(path) || analytics.isBusinessRead(path)) return 'business';
    if (/^\/v2\/post\/publish\/(video|inbox\/video|content)\/init\/$/.test(path)) return 'init';
    if (path === '/v2/user/info/' || path === '/v2/video/query/' || path === '/v2/post/publish/creator_info/query/' || path === '/v2/post/publish/status/fetch/') return 'api';
    if (path === '/v2/video/list/' || TIKTOK_LOOKUP_PATHS.includes(path)) return 'api';
    return undefined;
  }

  const host = await startSimulatorHost<TikTokFailureMode>({
    port: opts.port,
    // The last chunk of a video may be 128 MB.
    maxBodyBytes: MAX_LAST_CHUNK + MB,
    failureModes: TIKTOK_FAILURE_MODES,
    state: () => ({
      clients: [...clients.values()].map((c) => ({ clientKey: c.clientKey, audited: c.audited, redirectUris: c.redirectUris })),
      accounts: [...accounts.values()].map((a) => ({ openId: a.openId, username: a.username, capabilities: a.capabilities })),
      deferredFailures: [...deferred],
      jobCount: jobs.size,
      postCount: posts.length,
      commentCount: commentStore.all().length,
      commentListingDelayMs,
      processingMs,
      postIdDelayMs,
    }),
    controls: { comment: (body) => { seedTikTokComment(commentDeps, seedInputOf(body)); }, analytics_clock: clockControl(analytics.model) },
    reset: () => {
      jobs.clear();
      uploads.clear();
      posts.length = 0;
      commentStore.clear();
      initCalls.clear();
      activeUsers.clear();
      deferred.length = 0;
      processingMs = opts.processingMs ?? 50;
      postIdDelayMs = opts.postIdDelayMs ?? 0;
      commentListingDelayMs = opts.commentListingDelayMs ?? 10_000;
    },
    handle(req, res, popped) {
      const route = routeOf(req.path);
      if (!route) return v2Error(res, 404, 'invalid_params', `No such endpoint: ${req.method} ${req.path}`);
      const failure = takeFailure(route, popped);
      if (failure && answerGeneric(failure, route, res)) return;
      switch (route) {
        case 'authorize':
          if (req.method !== 'GET' && req.method !== 'POST') return sendText(res, 405, 'Method not allowed');
          return oauth.authorize(req, res);
        case 'token': return oauth.token(req, res);
        case 'upload': return upload(req, res);
        case 'business':
          if (analytics.isBusinessRead(req.path)) return analytics.business(req, res);
          return businessCall(req, res);
        default: break;
      }
      const auth = bearer(req);
      if (!auth) return v2Error(res, 401, 'access_token_invalid', 'The access token is invalid or not found in the request.');
      if (req.path === '/v2/user/info/') return req.method === 'GET' ? userInfo(req, res, auth.grant) : v2Error(res, 405, 'invalid_params', 'Use GET.');
      if (req.method !== 'POST') return v2Error(res, 405, 'invalid_params', 'Use POST.');
      if (req.path === '/v2/video/query/') return analytics.videoQuery(req, res, auth.grant);
      if (route === 'init') return initPost(req, res, auth, failure);
      if (req.path === '/v2/post/publish/creator_info/query/') return creatorInfo(res, auth.grant);
      if (TIKTOK_LOOKUP_PATHS.includes(req.path)) return tiktokLookup(req, res, auth.grant, { ok: v2Ok, error: v2Error });
      if (req.path === '/v2/video/list/') return listTikTokVideos(req, res, { grant: auth.grant, account: accounts.get(auth.grant.openId)!, posts, ok: v2Ok, error: v2Error });
      return statusFetch(req, res, auth.grant);
    },
  });
  origin = host.origin;

  const account = (openId: string) => {
    const a = accounts.get(openId);
    if (!a) throw new Error(`unknown TikTok account ${openId}`);
    return a;
  };
  const checkCapabilities = (capabilities: string[]) => {
    const groups = CAPABILITY_GROUPS.filter((g) => g.some((c) => capabilities.includes(c)));
    if (groups.length > 1) throw new Error(`capabilities ${capabilities.join(',')} mix the mutually exclusive groups ${CAPABILITY_GROUPS.map((g) => `{${g.join(', ')}}`).join(' and ')}`);
    return [...capabilities];
  };
  const settleAll = () => jobs.forEach(settle);
  const publicJob = (j: Job): TikTokPublishJob => ({
    publishId: j.publishId, openId: j.openId, mediaType: j.mediaType, postMode: j.postMode, source: j.source,
    postInfo: structuredClone(j.postInfo), sourceInfo: structuredClone(j.sourceInfo), status: j.status,
    ...(j.failReason ? { failReason: j.failReason } : {}),
    uploadedBytes: j.uploadedBytes, downloadedBytes: j.downloadedBytes, chunksReceived: j.chunksReceived, createdAt: j.createdAt,
  });

  return {
    port: host.port,
    origin,
    apiBase: origin,
    authBase: origin,
    businessApiBase: `${origin}/open_api`,
    get requests() { return host.requests; },
    analytics,
    createClient(input = {}) {
      const client: TikTokClientFixture = {
        clientKey: input.clientKey ?? `aw${hex('client-key', 14)}`,
        clientSecret: input.clientSecret ?? hex('client-secret', 32),
        redirectUris: input.redirectUris ?? [],
        audited: input.audited ?? true,
        activeUserCap: input.activeUserCap ?? (input.audited === false ? 5 : Number.MAX_SAFE_INTEGER),
      };
      clients.set(client.clientKey, client);
      return { ...client, redirectUris: [...client.redirectUris] };
    },
    createAccount(input) {
      const fixture: TikTokAccountFixture = {
        openId: uuid('open-id'),
        unionId: uuid('union-id'),
        username: input.username,
        displayName: input.displayName ?? input.username,
        avatarUrl: input.avatarUrl ?? `https://p16-sign.tiktokcdn-us.com/tos-useast5-avt-0068-tx/${hex('avatar', 32)}~c5_168x168.jpeg`,
        capabilities: checkCapabilities(input.capabilities ?? []),
        privacyLevelOptions: input.privacyLevelOptions ?? ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'],
        commentDisabled: input.commentDisabled ?? false,
        duetDisabled: input.duetDisabled ?? false,
        stitchDisabled: input.stitchDisabled ?? false,
        maxVideoPostDurationSec: input.maxVideoPostDurationSec ?? 600,
      };
      accounts.set(fixture.openId, fixture);
      return structuredClone(fixture);
    },
    setCapabilities(openId, capabilities) { account(openId).capabilities = checkCapabilities(capabilities); },
    setPrivacyLevelOptions(openId, options) { account(openId).privacyLevelOptions = [...options]; },
    issueAuthCode(openId, o) {
      account(openId);
      return oauth.issueCode(openId, { clientId: o.clientKey, redirectUri: o.redirectUri, scopes: scopeList(o.scope ?? DEFAULT_SCOPE),
        ...(o.codeChallenge ? { codeChallenge: o.codeChallenge } : {}) });
    },
    issueTokens(openId, o) {
      account(openId);
      const { access, refresh } = oauth.issueTokens({ accountId: openId, clientId: o.clientKey, scopes: scopeList(o.scope ?? DEFAULT_SCOPE) });
      return tokensBody(access, refresh!);
    },
    expireAccessTokens: (openId) => oauth.expireAccessTokens(openId),
    expireRefreshTokens: (openId) => oauth.expireRefreshTokens(openId),
    revokeTokens: (openId) => oauth.revoke(openId),
    setProcessingMs(ms) { processingMs = Math.max(0, ms); },
    setPostIdDelay(ms) { postIdDelayMs = Math.max(0, ms); },
    accounts: () => [...accounts.values()].map((a) => structuredClone(a)),
    posts(openId) {
      settleAll();
      return posts.filter((p) => openId === undefined || p.openId === openId).map((p) => structuredClone(p));
    },
    publishJobs(openId) {
      settleAll();
      return [...jobs.values()].filter((j) => openId === undefined || j.openId === openId).map(publicJob);
    },
    comments: (videoId) => commentStore.all(videoId).map((c) => publicComment(commentDeps, c)),
    seedComment: (input) => publicComment(commentDeps, seedTikTokComment(commentDeps, input)),
    setCommentListingDelay(ms) { commentListingDelayMs = Math.max(0, ms); },
    fail: (mode, times) => host.fail(mode, times),
    setLatency: (ms) => host.setLatency(ms),
    state: () => host.state(),
    reset: () => host.reset(),
    close: () => host.close(),
  };
}
