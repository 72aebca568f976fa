/**
 * Loopback simulator of Pinterest API v5 (developers.pinterest.com/docs/api/v5) and of the pieces
 * around it: the authorize page (www.pinterest.com/oauth/), the token endpoint with HTTP Basic
 * client authentication and continuous refresh (every refresh rotates the refresh token), the
 * user account, boards with sections, the video flow (POST /v5/media → S3-style multipart form
 * upload → GET /v5/media/{id}) and POST /v5/pins, which fetches image and cover URLs itself as
 * Pinterest does. Errors are Pinterest's `{code, message}` bodies with its documented codes
 * (1 invalid parameters, 2 authentication failed, 8 rate limit, 40 board not found, 2031 board
 * section not found, 233/235 image too small/broken); the upload host answers with S3's XML.
 *
 * The video-not-ready refusal of a video Pin save is undocumented; the simulator answers it with
 * HTTP 409 and code {@link PINTEREST_SIM_VIDEO_NOT_READY_CODE} while the media is not `succeeded`.
 */
import { listPins } from './media';
import type { ServerResponse } from 'node:http';
import { createPinterestPosts } from './posts';
import { createHash, createHmac } from 'node:crypto';
import { clockControl, createAnalyticsModel } from '../kit/metrics';
import { createPinterestAnalytics } from './analytics';
import { createPinterestOAuth } from './oauth';
import {
  createSeededSource, sendEmpty, sendJson, sendText, startSimulatorHost,
  type MultipartPart, type SimRequest,
} from '../kit/http';
import {
  PINTEREST_FAILURE_MODES, type PinterestFailureMode, PINTEREST_SIM_VIDEO_NOT_READY_CODE,
  PINTEREST_SIM_RATE_LIMIT_RESET_SECONDS,
  DEFAULT_SCOPES, UPLOAD_POLICY_TTL_MS, MAX_VIDEO_BYTES, UPLOAD_PATH,
  AI_DISCLOSURES, COVER_TYPES, type Route, FAILURE_ROUTES, type PinterestSimApp, type PinterestSimAccount,
  type PinterestSimBoard, type PinterestSimMedia, type PinterestSimPin, type PinterestSimulatorOptions,
  type PinterestSimulator, ERR, invalidParams,
  s3Error, imageKind, isIsoMedia, isHttpUrl, obj, chars,
} from './fixtures';

export {
  PINTEREST_FAILURE_MODES, type PinterestFailureMode, PINTEREST_SIM_VIDEO_NOT_READY_CODE,
  PINTEREST_SIM_RATE_LIMIT_RESET_SECONDS, PINTEREST_SIM_ACCESS_TOKEN_SECONDS, PINTEREST_SIM_REFRESH_TOKEN_SECONDS,
  PINTEREST_KNOWN_SCOPES, type PinterestSimApp, type PinterestSimAccount, type PinterestSimBoard,
  type PinterestSimMedia, type PinterestSimPin, type PinterestSimulatorOptions, type PinterestSimulator,
} from './fixtures';

