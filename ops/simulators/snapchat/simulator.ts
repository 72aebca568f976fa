/**
 * Loopback simulator of Snap's Public Profile API (developers.snap.com/api/marketing-api/Public-Profile-API)
 * and Snap's OAuth 2 (accounts.snapchat.com/login/oauth2/…), on one origin:
 * - `GET|POST /login/oauth2/authorize`, `POST /login/oauth2/access_token` (scope snapchat-profile-api;
 *   access tokens of 30 minutes, refresh tokens rotate);
 * - `GET /v1/public_profiles/my_profile`;
 * - the upload flow of Profile Asset Management: `POST /v1/public_profiles/{p}/media` creates a media
 *   container with the AES-256-CBC `key` and `iv` (base64) the file was encrypted with, and answers
 *   its `add_path` and `finalize_path`; multipart `action=ADD` + `part_number` + `file` (encrypted
 *   parts of at most 32 MB, in order), then `action=FINALIZE`: the parts are joined, decrypted with
 *   the key and checked (MP4 video of 5-60 s, or JPEG/PNG image);
 * - `POST /v1/public_profiles/{p}/stories` and `/spotlights` with `media_id` (Spotlight: video only,
 *   description at most 160 characters), `DELETE` of either.
 * Errors: `{request_status: "ERROR", request_id, debug_message, display_message, error_code}`.
 * Where Snap's exact field names are not public (the shape of the media and post answers), this
 * simulator defines them, and the adapter reads them defensively (docs/publishing.md, Snapchat).
 */
import type { ServerResponse } from 'node:http';
import { createDecipheriv, randomUUID } from 'node:crypto';
import { createSeededSource, sendJson, startSimulatorHost, type RecordedRequest, type SimRequest } from '../kit/http';
import { createOAuthServer, oauthError } from '../kit/oauth';

export const SNAP_SCOPE = 'snapchat-profile-api';
export const SNAPCHAT_FAILURE_MODES = ['token_expired', 'token_revoked', 'rate_limited', 'server_error', 'service_unavailable', 'not_allowlisted', 'media_rejected'] as const;
export type SnapchatFailureMode = (typeof SNAPCHAT_FAILURE_MODES)[number];
export const SNAP_SIM_RETRY_AFTER_SECONDS = 10;
export const SNAP_PART_MAX_BYTES = 32 * 1024 * 1024;
const SPOTLIGHT_DESCRIPTION_MAX = 160;

export interface SnapProfile { id: string; userId: string; displayName: string; username: string }
interface SnapMedia {
  id: string; profileId: string; type: 'VIDEO' | 'IMAGE'; key: Buffer; iv: Buffer;
  parts: Map<number, Buffer>; state: 'PENDING_UPLOAD' | 'READY'; decrypted?: Buffer; durationSeconds?: number; used: boolean;
}
export interface SnapPost { id: string; kind: 'story' | 'spotlight'; profileId: string; mediaId: string; mediaType: string; size: number; description?: string; locale?: string; createdAt: string }

export interface SnapchatSimulatorOptions { port?: number; seed?: string; accessTokenTtlSeconds?: number }

export interface SnapchatSimulator {
  port: number;
  origin: string;
  apiBase: string;
  authBase: string;
  readonly requests: RecordedRequest[];
  createClient(input: { redirectUris: string[] }): { clientId: string; clientSecret: string };
  /** A Snapchat user with a Public Profile. */
  createProfile(input: { displayName: string; username: string }): SnapProfile;
  posts(profileId?: string): SnapPost[];
  /** Media containers, with their upload state (parts received, READY after finalize). */
  media(): Array<{ id: string; type: string; state: string; parts: number; size?: number; durationSeconds?: number }>;
  expireAccessTokens(userId: string): void;
  revoke(userId: string): void;
  fail(mode: SnapchatFailureMode, times?: number): void;
  setLatency(ms: number): void;
  state(): Record<string, unknown>;
  reset(): void;
  close(): Promise<void>;
}

function snapError(res: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}) {
  sendJson(res, status, { request_status: 'ERROR', request_id: randomUUID(), debug_message: message, display_message: message, error_code: code }, headers);
}

/** Seconds of an MP4/MOV from its `mvhd` box, undefined when there is none. */
export function mp4DurationSeconds(data: Buffer): number | undefined {
  const at = data.indexOf('mvhd');
  if (at < 4 || at + 32 > data.length) return undefined;
  const version = data[at + 4];
  if (version === 1) {
    const timescale = data.readUInt32BE(at + 24);
    const duration = Number(data.readBigUInt64BE(at + 28));
    return timescale ? duration / timescale : undefined;
  }
  const timescale = data.readUInt32BE(at + 16);
  const duration = data.readUInt32BE(at + 20);
  return timescale ? duration / timescale : undefined;
}

