/**
 * Loopback simulator of the Google Business Profile APIs and Google OAuth 2, on one origin:
 * - `GET|POST /o/oauth2/v2/auth`, `POST /token` (scope business.manage; refresh tokens only with
 *   access_type=offline, as Google does);
 * - Account Management `GET /v1/accounts`, Business Information
 *   `GET /v1/accounts/{a}/locations?readMask=…` (readMask required);
 * - v4 `POST|GET /v4/accounts/{a}/locations/{l}/localPosts`, `GET|PATCH|DELETE …/localPosts/{p}`
 *   (updateMask), and `POST /v4/accounts/{a}/locations/{l}/media`, `DELETE …/media/{m}`;
 * - Performance `GET /v1/locations/{l}:fetchMultiDailyMetricsTimeSeries` (performance.ts).
 * Google's rules are checked: summary at most 1,500 characters, topicType, an event (title ≤ 58,
 * schedule) for EVENT and OFFER, call-to-action types (a URL except for CALL), media fetched from
 * their sourceUrl like Google does (photos JPEG/PNG, 10 KB-5 MB, at least 250 x 250; videos MP4/MOV
 * up to 75 MB), only verified locations publish. Errors have Google's shape
 * `{error:{code, message, status, details}}`.
 */
import type { ServerResponse } from 'node:http';
import { createSeededSource, sendJson, startSimulatorHost, type RecordedRequest, type SimRequest } from '../kit/http';
import { clockControl, createAnalyticsModel } from '../kit/metrics';
import { createOAuthServer, oauthError } from '../kit/oauth';
import { createGoogleBusinessPerformance, type GoogleBusinessPerformance } from './performance';

export const GBP_SCOPE = 'https://www.googleapis.com/auth/business.manage';
export const GOOGLE_BUSINESS_FAILURE_MODES = [
  'token_expired', 'token_revoked', 'rate_limited', 'quota_zero', 'server_error', 'service_unavailable', 'permission_denied', 'invalid_argument',
] as const;
export type GoogleBusinessFailureMode = (typeof GOOGLE_BUSINESS_FAILURE_MODES)[number];
export const GBP_SIM_RETRY_AFTER_SECONDS = 30;

const SUMMARY_MAX = 1500;
const EVENT_TITLE_MAX = 58;
const CTA_TYPES = ['BOOK', 'ORDER', 'SHOP', 'LEARN_MORE', 'SIGN_UP', 'CALL'];
const TOPIC_TYPES = ['STANDARD', 'EVENT', 'OFFER', 'ALERT'];
export const GBP_MEDIA_CATEGORIES = [
  'COVER', 'PROFILE', 'LOGO', 'EXTERIOR', 'INTERIOR', 'PRODUCT', 'AT_WORK', 'FOOD_AND_DRINK', 'MENU', 'COMMON_AREA', 'ROOMS', 'TEAMS', 'ADDITIONAL',
];
const PHOTO_MIN_BYTES = 10 * 1024;
const PHOTO_MAX_BYTES = 5 * 1024 * 1024;
const VIDEO_MAX_BYTES = 75 * 1024 * 1024;

export interface GbpUser { id: string; name: string; accountId: string }
export interface GbpLocation { id: string; accountId: string; title: string; verified: boolean; placeId: string; address: string }
export interface GbpLocalPost {
  name: string;
  locationId: string;
  accountId: string;
  body: Record<string, unknown>;
  state: 'LIVE' | 'PROCESSING';
  createTime: string;
  updateTime: string;
}
export interface GbpMediaItem { name: string; locationId: string; mediaFormat: string; category: string; description?: string; size: number }

export interface GoogleBusinessSimulatorOptions {
  port?: number;
  seed?: string;
  accessTokenTtlSeconds?: number;
}

export interface GoogleBusinessSimulator {
  port: number;
  origin: string;
  /** Business Profile v4 base, Account Management and Business Information bases, consent page host: all this origin. */
  apiBase: string;
  authBase: string;
  tokenUrl: string;
  /** The Performance API base (this origin too). */
  performanceBase: string;
  /** The daily metrics model (tests compare an adapter's numbers with these; `model.setNow` freezes its clock). */
  readonly analytics: GoogleBusinessPerformance;
  readonly requests: RecordedRequest[];
  createClient(input: { redirectUris: string[] }): { clientId: string; clientSecret: string };
  /** A Google user with their personal Business Profile account. */
  createUser(input: { name: string }): GbpUser;
  createLocation(accountId: string, input: { title: string; verified?: boolean; address?: string }): GbpLocation;
  posts(locationId?: string): GbpLocalPost[];
  mediaItems(locationId?: string): GbpMediaItem[];
  expireAccessTokens(userId: string): void;
  revoke(userId: string): void;
  fail(mode: GoogleBusinessFailureMode, times?: number): void;
  setLatency(ms: number): void;
  state(): Record<string, unknown>;
  reset(): void;
  close(): Promise<void>;
}

