/**
 * Loopback simulator of the YouTube Data API v3 and Google OAuth 2, on one origin:
 * - `GET|POST /o/oauth2/v2/auth`: a small consent page for the sandbox channels (302 back with code & state);
 * - `POST /token`: authorization_code (PKCE S256 or plain checked) and refresh_token grants, Google's
 *   OAuth error bodies; refresh tokens rotate only with `rotateRefreshTokens`, as Google usually doesn't;
 * - `GET /youtube/v3/channels?mine=true`, `GET /youtube/v3/videos` (status, processingDetails),
 *   `POST /youtube/v3/playlistItems`, `POST /youtube/v3/commentThreads`;
 * - resumable uploads `POST /upload/youtube/v3/videos|captions?uploadType=resumable` → Location
 *   session → `PUT` chunks (`Content-Range`, 256 KiB multiples, 308 + Range, `bytes *\/total` status
 *   query), and `POST /upload/youtube/v3/thumbnails/set` (raw image bytes).
 * Errors have Google's shape `{error:{code, message, errors:[{message, domain, reason}], status}}`.
 * Uploaded videos "process" for `processingMs`; files that are not a video fail processing.
 */
import { listPlaylistItems, uploadsPlaylistOf } from './media';
import { createYoutubeOAuth } from './oauth';
import { oauthError } from '../kit/oauth';
import type { ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import { createSeededSource, sendJson, sendText, startSimulatorHost, type SimRequest } from '../kit/http';
import { clockControl, createAnalyticsModel } from '../kit/metrics';
import { createYoutubeAnalytics, YOUTUBE_ANALYTICS_SCOPE } from './analytics';
import {
  YOUTUBE_FAILURE_MODES, YOUTUBE_SIM_RETRY_AFTER_SECONDS,
  type SimCaption, type SimChannel, type SimComment, type SimPlaylistItem, type SimVideo, type YoutubeFailureMode, type YoutubeSimulator,
  type YoutubeSimulatorOptions,
} from './types';
import {
  apiError, applies, ASSIGNABLE_CATEGORIES, CHUNK_UNIT, imageKind, LANGUAGE, looksLikeVideo,
  MAX_VIDEO_BYTES, SCOPE, tagsLength, THUMBNAIL_MAX_BYTES,
  type RouteKind, type Session,
} from './wire';

import { createYoutubePosts } from './posts';
import { createCommentStore, seedInputOf, type SeedCommentInput, type SimComment as StoredComment } from '../kit/comments';
import { insertCommentThread, youtubeCommentRoute, type YoutubeCommentDeps } from './comments';

export * from './types';

export async function startYoutubeSimulator(opts: YoutubeSimulatorOptions = {}): Promise<YoutubeSimulator> {
  const seeded = createSeededSource(opts.seed);
  const processingMs = opts.processingMs ?? 50;
  const ttlSeconds = opts.accessTokenTtlSeconds ?? 3599;
  const id = (kind: string, length: number) => seeded(kind).toString('base64url').slice(0, length);

  const channels = new Map<string, SimChannel>();
  const playlists = new Map<string, { id: string; channelId: string; title: string }>();
  const sessions = new Map<string, Session>();
  const videos = new Map<string, SimVideo>();
  const commentStore = createCommentStore();
  const banned = new Map<string, Set<string>>();
  const commentDeps: YoutubeCommentDeps = { store: commentStore, videos, banned, newId: (kind, n) => id(kind, n) };
  const captions: SimCaption[] = [];
  const playlistItems: SimPlaylistItem[] = [];
  const deferred: YoutubeFailureMode[] = [];
  let origin = '';
  const analytics = createYoutubeAnalytics({ model: createAnalyticsModel(opts.seed), videos: () => videos.values(), commentCount: (videoId) => commentStore.all(videoId).length, apiError });

  const { oauth, createClient } = createYoutubeOAuth({ seeded, channels, ttlSeconds, rotate: opts.rotateRefreshTokens ?? false });

  function token(req: SimRequest, res: ServerResponse, failure: YoutubeFailureMode | undefined) {
    switch (failure) {
      case 'token_revoked': return oauthError(res, 400, 'invalid_grant', 'Token has been expired or revoked.');
      case 'rate_limited': return oauthError(res, 429, 'rate_limit_exceeded', 'Rate limit exceeded.');
      case 'server_error': return oauthError(res, 500, 'internal_failure', 'Internal failure.');
      case 'service_unavailable': return oauthError(res, 503, 'temporarily_unavailable', 'Service unavailable.');
      default: return oauth.token(req, res);
    }
  }

  // ---------------------------------------------------------------- Data API

  /** The channel behind the bearer token, if it may use one of `scopes`; otherwise the 401/403 is sent. */
  function authorize(req: SimRequest, res: ServerResponse, scopes: string[]): SimChannel | undefined {
    const check = oauth.bearer(req, scopes);
    if (check.kind === 'missing') {
      return void sendJson(res, 401, { error: { code: 401, message: 'Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential.', errors: [{ message: 'Login Required.', domain: 'global', reason: 'required', location: 'Authorization', locationType: 'header' }], status: 'UNAUTHENTICATED' } });
    }
    if (check.kind === 'scope') return void apiError(res, 403, 'insufficientPermissions', 'Request had insufficient authentication scopes.', 'global');
    if (check.kind !== 'ok') return void invalidCredentials(res);
    return channels.get(check.grant.accountId);
  }

  const invalidCredentials = (res: ServerResponse) => sendJson(res, 401, { error: { code: 401, message: 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.', errors: [{ message: 'Invalid Credentials', domain: 'global', reason: 'authError', location: 'Authorization', locationType: 'header' }], status: 'UNAUTHENTICATED' } });

  const jsonBody = (req: SimRequest): Record<string, unknown> | undefined =>
    (req.body.kind === 'json' && req.body.value && typeof req.body.value === 'object' && !Array.isArray(req.body.value) ? req.body.value as Record<string, unknown> : undefined);
  const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? v as Record<string, unknown> : {});

  function thumbnailsOf(url: string) {
    return { default: { url, width: 120, height: 90 }, medium: { url, width: 320, height: 180 }, high: { url, width: 480, height: 360 } };
  }

  function channelResource(c: SimChannel) {
    return {
      kind: 'youtube#channel', etag: id('etag', 27), id: c.id,
      snippet: {
        title: c.title, description: '', customUrl: c.handle, publishedAt: '2020-01-01T00:00:00Z',
        thumbnails: { default: { url: c.avatarUrl, width: 88, height: 88 }, medium: { url: c.avatarUrl, width: 240, height: 240 }, high: { url: c.avatarUrl, width: 800, height: 800 } },
        localized: { title: c.title, description: '' },
      },
    };
  }

  const posts = createYoutubePosts({ videos, videoResource: (v, parts) => videoResource(v, parts) });

  /** The video as videos.list and the final upload PUT return it, with the parts asked for. */
  function videoResource(v: SimVideo, parts: string[]) {
    const snippet = obj(v.resource.snippet);
    const status = obj(v.resource.status);
    const channel = channels.get(v.channelId)!;
    const done = Date.now() - v.createdAt.getTime() >= processingMs;
    const uploadStatus = !done ? 'uploaded' : v.outcome === 'processed' ? 'processed' : v.outcome;
    const out: Record<string, unknown> = { kind: 'youtube#video', etag: id('etag', 27), id: v.id };
    if (parts.includes('snippet')) {
      out.snippet = {
        publishedAt: v.createdAt.toISOString(), channelId: v.channelId, title: snippet.title, description: snippet.description ?? '',
        thumbnails: thumbnailsOf(`https://i.ytimg.com/vi/${v.id}/default.jpg`), channelTitle: channel.title,
        ...(snippet.tags ? { tags: snippet.tags } : {}), categoryId: snippet.categoryId ?? '22', liveBroadcastContent: 'none',
        ...(snippet.defaultLanguage ? { defaultLanguage: snippet.defaultLanguage } : {}),
        localized: { title: snippet.title, description: snippet.description ?? '' },
        ...(snippet.defaultAudioLanguage ? { defaultAudioLanguage: snippet.defaultAudioLanguage } : {}),
      };
    }
    if (parts.includes('status')) {
      out.status = {
        uploadStatus,
        ...(uploadStatus === 'failed' ? { failureReason: v.failureReason } : {}),
        ...(uploadStatus === 'rejected' ? { rejectionReason: v.failureReason } : {}),
        privacyStatus: status.privacyStatus ?? 'public', license: status.license ?? 'youtube', embeddable: status.embeddable ?? true,
        publicStatsViewable: status.publicStatsViewable ?? true, madeForKids: status.selfDeclaredMadeForKids === true,
        selfDeclaredMadeForKids: status.selfDeclaredMadeForKids === true,
        containsSyntheticMedia: status.containsSyntheticMedia === true,
        ...(status.publishAt ? { publishAt: status.publishAt } : {}),
      };
    }
    if (parts.includes('processingDetails')) {
      const elapsed = Math.min(processingMs, Date.now() - v.createdAt.getTime());
      out.processingDetails = !done
        ? { processingStatus: 'processing', processingProgress: { partsTotal: 1000, partsProcessed: Math.floor((1000 * elapsed) / Math.max(1, processingMs)), timeLeftMs: processingMs - elapsed } }
        : v.outcome === 'processed' ? { processingStatus: 'succeeded' }
        : { processingStatus: v.outcome === 'failed' ? 'failed' : 'terminated', ...(v.outcome === 'failed' ? { processingFailureReason: 'transcodeFailed' } : {}) };
    }
    // What YouTube derives from the file; regionRestriction appears only where YouTube Studio or a
    // content owner set one, which an upload through the Data API cannot.
    if (parts.includes('contentDetails')) out.contentDetails = { duration: 'PT0S', dimension: '2d', definition: 'hd', caption: 'false', licensedContent: false, projection: 'rectangular' };
    if (parts.includes('paidProductPlacementDetails')) out.paidProductPlacementDetails = v.resource.paidProductPlacementDetails ?? { hasPaidProductPlacement: false };
    if (parts.includes('recordingDetails')) out.recordingDetails = v.resource.recordingDetails ?? {};
    return out;
  }

  /** Checks a video resource as videos.insert does; returns the error sent, or undefined. */
  function invalidVideo(res: ServerResponse, resource: Record<string, unknown>, parts: string[]): true | undefined {
    const bad = (reason: string, message: string) => { apiError(res, 400, reason, message, 'youtube.video'); return true as const; };
    const unknownPart = Object.keys(resource).find((k) => !['kind', 'etag', 'id'].includes(k) && !parts.includes(k));
    if (unknownPart) return bad('unexpectedPart', `The request body has ${unknownPart}, which the part parameter does not name.`);
    const snippet = obj(resource.snippet);
    const status = obj(resource.status);
    const title = snippet.title;
    if (typeof title !== 'string' || !title.trim() || [...title].length > 100 || /[<>]/.test(title)) {
      return bad('invalidTitle', 'The request metadata specifies an invalid or empty video title.');
    }
    const description = snippet.description ?? '';
    if (typeof description !== 'string' || Buffer.byteLength(description) > 5000 || /[<>]/.test(description)) {
      return bad('invalidDescription', 'The request metadata specifies an invalid video description.');
    }
    const tags = snippet.tags ?? [];
    if (!Array.isArray(tags) || tags.some((t) => typeof t !== 'string' || /[<>]/.test(t)) || tagsLength(tags as string[]) > 500) {
      return bad('invalidTags', 'The request metadata specifies invalid video keywords.');
    }
    if (snippet.categoryId !== undefined && !ASSIGNABLE_CATEGORIES.includes(String(snippet.categoryId))) {
      return bad('invalidCategoryId', 'The snippet.categoryId property specifies an invalid category ID.');
    }
    for (const lang of ['defaultLanguage', 'defaultAudioLanguage']) {
      if (snippet[lang] !== undefined && (typeof snippet[lang] !== 'string' || !LANGUAGE.test(snippet[lang] as string))) {
        return bad('invalidVideoMetadata', `The request metadata has an invalid snippet.${lang}.`);
      }
    }
    if (status.privacyStatus !== undefined && !['public', 'unlisted', 'private'].includes(status.privacyStatus as string)) {
      return bad('invalidVideoMetadata', 'The request metadata has an invalid status.privacyStatus.');
    }
    if (status.license !== undefined && !['youtube', 'creativeCommon'].includes(status.license as string)) {
      return bad('invalidVideoMetadata', 'The request metadata has an invalid status.license.');
    }
    for (const flag of ['embeddable', 'publicStatsViewable', 'selfDeclaredMadeForKids', 'containsSyntheticMedia']) {
      if (status[flag] !== undefined && typeof status[flag] !== 'boolean') return bad('invalidVideoMetadata', `status.${flag} must be a boolean.`);
    }
    if (status.publishAt !== undefined) {
      const at = Date.parse(String(status.publishAt));
      if (status.privacyStatus !== 'private' || !Number.isFinite(at) || at <= Date.now()) {
        return bad('invalidPublishAt', 'The request metadata specifies an invalid scheduled publishing time.');
      }
    }
    const placement = obj(resource.paidProductPlacementDetails);
    if (placement.hasPaidProductPlacement !== undefined && typeof placement.hasPaidProductPlacement !== 'boolean') {
      return bad('invalidVideoMetadata', 'paidProductPlacementDetails.hasPaidProductPlacement must be a boolean.');
    }
    const recording = obj(resource.recordingDetails);
    if (recording.recordingDate !== undefined && !Number.isFinite(Date.parse(String(recording.recordingDate)))) {
      return bad('invalidRecordingDetails', 'The recordingDetails object specifies an invalid recording date.');
    }
    return undefined;
  }

  /** POST /upload/youtube/v3/{videos,captions}?uploadType=resumable: a session URI in Location. */
  function openSession(req: SimRequest, res: ServerResponse, channel: SimChannel, kind: Session['kind'], failure: YoutubeFailureMode | undefined) {
    if (req.query.uploadType !== 'resumable') return apiError(res, 400, 'badRequest', 'This simulator takes uploadType=resumable only.', 'global');
    const resource = jsonBody(req);
    if (!resource) return apiError(res, 400, 'parseError', 'The request body must be a JSON resource.', 'global');
    const parts = (req.query.part ?? '').split(',').map((p) => p.trim()).filter(Boolean);
    if (!parts.length) return apiError(res, 400, 'required', 'Required parameter: part', 'global');
    const total = Number(req.headers['x-upload-content-length']);
    if (!Number.isInteger(total) || total <= 0) return apiError(res, 400, 'badContent', 'X-Upload-Content-Length must be the size of the file in bytes.', 'global');
    const contentType = String(req.headers['x-upload-content-type'] ?? 'application/octet-stream').toLowerCase();

    let verdict: Session['verdict'];
    if (kind === 'video') {
      switch (failure) {
        case 'upload_limit_exceeded': return apiError(res, 400, 'uploadLimitExceeded', 'The user has exceeded the number of videos they may upload.', 'youtube.video');
        case 'invalid_title': return apiError(res, 400, 'invalidTitle', 'The request metadata specifies an invalid or empty video title.', 'youtube.video');
        case 'invalid_description': return apiError(res, 400, 'invalidDescription', 'The request metadata specifies an invalid video description.', 'youtube.video');
        case 'invalid_tags': return apiError(res, 400, 'invalidTags', 'The request metadata specifies invalid video keywords.', 'youtube.video');
        case 'processing_failed': verdict = 'failed'; break;
        case 'processing_rejected': verdict = 'rejected'; break;
        default: break;
      }
      if (total > MAX_VIDEO_BYTES) return apiError(res, 400, 'badContent', 'The file is larger than 256 GB.', 'global');
      if (!contentType.startsWith('video/') && contentType !== 'application/octet-stream') {
        return apiError(res, 400, 'badContent', `Media type '${contentType}' is not supported. Valid media types: [video/*, application/octet-stream]`, 'global');
      }
      if (invalidVideo(res, resource, parts)) return;
      if (channel.uploads >= channel.dailyUploadLimit) {
        return apiError(res, 400, 'uploadLimitExceeded', 'The user has exceeded the number of videos they may upload.', 'youtube.video');
      }
    } else {
      const snippet = obj(resource.snippet);
      const video = videos.get(String(snippet.videoId ?? ''));
      if (!video) return apiError(res, 404, 'videoNotFound', 'The video identified by the videoId parameter could not be found.', 'youtube.caption');
      if (video.channelId !== channel.id) return apiError(res, 403, 'forbidden', 'The permissions associated with the request are not sufficient to upload the caption track.', 'youtube.caption');
      if (typeof snippet.language !== 'string' || !LANGUAGE.test(snippet.language)) return apiError(res, 400, 'invalidMetadata', 'The request contains invalid metadata values: snippet.language.', 'youtube.caption');
      if (typeof snippet.name !== 'string' || [...snippet.name].length > 150) return apiError(res, 400, 'nameTooLong', 'The snippet.name specified in the request is too long.', 'youtube.caption');
      if (captions.some((c) => c.videoId === video.id && c.language === snippet.language && c.name === snippet.name)) {
        return apiError(res, 409, 'captionExists', 'The specified video already has a caption track with the given snippet.language and snippet.name.', 'youtube.caption');
      }
    }
    const uploadId = id('upload', 40);
    sessions.set(uploadId, { kind, channelId: channel.id, query: { ...req.query }, resource, total, contentType, chunks: [], received: 0, verdict });
    const path = kind === 'video' ? '/upload/youtube/v3/videos' : '/upload/youtube/v3/captions';
    const location = `${origin}${path}?uploadType=resumable&part=${encodeURIComponent(req.query.part!)}&upload_id=${uploadId}`;
    res.writeHead(200, { location, 'x-guploader-uploadid': uploadId, 'content-length': 0 });
    res.end();
  }

  /**
   * What videos.insert keeps of a resource: snippet, status, recordingDetails, localizations and
   * paidProductPlacementDetails are writable; contentDetails (regionRestriction included) is
   * read-only, and YouTube drops it without an error.
   */
  function writableParts(resource: Record<string, unknown>): Record<string, unknown> {
    const { contentDetails: _readOnly, ...kept } = resource;
    return kept;
  }

  /** The last byte arrived: the video or caption exists from now on. */
  function complete(session: Session): Record<string, unknown> {
    const bytes = Buffer.concat(session.chunks);
    session.chunks = [];
    const channel = channels.get(session.channelId)!;
    if (session.kind === 'caption') {
      const snippet = obj(session.resource.snippet);
      const caption: SimCaption = {
        id: `AUieDa${id('caption', 38)}`, videoId: String(snippet.videoId), language: String(snippet.language), name: String(snippet.name),
        isDraft: snippet.isDraft === true, size: bytes.length, text: bytes.toString('utf8'),
      };
      captions.push(caption);
      return {
        kind: 'youtube#caption', etag: id('etag', 27), id: caption.id,
        snippet: { videoId: caption.videoId, lastUpdated: new Date().toISOString(), trackKind: 'standard', language: caption.language, name: caption.name, audioTrackType: 'unknown', isCC: false, isLarge: false, isEasyReader: false, isDraft: caption.isDraft, isAutoSynced: false, status: 'serving' },
      };
    }
    const fileIsVideo = looksLikeVideo(bytes.subarray(0, 16));
    const video: SimVideo = {
      id: id('video', 11), channelId: channel.id, query: session.query, resource: writableParts(session.resource), contentType: session.contentType,
      size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex'), createdAt: new Date(),
      outcome: !fileIsVideo ? 'failed' : session.verdict ?? 'processed',
      ...(!fileIsVideo ? { failureReason: 'invalidFile' } : session.verdict === 'failed' ? { failureReason: 'codec' } : session.verdict === 'rejected' ? { failureReason: 'duplicate' } : {}),
    };
    videos.set(video.id, video);
    channel.uploads += 1;
    return videoResource(video, (session.query.part ?? 'snippet,status').split(','));
  }

  /** PUT to a session: a chunk with `Content-Range: bytes a-b/total`, or `bytes *\/total` to ask what arrived. */
  function putSession(req: SimRequest, res: ServerResponse, channel: SimChannel, failure: YoutubeFailureMode | undefined) {
    const session = sessions.get(req.query.upload_id ?? '');
    if (!session || failure === 'session_expired') return apiError(res, 404, 'notFound', 'The upload session was not found or has expired.', 'global');
    if (session.channelId !== channel.id) return apiError(res, 403, 'forbidden', 'The upload session belongs to another channel.', 'global');
    const range = /^bytes (?:(\d+)-(\d+)|\*)\/(\d+)$/.exec(String(req.headers['content-range'] ?? ''));
    if (!range || Number(range[3]) !== session.total) return apiError(res, 400, 'badContent', 'Failed to parse Content-Range header.', 'global');
    const status = () => {
      if (session.result) return sendJson(res, 201, session.result);
      res.writeHead(308, { ...(session.received > 0 ? { range: `bytes=0-${session.received - 1}` } : {}), 'content-length': 0 });
      res.end();
    };
    if (range[1] === undefined) return status();

    if (req.body.kind === 'too_large') return apiError(res, 413, 'uploadTooLarge', 'The chunk is larger than this simulator takes.', 'global');
    const data = req.body.kind === 'binary' ? req.body.data : req.body.kind === 'empty' ? Buffer.alloc(0) : undefined;
    if (!data) return apiError(res, 400, 'badContent', 'Chunks are raw bytes (video/* or application/octet-stream).', 'global');
    const start = Number(range[1]);
    const end = Number(range[2]);
    if (session.result) return status();
    if (start !== session.received) return apiError(res, 400, 'badContent', `The chunk starts at ${start}; the session holds ${session.received} bytes.`, 'global');
    if (end < start || end >= session.total || data.length !== end - start + 1) {
      return apiError(res, 400, 'badContent', 'The body length does not match the Content-Range.', 'global');
    }
    const last = end + 1 === session.total;
    if (!last && data.length % CHUNK_UNIT !== 0) return apiError(res, 400, 'badContent', `Chunks other than the last must be a multiple of ${CHUNK_UNIT} bytes.`, 'global');
    session.chunks.push(data);
    session.received += data.length;
    if (last) session.result = complete(session);
    // The bytes are kept, the answer is lost: the client must ask the session where it stands.
    if (failure === 'upload_interrupted') return void res.destroy();
    return status();
  }

  function thumbnailsSet(req: SimRequest, res: ServerResponse, channel: SimChannel) {
    const video = videos.get(req.query.videoId ?? '');
    if (!video) return apiError(res, 404, 'videoNotFound', 'The video that you are trying to update cannot be found.', 'youtube.thumbnail');
    if (video.channelId !== channel.id) return apiError(res, 403, 'forbidden', 'The thumbnail can\'t be set for the specified video.', 'youtube.thumbnail');
    if (!channel.verified) return apiError(res, 403, 'forbidden', 'The authenticated user doesn\'t have permissions to upload and set custom video thumbnails.', 'youtube.thumbnail');
    if (req.body.kind === 'too_large') return apiError(res, 413, 'mediaBodyTooLarge', `Media larger than: ${THUMBNAIL_MAX_BYTES}`, 'global');
    if (req.body.kind !== 'binary') return apiError(res, 400, 'mediaBodyRequired', 'The request does not include the image content.', 'youtube.thumbnail');
    const type = req.body.contentType;
    if (!['image/jpeg', 'image/png', 'application/octet-stream'].includes(type)) {
      return apiError(res, 400, 'badContent', `Media type '${type}' is not supported. Valid media types: [image/jpeg, image/png, application/octet-stream]`, 'global');
    }
    if (req.body.data.length > THUMBNAIL_MAX_BYTES) return apiError(res, 413, 'mediaBodyTooLarge', `Media larger than: ${THUMBNAIL_MAX_BYTES}`, 'global');
    const kind = imageKind(req.body.data);
    if (!kind) return apiError(res, 400, 'invalidImage', 'The provided image content is invalid.', 'youtube.thumbnail');
    video.thumbnail = { contentType: `image/${kind}`, size: req.body.data.length };
    sendJson(res, 200, { kind: 'youtube#thumbnailSetResponse', etag: id('etag', 27), items: [thumbnailsOf(`https://i.ytimg.com/vi/${video.id}/custom.jpg`)] });
  }

  function insertPlaylistItem(req: SimRequest, res: ServerResponse, channel: SimChannel) {
    const snippet = obj(jsonBody(req)?.snippet);
    const resourceId = obj(snippet.resourceId);
    if (typeof snippet.playlistId !== 'string' || !snippet.playlistId) return apiError(res, 400, 'playlistIdRequired', 'The request does not specify a playlist ID.', 'youtube.playlistItem');
    const playlist = playlists.get(snippet.playlistId);
    if (!playlist) return apiError(res, 404, 'playlistNotFound', 'The playlist identified with the request\'s playlistId parameter cannot be found.', 'youtube.playlistItem');
    if (playlist.channelId !== channel.id) return apiError(res, 403, 'playlistItemsNotAccessible', 'The request is not properly authorized to insert the specified playlist item.', 'youtube.playlistItem');
    if (resourceId.kind !== 'youtube#video') return apiError(res, 400, 'invalidResourceType', 'The type ID specified in the resource ID is not supported.', 'youtube.playlistItem');
    const video = videos.get(String(resourceId.videoId ?? ''));
    if (!video) return apiError(res, 404, 'videoNotFound', 'The video that you are trying to add to the playlist cannot be found.', 'youtube.playlistItem');
    const item: SimPlaylistItem = { id: id('playlistItem', 40), playlistId: playlist.id, videoId: video.id, position: playlistItems.filter((i) => i.playlistId === playlist.id).length };
    playlistItems.push(item);
    sendJson(res, 200, {
      kind: 'youtube#playlistItem', etag: id('etag', 27), id: item.id,
      snippet: {
        publishedAt: new Date().toISOString(), channelId: channel.id, title: obj(video.resource.snippet).title, description: obj(video.resource.snippet).description ?? '',
        thumbnails: thumbnailsOf(`https://i.ytimg.com/vi/${video.id}/default.jpg`), channelTitle: channel.title, playlistId: playlist.id,
        position: item.position, resourceId: { kind: 'youtube#video', videoId: video.id }, videoOwnerChannelTitle: channel.title, videoOwnerChannelId: channel.id,
      },
    });
  }

  /** A comment by another YouTube user under a video (`POST /__sim/comment`). */
  function seedComment(input: SeedCommentInput): SimComment {
    if (!videos.has(input.postId)) throw new Error(`no video ${input.postId}`);
    const parent = input.parentId ? commentStore.get(input.parentId) : undefined;
    if (input.parentId && parent?.postId !== input.postId) throw new Error(`no comment ${input.parentId} under ${input.postId}`);
    const authorId = input.authorId ?? `UC${id('fan', 22)}`;
    const c = commentStore.add({
      ...input, id: parent ? `${parent.id}.${id('reply', 22)}` : `Ug${id('comment', 24)}4AaABAg`, authorId, authorName: input.authorName ?? '@a_viewer',
      // A banned author's new comments are rejected at once.
      ...([...banned.values()].some((set) => set.has(authorId)) ? { moderation: 'rejected' as const } : {}),
    });
    return simComment(c);
  }
  const simComment = (c: StoredComment): SimComment => ({
    id: c.id, videoId: c.postId, channelId: c.authorId, text: c.text, publishedAt: c.createdAt.toISOString(),
    moderationStatus: c.moderation, ...(c.parentId ? { parentId: c.parentId } : {}),
  });

  function routeOf(req: SimRequest): RouteKind {
    if (req.path === '/o/oauth2/v2/auth') return 'page';
    if (req.path === '/token') return 'token';
    if (req.path === '/upload/youtube/v3/videos' && req.method === 'POST') return 'video_init';
    if (req.method === 'PUT' && req.path.startsWith('/upload/youtube/v3/')) return 'session_put';
    return 'api';
  }

  const host = await startSimulatorHost<YoutubeFailureMode>({
    port: opts.port,
    maxBodyBytes: 64 * 1024 * 1024,
    failureModes: YOUTUBE_FAILURE_MODES,
    state: () => ({
      channels: [...channels.values()].map((c) => ({ id: c.id, title: c.title, handle: c.handle, verified: c.verified, uploads: c.uploads })),
      deferredFailures: [...deferred],
      videoCount: videos.size,
      sessionCount: sessions.size,
      commentCount: commentStore.all().length,
      captionCount: captions.length,
      playlistItemCount: playlistItems.length,
    }),
    controls: { comment: (body) => { seedComment(seedInputOf(body)); }, analytics_clock: clockControl(analytics.model) },
    reset: () => {
      sessions.clear();
      videos.clear();
      commentStore.clear();
      banned.clear();
      captions.length = 0;
      playlistItems.length = 0;
      deferred.length = 0;
      for (const c of channels.values()) c.uploads = 0;
    },
    handle(req, res, queued) {
      const route = routeOf(req);
      let failure = queued;
      if (failure && !applies(failure, route)) {
        deferred.push(failure);
        failure = undefined;
      }
      if (!failure) {
        const waiting = deferred.findIndex((m) => applies(m, route));
        if (waiting >= 0) failure = deferred.splice(waiting, 1)[0];
      }

      if (route === 'page') {
        if (req.method === 'GET') return oauth.page(req, res);
        if (req.method === 'POST') return oauth.answer(req, res);
        return sendText(res, 405, 'method not allowed');
      }
      if (route === 'token') return req.method === 'POST' ? token(req, res, failure) : oauthError(res, 405, 'invalid_request', 'POST only');

      switch (failure) {
        case 'token_expired':
        case 'token_revoked': return invalidCredentials(res);
        case 'quota_exceeded': return apiError(res, 403, 'quotaExceeded', 'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.', 'youtube.quota');
        case 'rate_limited': return apiError(res, 429, 'rateLimitExceeded', 'Too many requests.', 'youtube.api', { 'retry-after': String(YOUTUBE_SIM_RETRY_AFTER_SECONDS) });
        case 'server_error': return apiError(res, 500, 'backendError', 'Backend Error', 'global');
        case 'service_unavailable': return apiError(res, 503, 'backendError', 'The service is currently unavailable.', 'global');
        case 'forbidden': return apiError(res, 403, 'forbidden', 'Forbidden', 'youtube.common');
        case 'insufficient_permissions': return apiError(res, 403, 'insufficientPermissions', 'Request had insufficient authentication scopes.', 'global');
        default: break;
      }

      const key = `${req.method} ${req.path}`;
      const anyOf = (...scopes: string[]) => authorize(req, res, scopes);
      let channel: SimChannel | undefined;
      switch (key) {
        case 'GET /youtube/v3/channels':
          if (!(channel = anyOf(SCOPE.forceSsl, SCOPE.youtube, SCOPE.readonly))) return;
          if (req.query.mine !== 'true') return apiError(res, 400, 'missingRequiredParameter', 'No filter selected. Expected one of: mine, id, forHandle.', 'youtube.parameter');
          return sendJson(res, 200, { kind: 'youtube#channelListResponse', etag: id('etag', 27), pageInfo: { totalResults: 1, resultsPerPage: 5 }, items: [{
            ...channelResource(channel),
            ...((req.query.part ?? '').split(',').includes('contentDetails') ? { contentDetails: { relatedPlaylists: { likes: '', uploads: uploadsPlaylistOf(channel.id) } } } : {}),
            ...((req.query.part ?? '').split(',').includes('statistics') ? { statistics: analytics.statistics(channel) } : {}),
          }] });
        case 'GET /youtube/v3/playlistItems':
          if (!(channel = anyOf(SCOPE.forceSsl, SCOPE.youtube, SCOPE.readonly))) return;
          return listPlaylistItems(req, res, { channel, channels, videos, playlists, items: playlistItems, apiError, etag: () => id('etag', 27), thumbnails: thumbnailsOf });
        case 'GET /youtube/v3/videos': {
          if (!(channel = anyOf(SCOPE.forceSsl, SCOPE.youtube, SCOPE.readonly))) return;
          const parts = (req.query.part ?? '').split(',').filter(Boolean);
          if (!parts.length) return apiError(res, 400, 'required', 'Required parameter: part', 'global');
          const items = (req.query.id ?? '').split(',').map((v) => videos.get(v)).filter((v): v is SimVideo => !!v)
            // processingDetails are the owner's only.
            .map((v) => ({ ...videoResource(v, v.channelId === channel!.id ? parts : parts.filter((p) => p !== 'processingDetails')),
              ...(parts.includes('statistics') ? { statistics: analytics.videoStatistics(v) } : {}) }));
          return sendJson(res, 200, { kind: 'youtube#videoListResponse', etag: id('etag', 27), items, pageInfo: { totalResults: items.length, resultsPerPage: items.length } });
        }
        case 'POST /upload/youtube/v3/videos':
          if (!(channel = anyOf(SCOPE.upload, SCOPE.youtube, SCOPE.forceSsl))) return;
          return openSession(req, res, channel, 'video', failure);
        case 'POST /upload/youtube/v3/captions':
          if (!(channel = anyOf(SCOPE.forceSsl))) return;
          return openSession(req, res, channel, 'caption', undefined);
        case 'PUT /upload/youtube/v3/videos':
        case 'PUT /upload/youtube/v3/captions':
          if (!(channel = anyOf(SCOPE.upload, SCOPE.youtube, SCOPE.forceSsl))) return;
          return putSession(req, res, channel, failure);
        case 'PUT /youtube/v3/videos':
          if (!(channel = anyOf(SCOPE.youtube, SCOPE.forceSsl))) return;
          return posts.updateVideo(req, res, channel);
        case 'DELETE /youtube/v3/videos':
          if (!(channel = anyOf(SCOPE.youtube, SCOPE.forceSsl))) return;
          return posts.deleteVideo(req, res, channel);
        case 'POST /upload/youtube/v3/thumbnails/set':
          if (!(channel = anyOf(SCOPE.upload, SCOPE.youtube, SCOPE.forceSsl))) return;
          return thumbnailsSet(req, res, channel);
        case 'POST /youtube/v3/playlistItems':
          if (!(channel = anyOf(SCOPE.youtube, SCOPE.forceSsl))) return;
          return insertPlaylistItem(req, res, channel);
        case 'POST /youtube/v3/commentThreads':
          if (!(channel = anyOf(SCOPE.forceSsl))) return;
          return insertCommentThread(commentDeps, req, res, channel);
        case 'GET /v2/reports':
          if (!(channel = anyOf(YOUTUBE_ANALYTICS_SCOPE))) return;
          return analytics.reports(res, channel, req.query);
        default:
          if (/^\/youtube\/v3\/(commentThreads|comments)(\/setModerationStatus)?$/.test(req.path)) {
            if (!(channel = anyOf(SCOPE.forceSsl))) return;
            if (youtubeCommentRoute(commentDeps, key, req, res, channel)) return;
          }
          return apiError(res, 404, 'notFound', `Not Found: ${req.method} ${req.path}`, 'global');
      }
    },
  });
  origin = host.origin;

  const byChannel = (channelId?: string) => (c: { channelId: string }) => channelId === undefined || c.channelId === channelId;

  const api: YoutubeSimulator = {
    port: host.port,
    origin,
    apiBase: origin,
    authBase: origin,
    tokenUrl: `${origin}/token`,
    get requests() { return host.requests; },
    analytics,
    createClient: ({ redirectUris }) => createClient(redirectUris),
    createAccount(input) {
      const channel: SimChannel = {
        id: `UC${id('channel', 22)}`,
        title: input.title,
        handle: input.handle ?? `@${input.title.toLowerCase().replace(/[^a-z0-9]+/g, '')}`,
        avatarUrl: input.avatarUrl ?? `https://yt3.ggpht.com/${id('avatar', 40)}=s88-c-k-c0x00ffffff-no-rj`,
        verified: input.verified ?? true,
        dailyUploadLimit: input.dailyUploadLimit ?? 100,
        uploads: 0,
      };
      channels.set(channel.id, channel);
      return { ...channel };
    },
    createPlaylist(channelId, title) {
      const playlistId = `PL${id('playlist', 32)}`;
      playlists.set(playlistId, { id: playlistId, channelId, title });
      return playlistId;
    },
    issueAuthCode(channelId, o) {
      if (!channels.has(channelId)) throw new Error(`unknown channel ${channelId}`);
      return oauth.issueCode(channelId, { ...o, scopes: o.scopes ?? [SCOPE.upload, SCOPE.forceSsl], offline: o.offline ?? true });
    },
    issueTokens(channelId, o) {
      if (!channels.has(channelId)) throw new Error(`unknown channel ${channelId}`);
      const { access, refresh } = oauth.issueTokens({ accountId: channelId, clientId: o.clientId, scopes: o.scopes ?? [SCOPE.upload, SCOPE.forceSsl] });
      return { accessToken: access.value, refreshToken: refresh!.value, expiresAt: new Date(access.expiresAt) };
    },
    expireAccessTokens: (channelId) => oauth.expireAccessTokens(channelId),
    revokeTokens: (channelId) => oauth.revoke(channelId),
    channels: () => [...channels.values()].map((c) => ({ ...c })),
    videos: (channelId) => [...videos.values()].filter(byChannel(channelId)).map((v) => structuredClone(v)),
    posts: (channelId) => api.videos(channelId),
    comments: (videoId) => commentStore.all(videoId).map(simComment),
    seedComment,
    bannedAuthors: (channelId) => [...(banned.get(channelId) ?? [])],
    captions: (videoId) => captions.filter((c) => videoId === undefined || c.videoId === videoId).map((c) => ({ ...c })),
    playlistItems: (playlistId) => playlistItems.filter((i) => playlistId === undefined || i.playlistId === playlistId).map((i) => ({ ...i })),
    fail: (mode, times) => host.fail(mode, times),
    setLatency: (ms) => host.setLatency(ms),
    state: () => host.state(),
    reset: () => host.reset(),
    close: () => host.close(),
  };
  return api;
}