const isImage = (d: Buffer) => (d[0] === 0xff && d[1] === 0xd8) || (d[0] === 0x89 && d.subarray(1, 4).toString('latin1') === 'PNG');

export async function startSnapchatSimulator(opts: SnapchatSimulatorOptions = {}): Promise<SnapchatSimulator> {
  const seeded = createSeededSource(opts.seed);
  const uuid = (kind: string) => {
    const h = seeded(kind).toString('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  };
  const profiles = new Map<string, SnapProfile>();
  const media = new Map<string, SnapMedia>();
  const posts = new Map<string, SnapPost>();

  const oauth = createOAuthServer({
    seeded, title: 'Snapchat: allow Herald to manage your Public Profile', authorizePath: '/login/oauth2/authorize',
    knownScopes: [SNAP_SCOPE, 'snapchat-marketing-api'], accessTokenTtlSeconds: opts.accessTokenTtlSeconds ?? 1800,
    accessPrefix: 'eyJ', refreshPrefix: 'hCg', refreshRotation: 'rotate',
    clientIdOf: (s) => uuid(`client-${s('c').readUInt32BE(0)}`),
    clientSecretOf: (s) => s('client-secret').toString('hex').slice(0, 40),
    accounts: () => [...profiles.values()].map((p) => ({ id: p.userId, label: `${p.displayName} (@${p.username})` })),
  });

  function authorize(req: SimRequest, res: ServerResponse): SnapProfile | undefined {
    const check = oauth.bearer(req, [SNAP_SCOPE]);
    if (check.kind === 'scope') return void snapError(res, 403, 'E1003', 'The token lacks the snapchat-profile-api scope.');
    if (check.kind !== 'ok') return void snapError(res, 401, 'E1002', 'Unauthorized: the access token is invalid or expired.');
    const profile = [...profiles.values()].find((p) => p.userId === check.grant.accountId);
    if (!profile) return void snapError(res, 403, 'E1003', 'The user has no Public Profile.');
    return profile;
  }

  const jsonBody = (req: SimRequest) => (req.body.kind === 'json' && req.body.value && typeof req.body.value === 'object' ? req.body.value as Record<string, unknown> : undefined);

  function createMedia(req: SimRequest, res: ServerResponse, profile: SnapProfile) {
    const body = jsonBody(req);
    if (!body) return snapError(res, 400, 'E1001', 'The request body must be JSON.');
    if (body.type !== 'VIDEO' && body.type !== 'IMAGE') return snapError(res, 400, 'E1001', 'type must be VIDEO or IMAGE.');
    const key = typeof body.key === 'string' ? Buffer.from(body.key, 'base64') : Buffer.alloc(0);
    const iv = typeof body.iv === 'string' ? Buffer.from(body.iv, 'base64') : Buffer.alloc(0);
    if (key.length !== 32) return snapError(res, 400, 'E1001', 'key must be the base64 of a 32-byte AES-256 key.');
    if (iv.length !== 16) return snapError(res, 400, 'E1001', 'iv must be the base64 of a 16-byte initialization vector.');
    if (typeof body.name !== 'string' || !body.name.trim()) return snapError(res, 400, 'E1001', 'name is required.');
    const id = uuid('media');
    media.set(id, { id, profileId: profile.id, type: body.type, key, iv, parts: new Map(), state: 'PENDING_UPLOAD', used: false });
    const base = `/v1/public_profiles/${profile.id}/media/${id}/multipart-upload-v2`;
    return sendJson(res, 200, { request_status: 'SUCCESS', request_id: randomUUID(), media_id: id, add_path: `${base}?action=ADD`, finalize_path: `${base}?action=FINALIZE` });
  }

  function upload(req: SimRequest, res: ServerResponse, profile: SnapProfile, mediaId: string, failure: SnapchatFailureMode | undefined) {
    const item = media.get(mediaId);
    if (!item || item.profileId !== profile.id) return snapError(res, 404, 'E1004', 'Media not found.');
    if (req.body.kind === 'too_large') return snapError(res, 413, 'E1001', `A part is at most ${SNAP_PART_MAX_BYTES} bytes.`);
    if (req.body.kind !== 'multipart') return snapError(res, 400, 'E1001', 'The upload must be multipart/form-data.');
    const fields = req.body.fields;
    const action = fields.action ?? req.query.action;
    if (item.state === 'READY') return snapError(res, 400, 'E1001', 'The media is already finalized.');
    if (action === 'ADD') {
      const part = Number(fields.part_number);
      const file = req.body.files.find((f) => f.name === 'file');
      if (!Number.isInteger(part) || part < 1) return snapError(res, 400, 'E1001', 'part_number must be a positive integer.');
      if (part !== item.parts.size + 1 && !item.parts.has(part)) return snapError(res, 400, 'E1001', `part_number ${part} is out of order; expected ${item.parts.size + 1}.`);
      if (!file || file.data.length === 0) return snapError(res, 400, 'E1001', 'file is required.');
      if (file.data.length > SNAP_PART_MAX_BYTES) return snapError(res, 400, 'E1001', `A part is at most ${SNAP_PART_MAX_BYTES} bytes.`);
      item.parts.set(part, file.data);
      return sendJson(res, 200, { request_status: 'SUCCESS', request_id: randomUUID() });
    }
    if (action === 'FINALIZE') {
      if (!item.parts.size) return snapError(res, 400, 'E1001', 'No part was uploaded.');
      const encrypted = Buffer.concat([...item.parts.keys()].sort((a, b) => a - b).map((n) => item.parts.get(n)!));
      let decrypted: Buffer;
      try {
        const decipher = createDecipheriv('aes-256-cbc', item.key, item.iv);
        decrypted = Buffer.concat([decipher.update(encrypted), decipher.final()]);
      } catch {
        return snapError(res, 400, 'E2001', 'The media could not be decrypted with the key and iv given when it was created.');
      }
      if (failure === 'media_rejected') return snapError(res, 400, 'E2003', 'The media was rejected by content review.');
      if (item.type === 'VIDEO') {
        if (decrypted.subarray(4, 8).toString('latin1') !== 'ftyp') return snapError(res, 400, 'E2002', 'The video must be an MP4 file.');
        const seconds = mp4DurationSeconds(decrypted);
        if (seconds === undefined || seconds < 5 || seconds > 60) return snapError(res, 400, 'E2002', `The video must last 5 to 60 seconds${seconds === undefined ? '' : `; it lasts ${seconds.toFixed(1)}`}.`);
        item.durationSeconds = seconds;
      } else if (!isImage(decrypted)) {
        return snapError(res, 400, 'E2002', 'The image must be a JPEG or PNG file.');
      }
      item.decrypted = decrypted;
      item.state = 'READY';
      return sendJson(res, 200, { request_status: 'SUCCESS', request_id: randomUUID(), media_id: item.id, media_status: 'READY' });
    }
    return snapError(res, 400, 'E1001', 'action must be ADD or FINALIZE.');
  }

  function createPost(req: SimRequest, res: ServerResponse, profile: SnapProfile, kind: 'story' | 'spotlight') {
    const body = jsonBody(req);
    if (!body) return snapError(res, 400, 'E1001', 'The request body must be JSON.');
    const item = typeof body.media_id === 'string' ? media.get(body.media_id) : undefined;
    if (!item || item.profileId !== profile.id) return snapError(res, 400, 'E1004', 'media_id does not name a media of this profile.');
    if (item.state !== 'READY') return snapError(res, 400, 'E1001', 'The media is not finalized.');
    if (item.used) return snapError(res, 400, 'E1001', 'The media was already posted.');
    if (kind === 'spotlight') {
      if (item.type !== 'VIDEO') return snapError(res, 400, 'E1001', 'Spotlight takes videos only.');
      if (body.description !== undefined && (typeof body.description !== 'string' || [...body.description].length > SPOTLIGHT_DESCRIPTION_MAX)) {
        return snapError(res, 400, 'E1001', `description is at most ${SPOTLIGHT_DESCRIPTION_MAX} characters, hashtags included.`);
      }
    }
    item.used = true;
    const post: SnapPost = {
      id: uuid(kind), kind, profileId: profile.id, mediaId: item.id, mediaType: item.type, size: item.decrypted!.length, createdAt: new Date().toISOString(),
      ...(typeof body.description === 'string' ? { description: body.description } : {}), ...(typeof body.locale === 'string' ? { locale: body.locale } : {}),
    };
    posts.set(post.id, post);
    return sendJson(res, 200, { request_status: 'SUCCESS', request_id: randomUUID(), [kind]: { id: post.id, media_id: item.id, created_at: post.createdAt, ...(post.description ? { description: post.description } : {}) } });
  }

  async function route(req: SimRequest, res: ServerResponse, failure: SnapchatFailureMode | undefined) {
    if (req.path === '/login/oauth2/authorize') return req.method === 'POST' ? oauth.answer(req, res) : oauth.page(req, res);
    if (req.path === '/login/oauth2/access_token') {
      if (failure === 'token_revoked') return oauthError(res, 400, 'invalid_grant', 'Invalid refresh token.');
      if (failure === 'server_error') return oauthError(res, 500, 'server_error', 'Internal error.');
      return oauth.token(req, res);
    }
    switch (failure) {
      case 'token_expired':
      case 'token_revoked': return snapError(res, 401, 'E1002', 'Unauthorized: the access token is invalid or expired.');
      case 'rate_limited': return snapError(res, 429, 'E1008', 'Too many requests.', { 'retry-after': String(SNAP_SIM_RETRY_AFTER_SECONDS) });
      case 'server_error': return snapError(res, 500, 'E3001', 'Internal server error.');
      case 'service_unavailable': return snapError(res, 503, 'E3002', 'Service unavailable.');
      case 'not_allowlisted': return snapError(res, 403, 'E1003', 'This app is not allowlisted for the Public Profile API.');
      default: break;
    }
    const profile = authorize(req, res);
    if (!profile) return undefined;
    if (req.method === 'GET' && req.path === '/v1/public_profiles/my_profile') {
      return sendJson(res, 200, {
        request_status: 'SUCCESS', request_id: randomUUID(),
        public_profile: { id: profile.id, display_name: profile.displayName, snap_user_name: profile.username, profile_picture_url: `https://cf-st.sc-cdn.net/aps/bolt/${profile.id}.jpg` },
      });
    }
    const m = /^\/v1\/public_profiles\/([^/]+)\/(media|stories|spotlights)(?:\/([^/]+)(\/multipart-upload-v2)?)?$/.exec(req.path);
    if (!m) return snapError(res, 404, 'E1004', `Not found: ${req.method} ${req.path}`);
    const [, profileId, collection, itemId, multipart] = m;
    if (profileId !== profile.id) return snapError(res, 403, 'E1003', 'The token does not manage this Public Profile.');
    if (collection === 'media' && !itemId && req.method === 'POST') return createMedia(req, res, profile);
    if (collection === 'media' && itemId && multipart && req.method === 'POST') return upload(req, res, profile, itemId, failure);
    if ((collection === 'stories' || collection === 'spotlights') && !itemId && req.method === 'POST') return createPost(req, res, profile, collection === 'stories' ? 'story' : 'spotlight');
    if ((collection === 'stories' || collection === 'spotlights') && itemId && req.method === 'DELETE') {
      const post = posts.get(itemId);
      if (!post || post.profileId !== profile.id) return snapError(res, 404, 'E1004', 'Not found.');
      posts.delete(itemId);
      return sendJson(res, 200, { request_status: 'SUCCESS', request_id: randomUUID() });
    }
    return snapError(res, 405, 'E1001', `${req.method} is not supported here.`);
  }

  const host = await startSimulatorHost<SnapchatFailureMode>({
    port: opts.port,
    maxBodyBytes: SNAP_PART_MAX_BYTES + 1024 * 1024,
    failureModes: SNAPCHAT_FAILURE_MODES,
    state: () => ({ profiles: [...profiles.values()], mediaCount: media.size, postCount: posts.size }),
    reset: () => { media.clear(); posts.clear(); },
    handle(req, res, queued) {
      // A media verdict applies at FINALIZE; it waits there rather than being spent on another call.
      let failure = queued;
      if (failure === 'media_rejected' && !/multipart-upload-v2$/.test(req.path)) {
        host.fail('media_rejected');
        failure = undefined;
      }
      if (failure === 'media_rejected' && (req.body.kind !== 'multipart' || req.body.fields.action !== 'FINALIZE')) {
        host.fail('media_rejected');
        failure = undefined;
      }
      void route(req, res, failure).catch((err: unknown) => { if (!res.headersSent) snapError(res, 500, 'E3001', String(err)); });
    },
  });

  return {
    port: host.port,
    origin: host.origin,
    apiBase: host.origin,
    authBase: host.origin,
    get requests() { return host.requests; },
    createClient: ({ redirectUris }) => oauth.createClient(redirectUris),
    createProfile(input) {
      const profile: SnapProfile = { id: uuid('profile'), userId: uuid('user'), ...input };
      profiles.set(profile.id, profile);
      return { ...profile };
    },
    posts: (profileId) => [...posts.values()].filter((p) => !profileId || p.profileId === profileId).map((p) => ({ ...p })),
    media: () => [...media.values()].map((m) => ({
      id: m.id, type: m.type, state: m.state, parts: m.parts.size,
      ...(m.decrypted ? { size: m.decrypted.length } : {}), ...(m.durationSeconds !== undefined ? { durationSeconds: m.durationSeconds } : {}),
    })),
    expireAccessTokens: (userId) => oauth.expireAccessTokens(userId),
    revoke: (userId) => oauth.revoke(userId),
    fail: (mode, times) => host.fail(mode, times),
    setLatency: (ms) => host.setLatency(ms),
    state: () => host.state(),
    reset: () => host.reset(),
    close: () => host.close(),
  };
}