const STATUS_OF: Record<number, string> = {
  400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 409: 'ALREADY_EXISTS',
  429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL', 503: 'UNAVAILABLE',
};

function apiError(res: ServerResponse, code: number, message: string, opts: { status?: string; field?: string; headers?: Record<string, string> } = {}) {
  sendJson(res, code, {
    error: {
      code, message, status: opts.status ?? STATUS_OF[code] ?? 'UNKNOWN',
      ...(opts.field ? { details: [{ '@type': 'type.googleapis.com/google.mybusiness.v4.ValidationError', errorDetails: [{ code: 3, field: opts.field, message }] }] } : {}),
    },
  }, opts.headers);
}

/** Width and height of a JPEG or PNG, undefined for anything else. */
export function imageDimensions(data: Buffer): { type: 'jpeg' | 'png'; width: number; height: number } | undefined {
  if (data.length > 24 && data[0] === 0x89 && data.subarray(1, 4).toString('latin1') === 'PNG') {
    return { type: 'png', width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
  }
  if (data[0] === 0xff && data[1] === 0xd8) {
    for (let i = 2; i + 9 < data.length;) {
      if (data[i] !== 0xff) { i++; continue; }
      const marker = data[i + 1]!;
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { type: 'jpeg', height: data.readUInt16BE(i + 5), width: data.readUInt16BE(i + 7) };
      }
      i += 2 + data.readUInt16BE(i + 2);
    }
  }
  return undefined;
}

const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? v as Record<string, unknown> : {});