export async function startPinterestSimulator(opts: PinterestSimulatorOptions = {}): Promise<PinterestSimulator> {
  const seeded = createSeededSource(opts.seed);
  const processingMs = opts.processingMs ?? 50;
  const apps = new Map<string, PinterestSimApp>();
  const accounts = new Map<string, PinterestSimAccount>();
  const boards = new Map<string, PinterestSimBoard>();
  const mediaUploads = new Map<string, PinterestSimMedia>();
  const storedPins: PinterestSimPin[] = [];
  const posts = createPinterestPosts({ boards, storedPins, numericId: (kind, length) => numericId(kind, length) });
  const analytics = createPinterestAnalytics({ model: createAnalyticsModel(opts.seed), pins: () => storedPins, invalid: (res, message) => sendJson(res, 400, invalidParams(message)) });
  /** Failures taken from the host's queue, waiting for a request of their route. */
  const armed: PinterestFailureMode[] = [];
  let origin = '';

  /** A numeric id of `length` digits, as Pinterest's ids are. */
  const numericId = (kind: string, length: number): string => {
    const n = BigInt(`0x${seeded(kind).subarray(0, 16).toString('hex')}`).toString().padStart(length, '0').slice(-length);
    return n[0] === '0' ? `1${n.slice(1)}` : n;
  };
  const oauth = createPinterestOAuth({ seeded, apps, accounts });

  // ----- API

  const ROUTE_SCOPES: Partial<Record<Route, string[]>> = {
    user_account: ['user_accounts:read'],
    boards: ['boards:read'],
    media_create: ['pins:read', 'pins:write'],
    media_get: ['pins:read'],
    pins_create: ['boards:read', 'boards:write', 'pins:read', 'pins:write'],
    pins_get: ['boards:read', 'pins:read'],
    pins_list: ['boards:read', 'pins:read'],
    pins_save: ['boards:read', 'boards:write', 'pins:read', 'pins:write'],
    pins_delete: ['boards:read', 'boards:write', 'pins:read', 'pins:write'],
    user_analytics: ['user_accounts:read'],
    pin_analytics: ['pins:read'],
  };

  /** The caller's account, or the answer already sent. */
  function authenticate(req: SimRequest, res: ServerResponse, route: Route): PinterestSimAccount | undefined {
    const record = oauth.accessToken(/^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1]);
    if (!record) {
      sendJson(res, 401, ERR.authFailed);
      return undefined;
    }
    if ((ROUTE_SCOPES[route] ?? []).some((s) => !record.scopes.includes(s))) {
      sendJson(res, 401, ERR.authorizationFailed);
      return undefined;
    }
    return accounts.get(record.accountId);
  }

  function boardObject(b: PinterestSimBoard) {
    const owner = accounts.get(b.ownerId)!;
    return {
      id: b.id, name: b.name, description: b.description, privacy: b.privacy, owner: { username: owner.username },
      created_at: '2024-01-01T00:00:00', board_pins_modified_at: '2024-01-01T00:00:00',
      collaborator_count: 0, follower_count: 0, pin_count: storedPins.filter((p) => p.pin.board_id === b.id).length,
      media: { image_cover_url: null, pin_thumbnail_urls: [] },
    };
  }

  function listBoards(req: SimRequest, res: ServerResponse, account: PinterestSimAccount): void {
    const pageSize = req.query.page_size === undefined ? 25 : Number(req.query.page_size);
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 250) return sendJson(res, 400, invalidParams('page_size must be 1 to 250.'));
    let offset = 0;
    if (req.query.bookmark) {
      offset = Number(Buffer.from(req.query.bookmark, 'base64url').toString('utf8').replace(/^offset:/, ''));
      if (!Number.isInteger(offset) || offset < 0) return sendJson(res, 400, invalidParams('bookmark is invalid.'));
    }
    const mine = [...boards.values()].filter((b) => b.ownerId === account.id);
    const page = mine.slice(offset, offset + pageSize);
    const next = offset + pageSize < mine.length ? Buffer.from(`offset:${offset + pageSize}`).toString('base64url') : null;
    return sendJson(res, 200, { items: page.map(boardObject), bookmark: next });
  }

  function createMedia(req: SimRequest, res: ServerResponse, account: PinterestSimAccount): void {
    const body = req.body.kind === 'json' && obj(req.body.value) ? req.body.value : undefined;
    if (!body || body.media_type !== 'video') return sendJson(res, 400, invalidParams("media_type must be 'video'."));
    const id = numericId('media', 19);
    const key = `uploads/${createHash('sha1').update(id).digest('hex').slice(0, 6).match(/../g)!.join('/')}/${account.id}/${id}`;
    const expiresAt = Date.now() + UPLOAD_POLICY_TTL_MS;
    const date = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');
    const credential = `SIMKEY/${date.slice(0, 8)}/us-east-1/s3/aws4_request`;
    const policy = Buffer.from(JSON.stringify({
      expiration: new Date(expiresAt).toISOString(),
      conditions: [{ bucket: 'pinterest-media-upload' }, ['eq', '$key', key], ['content-length-range', 1, MAX_VIDEO_BYTES]],
    })).toString('base64');
    const uploadParameters = {
      'x-amz-date': date,
      'x-amz-signature': createHmac('sha256', `sim-${id}`).update(policy).digest('hex'),
      'x-amz-security-token': seeded('s3-session').toString('base64'),
      'x-amz-algorithm': 'AWS4-HMAC-SHA256',
      key,
      policy,
      'x-amz-credential': credential,
      'Content-Type': 'multipart/form-data',
    };
    mediaUploads.set(id, {
      id, ownerId: account.id, uploadKey: key, uploadParameters, policyExpiresAt: expiresAt,
      uploadedAt: null, size: 0, contentType: null, filename: null, broken: false,
    });
    return sendJson(res, 201, { media_id: id, media_type: 'video', upload_url: `${origin}${UPLOAD_PATH}`, upload_parameters: uploadParameters });
  }

  const statusOf = (m: PinterestSimMedia): 'registered' | 'processing' | 'succeeded' | 'failed' => {
    if (m.uploadedAt === null) return 'registered';
    if (Date.now() - m.uploadedAt < processingMs) return 'processing';
    return m.broken ? 'failed' : 'succeeded';
  };

  function getMedia(res: ServerResponse, account: PinterestSimAccount, id: string, failure: PinterestFailureMode | undefined): void {
    const m = mediaUploads.get(id);
    if (!m || m.ownerId !== account.id) return sendJson(res, 404, ERR.mediaNotFound);
    if (failure === 'media_processing_failed') m.broken = true;
    return sendJson(res, 200, { media_id: m.id, media_type: 'video', status: statusOf(m) });
  }

  /** The S3 form upload: every issued parameter must come back unchanged, with one `file`. */
  function upload(req: SimRequest, res: ServerResponse, failure: PinterestFailureMode | undefined): void {
    if (req.method !== 'POST') return s3Error(res, 405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
    if (failure === 'upload_server_error') return s3Error(res, 503, 'SlowDown', 'Please reduce your request rate.');
    if (failure === 'upload_too_large' || req.body.kind === 'too_large') return s3Error(res, 400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size');
    if (req.body.kind !== 'multipart') return s3Error(res, 412, 'PreconditionFailed', 'Bucket POST must be of the enclosure-type multipart/form-data');
    const { fields, files } = req.body;
    const m = [...mediaUploads.values()].find((u) => u.uploadKey === fields.key);
    if (failure === 'upload_refused' || !m) return s3Error(res, 403, 'AccessDenied', 'Invalid according to Policy: Policy Condition failed: ["eq", "$key", ...]');
    const wrong = Object.entries(m.uploadParameters).filter(([k, v]) => fields[k] !== v).map(([k]) => k);
    if (wrong.length) return s3Error(res, 403, 'AccessDenied', `Invalid according to Policy: missing or altered fields ${wrong.join(', ')}`);
    if (m.policyExpiresAt < Date.now()) return s3Error(res, 403, 'AccessDenied', 'Invalid according to Policy: Policy expired.');
    const fileParts = files.filter((f: MultipartPart) => f.name === 'file');
    if (fileParts.length !== 1 || files.length !== 1) return s3Error(res, 400, 'InvalidArgument', 'POST requires exactly one file upload per request.');
    const file = fileParts[0]!;
    if (file.data.length === 0) return s3Error(res, 400, 'EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed size');
    if (file.data.length > MAX_VIDEO_BYTES) return s3Error(res, 400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size');
    Object.assign(m, {
      uploadedAt: Date.now(), size: file.data.length, contentType: file.contentType ?? null, filename: file.filename ?? null,
      // Pinterest's processing fails on anything that is not an MP4/MOV video.
      broken: !isIsoMedia(file.data) || !(file.contentType ?? '').startsWith('video/'),
    });
    return sendEmpty(res, 204);
  }

  type Fetched = { ok: true; url: string; contentType: string; size: number } | { ok: false; status: number; body: unknown };

  /** Pinterest fetches media URLs itself; an unreachable URL or a non-image fails the Pin. */
  async function fetchImage(url: string): Promise<Fetched> {
    let data: Buffer;
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(5000), redirect: 'follow' });
      if (!r.ok) return { ok: false, status: 400, body: ERR.couldNotFetch };
      data = Buffer.from(await r.arrayBuffer());
    } catch {
      return { ok: false, status: 400, body: ERR.couldNotFetch };
    }
    const kind = imageKind(data);
    if (!kind) return { ok: false, status: 403, body: ERR.imageBroken };
    return { ok: true, url, contentType: kind, size: data.length };
  }

  const ROUTED_PIN_FAILURES: Partial<Record<PinterestFailureMode, [number, unknown]>> = {
    board_not_found: [404, ERR.boardNotFound],
    board_section_not_found: [404, ERR.sectionNotFound],
    image_too_small: [403, ERR.imageTooSmall],
    image_broken: [403, ERR.imageBroken],
    invalid_parameters: [400, invalidParams('simulated refusal.')],
    video_not_ready: [409, ERR.videoNotReady],
  };

  /** Field checks of POST /v5/pins that need no fetch; returns an error answer or nothing. */
  function checkPinFields(body: Record<string, unknown>, account: PinterestSimAccount): [number, unknown] | undefined {
    const boardId = body.board_id;
    if (typeof boardId !== 'string' || !/^\d+$/.test(boardId)) return [400, invalidParams("board_id is required and must match '^\\d+$'.")];
    const board = boards.get(boardId);
    if (!board || board.ownerId !== account.id) return [404, ERR.boardNotFound];
    const sectionId = body.board_section_id;
    if (sectionId !== undefined && sectionId !== null) {
      if (typeof sectionId !== 'string' || !board.sections.some((s) => s.id === sectionId)) return [404, ERR.sectionNotFound];
    }
    // Pinterest documents no length for the private note: only its type is checked.
    const limits: Array<[string, number | undefined]> = [['title', 100], ['description', 800], ['alt_text', 500], ['link', 2048], ['note', undefined]];
    for (const [field, max] of limits) {
      const v = body[field];
      if (v === undefined || v === null) continue;
      if (typeof v !== 'string') return [400, invalidParams(`${field} must be a string.`)];
      if (max !== undefined && chars(v) > max) return [400, invalidParams(`${field} is longer than ${max} characters.`)];
    }
    if (body.link !== undefined && body.link !== null && !isHttpUrl(body.link)) {
      return [400, { code: 1, message: 'Whoops! It looks like you entered an invalid URL. Try creating a Pin again with a valid URL.' }];
    }
    if (body.ai_disclosures !== undefined) {
      const values = obj(body.ai_disclosures) ? body.ai_disclosures.values : undefined;
      if (!Array.isArray(values) || values.some((v) => typeof v !== 'string' || !AI_DISCLOSURES.includes(v))) {
        return [400, invalidParams(`ai_disclosures.values items must be one of ${AI_DISCLOSURES.join(', ')}.`)];
      }
    }
    return undefined;
  }

  async function createPin(req: SimRequest, res: ServerResponse, account: PinterestSimAccount, failure: PinterestFailureMode | undefined): Promise<void> {
    const body = req.body.kind === 'json' && obj(req.body.value) ? req.body.value : undefined;
    if (!body) return sendJson(res, 400, invalidParams('the body must be a JSON object.'));
    const forced = failure ? ROUTED_PIN_FAILURES[failure] : undefined;
    if (forced && failure !== 'video_not_ready') return sendJson(res, forced[0], forced[1]);
    const fieldError = checkPinFields(body, account);
    if (fieldError) return sendJson(res, fieldError[0], fieldError[1]);

    const source = body.media_source;
    if (!obj(source)) return sendJson(res, 400, invalidParams('media_source is required.'));
    const fetched: Array<{ url: string; contentType: string; size: number }> = [];
    const fetchAll = async (urls: string[]): Promise<[number, unknown] | undefined> => {
      for (const url of urls) {
        const got = await fetchImage(url);
        if (!got.ok) return [got.status, got.body];
        fetched.push({ url: got.url, contentType: got.contentType, size: got.size });
      }
      return undefined;
    };
    let media: Record<string, unknown>;
    let creativeType: string;
    switch (source.source_type) {
      case 'image_url': {
        if (!isHttpUrl(source.url)) return sendJson(res, 400, invalidParams('media_source.url must be an http(s) URL.'));
        const err = await fetchAll([source.url]);
        if (err) return sendJson(res, err[0], err[1]);
        media = { media_type: 'image', images: { originals: { url: source.url } } };
        creativeType = 'REGULAR';
        break;
      }
      case 'image_base64': {
        if (!COVER_TYPES.includes(String(source.content_type)) || typeof source.data !== 'string') {
          return sendJson(res, 400, invalidParams('image_base64 needs content_type image/jpeg or image/png and data.'));
        }
        if (!imageKind(Buffer.from(source.data, 'base64'))) return sendJson(res, 403, ERR.imageBroken);
        media = { media_type: 'image', images: {} };
        creativeType = 'REGULAR';
        break;
      }
      case 'multiple_image_urls': {
        const items = source.items;
        if (!Array.isArray(items) || items.length < 2 || items.length > 5) {
          return sendJson(res, 400, invalidParams('media_source.items: constraint: minItems=2, maxItems=5.'));
        }
        for (const item of items) {
          if (!obj(item) || !isHttpUrl(item.url)) return sendJson(res, 400, invalidParams('every media_source.items[] needs an http(s) url.'));
          if (item.link !== undefined && !isHttpUrl(item.link)) return sendJson(res, 400, invalidParams('media_source.items[].link must be an http(s) URL.'));
          for (const f of ['title', 'description']) {
            if (item[f] !== undefined && typeof item[f] !== 'string') return sendJson(res, 400, invalidParams(`media_source.items[].${f} must be a string.`));
          }
        }
        if (source.index !== undefined && (!Number.isInteger(source.index) || (source.index as number) < 0 || (source.index as number) >= items.length)) {
          return sendJson(res, 400, invalidParams('media_source.index is out of range.'));
        }
        const err = await fetchAll(items.map((i) => (i as { url: string }).url));
        if (err) return sendJson(res, err[0], err[1]);
        media = { media_type: 'multiple_images', items: items.map((i) => ({ ...(i as object), item_type: 'image' })) };
        creativeType = 'CAROUSEL';
        break;
      }
      case 'video_id': {
        const m = typeof source.media_id === 'string' ? mediaUploads.get(source.media_id) : undefined;
        if (!m || m.ownerId !== account.id) return sendJson(res, 400, invalidParams('media_source.media_id is not a media upload of this user.'));
        const covers = ['cover_image_url', 'cover_image_data', 'cover_image_key_frame_time'].filter((k) => source[k] !== undefined);
        if (covers.length !== 1) {
          return sendJson(res, 400, invalidParams('send one of cover_image_url, cover_image_content_type + cover_image_data, or cover_image_key_frame_time.'));
        }
        if (source.cover_image_url !== undefined) {
          if (!isHttpUrl(source.cover_image_url)) return sendJson(res, 400, invalidParams('cover_image_url must be an http(s) URL.'));
          const err = await fetchAll([source.cover_image_url]);
          if (err) return sendJson(res, err[0], err[1]);
        }
        if (source.cover_image_data !== undefined) {
          if (!COVER_TYPES.includes(String(source.cover_image_content_type)) || typeof source.cover_image_data !== 'string') {
            return sendJson(res, 400, invalidParams('cover_image_content_type must be image/jpeg or image/png with cover_image_data.'));
          }
          if (!imageKind(Buffer.from(source.cover_image_data, 'base64'))) return sendJson(res, 403, ERR.imageBroken);
        }
        if (source.cover_image_key_frame_time !== undefined && (!Number.isInteger(source.cover_image_key_frame_time) || (source.cover_image_key_frame_time as number) < 0)) {
          return sendJson(res, 400, invalidParams('cover_image_key_frame_time must be a whole number of seconds.'));
        }
        if (failure === 'video_not_ready' || statusOf(m) !== 'succeeded') return sendJson(res, 409, ERR.videoNotReady);
        media = { media_type: 'video', cover_image_url: source.cover_image_url ?? null, duration: null, height: null, width: null };
        creativeType = 'VIDEO';
        break;
      }
      default:
        return sendJson(res, 400, invalidParams(`media_source.source_type ${String(source.source_type)} is not supported.`));
    }

    const id = numericId('pin', 18);
    const pin: Record<string, unknown> = {
      id,
      created_at: new Date().toISOString().replace(/\.\d+Z$/, ''),
      link: body.link ?? null,
      title: body.title ?? '',
      description: body.description ?? '',
      dominant_color: '#6e7874',
      alt_text: body.alt_text ?? null,
      creative_type: creativeType,
      board_id: body.board_id,
      board_section_id: body.board_section_id ?? null,
      board_owner: { username: account.username },
      is_owner: true,
      media,
      parent_pin_id: null,
      is_standard: true,
      has_been_promoted: false,
      note: body.note ?? '',
      pin_metrics: null,
      ...(body.ai_disclosures !== undefined ? { ai_disclosures: body.ai_disclosures } : {}),
    };
    storedPins.push({ pin, ownerId: account.id, request: structuredClone(body), fetched });
    return sendJson(res, 201, pin);
  }

  function routeOf(req: SimRequest): { route: Route; id?: string } {
    const p = req.path;
    if (p === '/oauth' || p === '/oauth/') return { route: 'authorize' };
    if (p === UPLOAD_PATH || p === UPLOAD_PATH.slice(0, -1)) return { route: 'upload' };
    if (p === '/v5/oauth/token' && req.method === 'POST') return { route: 'token' };
    if (p === '/v5/user_account' && req.method === 'GET') return { route: 'user_account' };
    if (p === '/v5/user_account/analytics' && req.method === 'GET') return { route: 'user_analytics' };
    const pinStats = /^\/v5\/pins\/([^/]+)\/analytics$/.exec(p);
    if (pinStats && req.method === 'GET') return { route: 'pin_analytics', id: decodeURIComponent(pinStats[1]!) };
    if (p === '/v5/boards' && req.method === 'GET') return { route: 'boards' };
    if (p === '/v5/media' && req.method === 'POST') return { route: 'media_create' };
    if (p === '/v5/pins' && req.method === 'POST') return { route: 'pins_create' };
    if (p === '/v5/pins' && req.method === 'GET') return { route: 'pins_list' };
    const media = /^\/v5\/media\/([^/]+)$/.exec(p);
    if (media && req.method === 'GET') return { route: 'media_get', id: decodeURIComponent(media[1]!) };
    const pin = /^\/v5\/pins\/([^/]+)$/.exec(p);
    if (pin && req.method === 'GET') return { route: 'pins_get', id: decodeURIComponent(pin[1]!) };
    if (pin && req.method === 'DELETE') return { route: 'pins_delete', id: decodeURIComponent(pin[1]!) };
    const save = /^\/v5\/pins\/([^/]+)\/save$/.exec(p);
    if (save && req.method === 'POST') return { route: 'pins_save', id: decodeURIComponent(save[1]!) };
    return { route: 'unknown' };
  }

  /** Answers the failures every /v5 route shares; true when one was sent. */
  function sharedFailure(res: ServerResponse, failure: PinterestFailureMode | undefined): boolean {
    switch (failure) {
      case 'expired_token': case 'revoked_token': sendJson(res, 401, ERR.authFailed); return true;
      case 'missing_scope': sendJson(res, 401, ERR.authorizationFailed); return true;
      case 'forbidden': sendJson(res, 403, ERR.forbidden); return true;
      case 'rate_limited':
        sendJson(res, 429, ERR.rateLimited, {
          'x-ratelimit-limit': '1000', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(PINTEREST_SIM_RATE_LIMIT_RESET_SECONDS),
        });
        return true;
      case 'server_error': sendJson(res, 500, ERR.serverError); return true;
      case 'bad_gateway': sendText(res, 502, '<html><body><h1>502 Bad Gateway</h1></body></html>', 'text/html'); return true;
      default: return false;
    }
  }

  async function handle(req: SimRequest, res: ServerResponse, queued: PinterestFailureMode | undefined): Promise<void> {
    const { route, id } = routeOf(req);
    if (queued) armed.push(queued);
    const armedAt = armed.findIndex((mode) => FAILURE_ROUTES[mode](route));
    const failure = armedAt >= 0 ? armed.splice(armedAt, 1)[0] : undefined;

    if (route === 'authorize') return oauth.authorize(req, res);
    if (route === 'upload') return upload(req, res, failure);
    if (route === 'unknown') return sendJson(res, 404, ERR.notFound);
    if (sharedFailure(res, failure)) return;
    if (route === 'token') return oauth.token(req, res, { refuseRefresh: failure === 'refresh_rejected' });

    const account = authenticate(req, res, route);
    if (!account) return;
    switch (route) {
      case 'user_account':
        return sendJson(res, 200, {
          account_type: account.accountType, id: account.id, profile_image: account.profileImage, website_url: account.websiteUrl,
          username: account.username, about: account.about, business_name: account.businessName,
          board_count: [...boards.values()].filter((b) => b.ownerId === account.id).length,
          pin_count: storedPins.filter((p) => p.ownerId === account.id).length,
          follower_count: analytics.followers(account.id), following_count: 0, monthly_views: analytics.monthlyViews(account.id),
        });
      case 'boards': return listBoards(req, res, account);
      case 'user_analytics': return analytics.userAnalytics(res, account.id, req.query);
      case 'pin_analytics': return analytics.pinAnalytics(res, account.id, id!, req.query);
      case 'media_create': return createMedia(req, res, account);
      case 'media_get': return getMedia(res, account, id!, failure);
      case 'pins_create': return createPin(req, res, account, failure);
      case 'pins_list': return listPins(req, res, { accountId: account.id, pins: storedPins });
      case 'pins_save': return posts.savePin(req, res, account, id!);
      case 'pins_delete': return posts.deletePin(res, account, id!);
      case 'pins_get': {
        const stored = storedPins.find((p) => p.pin.id === id && p.ownerId === account.id);
        return stored ? sendJson(res, 200, stored.pin) : sendJson(res, 404, { code: 50, message: 'Pin not found.' });
      }
    }
  }

  const host = await startSimulatorHost<PinterestFailureMode>({
    port: opts.port,
    maxBodyBytes: 64 * 1024 * 1024,
    failureModes: PINTEREST_FAILURE_MODES,
    state: () => ({
      armedFailures: [...armed],
      apps: [...apps.values()].map((a) => ({ clientId: a.clientId, name: a.name, redirectUris: a.redirectUris })),
      accounts: [...accounts.values()].map((a) => ({ id: a.id, username: a.username })),
      boards: [...boards.values()].map((b) => ({ id: b.id, ownerId: b.ownerId, name: b.name, sections: b.sections })),
      pinCount: storedPins.length,
      media: [...mediaUploads.values()].map((m) => ({ id: m.id, status: statusOf(m), size: m.size })),
    }),
    controls: { analytics_clock: clockControl(analytics.model) },
    reset: () => {
      storedPins.length = 0;
      mediaUploads.clear();
      armed.length = 0;
    },
    handle(req, res, failure) {
      handle(req, res, failure).catch((err: unknown) => {
        if (!res.headersSent) sendJson(res, 500, { code: 500, message: `simulator failure: ${String(err)}` });
        else res.destroy();
      });
    },
  });
  origin = host.origin;


  return {
    port: host.port,
    origin,
    apiBase: `${origin}/v5`,
    uploadUrl: `${origin}${UPLOAD_PATH}`,
    get requests() { return host.requests; },
    analytics,
    createApp(input = {}) {
      const app: PinterestSimApp = {
        clientId: numericId('client-id', 7),
        clientSecret: seeded('client-secret').toString('hex').slice(0, 40),
        name: input.name ?? 'Herald',
        redirectUris: input.redirectUris ?? ['http://127.0.0.1/oauth/callback'],
      };
      apps.set(app.clientId, app);
      return { ...app, redirectUris: [...app.redirectUris] };
    },
    createAccount(input) {
      const account: PinterestSimAccount = {
        id: numericId('account', 18),
        username: input.username,
        businessName: input.businessName ?? null,
        profileImage: input.profileImage ?? `https://i.pinimg.com/600x600_R/sim/${input.username}.jpg`,
        accountType: input.accountType ?? 'BUSINESS',
        about: '',
        websiteUrl: '',
      };
      accounts.set(account.id, account);
      return { ...account };
    },
    createBoard(accountId, input) {
      if (!accounts.has(accountId)) throw new Error(`unknown account ${accountId}`);
      const board: PinterestSimBoard = {
        id: numericId('board', 18), ownerId: accountId, name: input.name, description: input.description ?? '',
        privacy: input.privacy ?? 'PUBLIC', sections: [],
      };
      boards.set(board.id, board);
      return structuredClone(board);
    },
    createBoardSection(boardId, name) {
      const board = boards.get(boardId);
      if (!board) throw new Error(`unknown board ${boardId}`);
      const section = { id: numericId('board-section', 18), name };
      board.sections.push(section);
      return { ...section };
    },
    issueAuthCode(accountId, input) {
      if (!accounts.has(accountId)) throw new Error(`unknown account ${accountId}`);
      return oauth.issueCode(accountId, { clientId: input.clientId, redirectUri: input.redirectUri, scopes: input.scopes ?? DEFAULT_SCOPES });
    },
    issueTokens(accountId, input) {
      if (!accounts.has(accountId)) throw new Error(`unknown account ${accountId}`);
      const { access, refresh } = oauth.issueTokens({ accountId, clientId: input.clientId, scopes: input.scopes ?? DEFAULT_SCOPES });
      return { accessToken: access.value, refreshToken: refresh!.value, expiresAt: new Date(access.expiresAt) };
    },
    expireAccessTokens: (accountId) => oauth.expireAccessTokens(accountId),
    expireRefreshTokens: (accountId) => oauth.expireRefreshTokens(accountId),
    revokeTokens: (accountId) => oauth.revoke(accountId),
    accounts: () => [...accounts.values()].map((a) => ({ ...a })),
    boards: (accountId) => [...boards.values()].filter((b) => accountId === undefined || b.ownerId === accountId).map((b) => structuredClone(b)),
    pins: (accountId) => storedPins.filter((p) => accountId === undefined || p.ownerId === accountId).map((p) => structuredClone(p)),
    media: () => [...mediaUploads.values()].map((m) => structuredClone(m)),
    fail: (mode, times) => host.fail(mode, times),
    setLatency: (ms) => host.setLatency(ms),
    state: () => host.state(),
    reset: () => host.reset(),
    close: () => host.close(),
  };
}