export async function startGoogleBusinessSimulator(opts: GoogleBusinessSimulatorOptions = {}): Promise<GoogleBusinessSimulator> {
  const seeded = createSeededSource(opts.seed);
  const digits = (kind: string, n: number) => BigInt(`0x${seeded(kind).toString('hex').slice(0, 16)}`).toString().padStart(n, '1').slice(0, n);
  const users = new Map<string, GbpUser>();
  const locations = new Map<string, GbpLocation>();
  const posts = new Map<string, GbpLocalPost>();
  const media = new Map<string, GbpMediaItem>();
  const performance = createGoogleBusinessPerformance({
    model: createAnalyticsModel(opts.seed),
    postTimes: (locationId) => [...posts.values()].filter((p) => p.locationId === locationId).map((p) => new Date(p.createTime)),
    apiError: (res, code, message, o) => apiError(res, code, message, o),
  });

  const oauth = createOAuthServer({
    seeded, title: 'Sign in - Google Accounts: Business Profile simulator', authorizePath: '/o/oauth2/v2/auth',
    knownScopes: [GBP_SCOPE, 'openid', 'email', 'profile'], accessTokenTtlSeconds: opts.accessTokenTtlSeconds ?? 3599,
    accessPrefix: 'ya29.', refreshPrefix: '1//0', issuesRefresh: ({ offline }) => offline,
    clientIdOf: (s) => `${s('client').readUInt32BE(0)}-${s('client-id').toString('hex').slice(0, 32)}.apps.googleusercontent.com`,
    clientSecretOf: (s) => `GOCSPX-${s('client-secret').toString('base64url').slice(0, 28)}`,
    accounts: () => [...users.values()].map((u) => ({ id: u.id, label: u.name })),
  });

  /** The user behind the bearer token, or the 401/403 sent. */
  function authorize(req: SimRequest, res: ServerResponse): GbpUser | undefined {
    const check = oauth.bearer(req, [GBP_SCOPE]);
    if (check.kind === 'missing') return void apiError(res, 401, 'Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential.');
    if (check.kind === 'scope') return void apiError(res, 403, 'Request had insufficient authentication scopes.');
    if (check.kind !== 'ok') return void apiError(res, 401, 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.');
    return users.get(check.grant.accountId);
  }

  const accountResource = (u: GbpUser) => ({
    name: `accounts/${u.accountId}`, accountName: u.name, type: 'PERSONAL', verificationState: 'UNVERIFIED', vettedState: 'NOT_VETTED',
  });
  const locationResource = (l: GbpLocation, mask: string[]) => {
    const full: Record<string, unknown> = {
      name: `locations/${l.id}`, title: l.title,
      storefrontAddress: { regionCode: 'US', addressLines: [l.address] },
      metadata: { placeId: l.placeId, mapsUri: `https://maps.google.com/maps?cid=${l.id}`, newReviewUri: `https://search.google.com/local/writereview?placeid=${l.placeId}`, hasVoiceOfMerchant: l.verified },
    };
    return Object.fromEntries(Object.entries(full).filter(([k]) => k === 'name' || mask.includes(k)));
  };

  /** The location `accounts/{a}/locations/{l}` names, if the user manages it; else the error is sent. */
  function ownedLocation(res: ServerResponse, user: GbpUser, accountId: string, locationId: string): GbpLocation | undefined {
    const location = locations.get(locationId);
    if (accountId !== user.accountId) return void apiError(res, 403, 'The caller does not have permission');
    if (!location || location.accountId !== accountId) return void apiError(res, 404, 'Requested entity was not found.');
    return location;
  }

  async function fetchMedia(sourceUrl: unknown): Promise<Buffer | string> {
    if (typeof sourceUrl !== 'string' || !/^https?:\/\//.test(sourceUrl)) return 'sourceUrl must be a public http(s) URL.';
    try {
      const answer = await fetch(sourceUrl, { signal: AbortSignal.timeout(30_000) });
      if (!answer.ok) return `Unable to fetch media from sourceUrl (HTTP ${answer.status}).`;
      return Buffer.from(await answer.arrayBuffer());
    } catch {
      return 'Unable to fetch media from sourceUrl.';
    }
  }

  /** Google's checks of one fetched media item; the message, or undefined when it is fine. */
  function badMedia(format: string, data: Buffer): string | undefined {
    if (format === 'PHOTO') {
      const image = imageDimensions(data);
      if (!image) return 'The photo must be a JPEG or PNG file.';
      if (data.length < PHOTO_MIN_BYTES) return `The photo is ${data.length} bytes; photos must be at least 10 KB.`;
      if (data.length > PHOTO_MAX_BYTES) return 'The photo is larger than 5 MB.';
      if (image.width < 250 || image.height < 250) return `The photo is ${image.width} x ${image.height}; photos must be at least 250 x 250 pixels.`;
      return undefined;
    }
    if (format === 'VIDEO') {
      if (data.subarray(4, 8).toString('latin1') !== 'ftyp') return 'The video must be an MP4 or MOV file.';
      if (data.length > VIDEO_MAX_BYTES) return 'The video is larger than 75 MB.';
      return undefined;
    }
    return 'mediaFormat must be PHOTO or VIDEO.';
  }

  const date = (d: unknown) => {
    const o = obj(d);
    return [o.year, o.month, o.day].every((n) => typeof n === 'number') ? Date.UTC(o.year as number, (o.month as number) - 1, o.day as number) : undefined;
  };
  const time = (t: unknown) => {
    const o = obj(t);
    return ((Number(o.hours) || 0) * 3600 + (Number(o.minutes) || 0) * 60 + (Number(o.seconds) || 0)) * 1000;
  };

  /** Google's rules of a LocalPost body; sends the error and answers false when it breaks one. */
  async function validPost(res: ServerResponse, body: Record<string, unknown>, fields: readonly string[]): Promise<boolean> {
    const bad = (field: string, message: string) => { apiError(res, 400, message, { field }); return false; };
    const topic = body.topicType;
    if (fields.includes('topicType') && (typeof topic !== 'string' || !TOPIC_TYPES.includes(topic))) return bad('topic_type', 'topicType must be STANDARD, EVENT, OFFER or ALERT.');
    const summary = body.summary;
    if (summary !== undefined && typeof summary !== 'string') return bad('summary', 'summary must be a string.');
    if (typeof summary === 'string' && [...summary].length > SUMMARY_MAX) return bad('summary', `summary exceeds the maximum of ${SUMMARY_MAX} characters.`);
    if (fields.includes('topicType') && topic === 'STANDARD' && !(typeof summary === 'string' && summary.trim()) && !(Array.isArray(body.media) && body.media.length)) {
      return bad('summary', 'A STANDARD post needs a summary or media.');
    }
    if (topic === 'EVENT' || topic === 'OFFER') {
      const event = obj(body.event);
      if (typeof event.title !== 'string' || !event.title.trim()) return bad('event.title', `An ${topic} post needs event.title.`);
      if ([...event.title].length > EVENT_TITLE_MAX) return bad('event.title', `event.title exceeds the maximum of ${EVENT_TITLE_MAX} characters.`);
      const schedule = obj(event.schedule);
      const start = date(schedule.startDate);
      const end = date(schedule.endDate);
      if (start === undefined || end === undefined) return bad('event.schedule', `An ${topic} post needs event.schedule with startDate and endDate.`);
      if (end + time(schedule.endTime) < start + time(schedule.startTime)) return bad('event.schedule', 'event.schedule ends before it starts.');
    }
    if (body.callToAction !== undefined && topic !== 'OFFER') {
      const cta = obj(body.callToAction);
      if (typeof cta.actionType !== 'string' || !CTA_TYPES.includes(cta.actionType)) return bad('call_to_action.action_type', `callToAction.actionType must be one of ${CTA_TYPES.join(', ')}.`);
      if (cta.actionType === 'CALL' && cta.url !== undefined) return bad('call_to_action.url', 'A CALL action takes no url: the location\'s phone number is used.');
      if (cta.actionType !== 'CALL' && (typeof cta.url !== 'string' || !/^https?:\/\//.test(cta.url))) return bad('call_to_action.url', 'callToAction.url is required for this action type.');
    }
    if (topic === 'OFFER' && body.offer !== undefined) {
      const offer = obj(body.offer);
      if (offer.redeemOnlineUrl !== undefined && (typeof offer.redeemOnlineUrl !== 'string' || !/^https?:\/\//.test(offer.redeemOnlineUrl))) return bad('offer.redeem_online_url', 'offer.redeemOnlineUrl must be a URL.');
      if (typeof offer.couponCode === 'string' && [...offer.couponCode].length > 58) return bad('offer.coupon_code', 'offer.couponCode exceeds 58 characters.');
    }
    if (body.media !== undefined) {
      if (!Array.isArray(body.media) || body.media.length > 10) return bad('media', 'media must be a list of at most 10 items.');
      for (const [i, item] of body.media.entries()) {
        const m = obj(item);
        const data = await fetchMedia(m.sourceUrl);
        if (typeof data === 'string') return bad(`media[${i}].source_url`, data);
        const problem = badMedia(String(m.mediaFormat), data);
        if (problem) return bad(`media[${i}]`, problem);
      }
    }
    return true;
  }

  const postResource = (p: GbpLocalPost) => {
    const location = locations.get(p.locationId)!;
    const lpsid = p.name.split('/').at(-1);
    return {
      name: p.name, ...p.body, state: p.state, createTime: p.createTime, updateTime: p.updateTime,
      searchUrl: `https://local.google.com/place?id=${location.placeId}&use=posts&lpsid=${lpsid}`,
      ...(Array.isArray(p.body.media) ? { media: (p.body.media as unknown[]).map((m, i) => ({ ...obj(m), name: `${p.name}/media/${i}`, googleUrl: `https://lh3.googleusercontent.com/p/${lpsid}-${i}` })) } : {}),
    };
  };

  async function route(req: SimRequest, res: ServerResponse, failure: GoogleBusinessFailureMode | undefined) {
    if (req.path === '/o/oauth2/v2/auth') return req.method === 'POST' ? oauth.answer(req, res) : oauth.page(req, res);
    if (req.path === '/token') {
      if (failure === 'token_revoked') return oauthError(res, 400, 'invalid_grant', 'Token has been expired or revoked.');
      if (failure === 'server_error') return oauthError(res, 500, 'internal_failure', 'Internal failure.');
      return oauth.token(req, res);
    }
    switch (failure) {
      case 'token_expired':
      case 'token_revoked': return apiError(res, 401, 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.');
      case 'rate_limited': return apiError(res, 429, 'Resource has been exhausted (e.g. check quota).', { headers: { 'retry-after': String(GBP_SIM_RETRY_AFTER_SECONDS) } });
      case 'quota_zero': return apiError(res, 429, "Quota exceeded for quota metric 'Requests' and limit 'Requests per minute' of service 'mybusinessbusinessinformation.googleapis.com' for consumer 'project_number:0'.");
      case 'server_error': return apiError(res, 500, 'Internal error encountered.');
      case 'service_unavailable': return apiError(res, 503, 'The service is currently unavailable.');
      case 'permission_denied': return apiError(res, 403, 'The caller does not have permission');
      case 'invalid_argument': return apiError(res, 400, 'Request contains an invalid argument.', { field: 'summary' });
      default: break;
    }
    const user = authorize(req, res);
    if (!user) return undefined;

    if (req.method === 'GET' && req.path === '/v1/accounts') {
      return sendJson(res, 200, { accounts: [accountResource(user)] });
    }
    const perf = /^\/v1\/locations\/([^/:]+):fetchMultiDailyMetricsTimeSeries$/.exec(req.path);
    if (perf && req.method === 'GET') {
      const location = locations.get(perf[1]!);
      if (!location) return apiError(res, 404, 'Requested entity was not found.');
      if (location.accountId !== user.accountId) return apiError(res, 403, 'The caller does not have permission');
      return performance.fetchMulti(req, res, location.id);
    }
    let m = /^\/v1\/accounts\/([^/]+)\/locations$/.exec(req.path);
    if (m && req.method === 'GET') {
      if (m[1] !== user.accountId) return apiError(res, 403, 'The caller does not have permission');
      const mask = (req.query.readMask ?? '').split(',').map((s) => s.trim()).filter(Boolean);
      if (!mask.length) return apiError(res, 400, 'Request contains an invalid argument.', { field: 'read_mask' });
      const all = [...locations.values()].filter((l) => l.accountId === m![1]);
      const size = Math.min(100, Math.max(1, Number(req.query.pageSize) || 10));
      const from = Number(req.query.pageToken ?? 0) || 0;
      const page = all.slice(from, from + size);
      return sendJson(res, 200, { locations: page.map((l) => locationResource(l, mask)), ...(from + size < all.length ? { nextPageToken: String(from + size) } : {}), totalSize: all.length });
    }
    m = /^\/v4\/accounts\/([^/]+)\/locations\/([^/]+)\/(localPosts|media)(?:\/([^/]+))?$/.exec(req.path);
    if (!m) return apiError(res, 404, `Method not found: ${req.method} ${req.path}`);
    const [, accountId, locationId, collection, itemId] = m as unknown as [string, string, string, string, string | undefined];
    const location = ownedLocation(res, user, accountId, locationId);
    if (!location) return undefined;
    const body = req.body.kind === 'json' ? obj(req.body.value) : {};
    const now = new Date().toISOString();

    if (collection === 'localPosts') {
      if (!itemId && req.method === 'POST') {
        if (!location.verified) return apiError(res, 400, 'Location is not verified.', { status: 'FAILED_PRECONDITION' });
        if (req.body.kind !== 'json') return apiError(res, 400, 'Invalid JSON payload received.');
        if (!(await validPost(res, body, ['topicType']))) return undefined;
        const name = `accounts/${accountId}/locations/${locationId}/localPosts/${digits('post', 19)}`;
        const { name: _n, state: _s, searchUrl: _u, createTime: _c, updateTime: _t, ...content } = body;
        const post: GbpLocalPost = { name, accountId, locationId, body: content, state: Array.isArray(body.media) && body.media.length ? 'PROCESSING' : 'LIVE', createTime: now, updateTime: now };
        posts.set(name, post);
        return sendJson(res, 200, postResource(post));
      }
      if (!itemId && req.method === 'GET') {
        return sendJson(res, 200, { localPosts: [...posts.values()].filter((p) => p.locationId === locationId).map(postResource) });
      }
      const post = itemId ? posts.get(`accounts/${accountId}/locations/${locationId}/localPosts/${itemId}`) : undefined;
      if (!post) return apiError(res, 404, 'Requested entity was not found.');
      if (req.method === 'GET') return sendJson(res, 200, postResource(post));
      if (req.method === 'DELETE') {
        posts.delete(post.name);
        return sendJson(res, 200, {});
      }
      if (req.method === 'PATCH') {
        const mask = (req.query.updateMask ?? '').split(',').map((s) => s.trim()).filter(Boolean);
        if (!mask.length) return apiError(res, 400, 'updateMask is required.', { field: 'update_mask' });
        const allowed = ['summary', 'callToAction', 'event', 'offer', 'media', 'languageCode'];
        const unknown = mask.find((f) => !allowed.includes(f.split('.')[0]!));
        if (unknown) return apiError(res, 400, `Invalid field mask path: ${unknown}`, { field: 'update_mask' });
        const next = { ...post.body };
        for (const f of mask) next[f] = body[f];
        if (!(await validPost(res, next, []))) return undefined;
        post.body = next;
        post.updateTime = now;
        return sendJson(res, 200, postResource(post));
      }
      return apiError(res, 405, 'Method not allowed.');
    }
    // media
    if (!itemId && req.method === 'POST') {
      if (!location.verified) return apiError(res, 400, 'Location is not verified.', { status: 'FAILED_PRECONDITION' });
      const category = obj(body.locationAssociation).category;
      if (typeof category !== 'string' || !GBP_MEDIA_CATEGORIES.includes(category)) return apiError(res, 400, `locationAssociation.category must be one of ${GBP_MEDIA_CATEGORIES.join(', ')}.`, { field: 'location_association.category' });
      if (body.mediaFormat === 'VIDEO' && ['COVER', 'PROFILE', 'LOGO'].includes(category)) return apiError(res, 400, `A ${category} item must be a photo.`, { field: 'media_format' });
      const data = await fetchMedia(body.sourceUrl);
      if (typeof data === 'string') return apiError(res, 400, data, { field: 'source_url' });
      const problem = badMedia(String(body.mediaFormat), data);
      if (problem) return apiError(res, 400, problem, { field: 'media_format' });
      const name = `accounts/${accountId}/locations/${locationId}/media/${seeded('media').toString('base64url').slice(0, 32)}`;
      const item: GbpMediaItem = { name, locationId, mediaFormat: String(body.mediaFormat), category, ...(typeof body.description === 'string' ? { description: body.description } : {}), size: data.length };
      media.set(name, item);
      const image = imageDimensions(data);
      return sendJson(res, 200, {
        name, mediaFormat: item.mediaFormat, locationAssociation: { category }, sourceUrl: body.sourceUrl,
        googleUrl: `https://lh3.googleusercontent.com/p/${name.split('/').at(-1)}`, thumbnailUrl: `https://lh3.googleusercontent.com/p/${name.split('/').at(-1)}=s200`,
        createTime: now, ...(image ? { dimensions: { widthPixels: image.width, heightPixels: image.height } } : {}),
        ...(item.description ? { description: item.description } : {}),
      });
    }
    const item = itemId ? media.get(`accounts/${accountId}/locations/${locationId}/media/${itemId}`) : undefined;
    if (!item) return apiError(res, 404, 'Requested entity was not found.');
    if (req.method === 'DELETE') {
      media.delete(item.name);
      return sendJson(res, 200, {});
    }
    return apiError(res, 405, 'Method not allowed.');
  }

  const host = await startSimulatorHost<GoogleBusinessFailureMode>({
    port: opts.port,
    maxBodyBytes: 8 * 1024 * 1024,
    failureModes: GOOGLE_BUSINESS_FAILURE_MODES,
    state: () => ({
      users: [...users.values()], locations: [...locations.values()], postCount: posts.size, mediaCount: media.size,
    }),
    reset: () => { posts.clear(); media.clear(); },
    controls: { analytics_clock: clockControl(performance.model) },
    handle(req, res, failure) {
      // Token-endpoint failures only apply there; API failures only to the API.
      void route(req, res, failure).catch((err: unknown) => { if (!res.headersSent) apiError(res, 500, String(err)); });
    },
  });

  return {
    port: host.port,
    origin: host.origin,
    apiBase: host.origin,
    authBase: host.origin,
    tokenUrl: `${host.origin}/token`,
    performanceBase: host.origin,
    analytics: performance,
    get requests() { return host.requests; },
    createClient: ({ redirectUris }) => oauth.createClient(redirectUris),
    createUser({ name }) {
      const user: GbpUser = { id: digits('user', 21), name, accountId: digits('account', 20) };
      users.set(user.id, user);
      return { ...user };
    },
    createLocation(accountId, input) {
      const id = digits('location', 19);
      const location: GbpLocation = {
        id, accountId, title: input.title, verified: input.verified ?? true,
        placeId: `ChIJ${seeded('place').toString('base64url').slice(0, 23)}`, address: input.address ?? '1 Main Street',
      };
      locations.set(id, location);
      return { ...location };
    },
    posts: (locationId) => [...posts.values()].filter((p) => !locationId || p.locationId === locationId).map((p) => structuredClone(p)),
    mediaItems: (locationId) => [...media.values()].filter((m) => !locationId || m.locationId === locationId).map((m) => ({ ...m })),
    expireAccessTokens: (userId) => oauth.expireAccessTokens(userId),
    revoke: (userId) => oauth.revoke(userId),
    fail: (mode, times) => host.fail(mode, times),
    setLatency: (ms) => host.setLatency(ms),
    state: () => host.state(),
    reset: () => host.reset(),
    close: () => host.close(),
  };
}
