/**
 * Loopback simulator of LinkedIn: the OAuth 2 authorization-code flow (approve page, accessToken
 * with refresh-token rotation, PKCE when a challenge was sent), OpenID /v2/userinfo, and the
 * versioned REST API used for publishing (images and videos initializeUpload, signed upload URLs,
 * finalizeUpload, video processing, posts, comments, organization roles), with LinkedIn's headers,
 * error bodies `{status, serviceErrorCode, code, message}` and "little" text parsing.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { createSeededSource, sendEmpty, sendJson, sendText, startSimulatorHost, type RecordedRequest, type SimRequest } from '../kit/http';

/**
 * Failure switches. Each is consumed by the next request it can apply to: the first three by any
 * request, token ones by the next bearer call (/rest, /v2), version_retired by the next /rest call,
 * upload_failed / thumbnail_rejected by the next byte upload (of a thumbnail), video_processing_failed
 * by the next finalized video, duplicate_post / content_rejected by the next post creation.
 */
export const LINKEDIN_FAILURE_MODES = [
  'rate_limited', 'server_error', 'gateway_timeout',
  'expired_token', 'revoked_token', 'access_denied', 'version_retired',
  'upload_failed', 'thumbnail_rejected', 'video_processing_failed',
  'duplicate_post', 'content_rejected',
] as const;
export type LinkedInFailureMode = (typeof LINKEDIN_FAILURE_MODES)[number];

/** Seconds in the Retry-After header of a rate_limited answer. */
export const LINKEDIN_SIM_RETRY_AFTER_SECONDS = 120;
export const LINKEDIN_SIM_ALL_SCOPES = ['openid', 'profile', 'email', 'w_member_social', 'w_organization_social', 'r_organization_admin'];

const ACCESS_TTL_S = 60 * 86400;
const REFRESH_TTL_S = 365 * 86400;
const CODE_TTL_MS = 30 * 60_000;
/** LinkedIn hands out 4 MiB parts. */
const DEFAULT_PART_BYTES = 4 * 1024 * 1024;
const VIDEO_MAX_BYTES = 500 * 1024 * 1024;
const THUMBNAIL_MAX_BYTES = 10 * 1024 * 1024;
const COMMENTARY_MAX = 3000;
const MEDIA_TITLE_MAX = 400;
const ALT_TEXT_MAX = 4086;
const COMMENT_MAX = 1250;
const VISIBILITIES = ['PUBLIC', 'CONNECTIONS', 'LOGGED_IN', 'CONTAINER'];
const POLL_DURATIONS = ['ONE_DAY', 'THREE_DAYS', 'SEVEN_DAYS', 'FOURTEEN_DAYS'];
const POSTING_ROLES = ['ADMINISTRATOR', 'CONTENT_ADMINISTRATOR', 'DIRECT_SPONSORED_CONTENT_POSTER'];

export interface LinkedInSimulatorOptions {
  port?: number;
  /** Fixture ids (members, pages, clients) derive from it. Default random. */
  seed?: string;
  /** How long a finalized video stays PROCESSING. Default 50 ms. */
  processingMs?: number;
  /** Size of the video parts handed out by initializeUpload. Default 4 MiB like LinkedIn. */
  uploadPartBytes?: number;
}

export interface LinkedInClientFixture {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  scopes: string[];
  /** Programmatic refresh tokens (LinkedIn grants them to approved partners only). */
  refreshTokens: boolean;
}

export interface LinkedInPageFixture { id: string; name: string; role: string }

export interface LinkedInAccountFixture {
  /** OpenID `sub`; the member URN is urn:li:person:<sub>. */
  sub: string;
  urn: string;
  name: string;
  givenName: string;
  familyName: string;
  picture: string | null;
  email: string;
  pages: LinkedInPageFixture[];
}

export interface LinkedInSimPost {
  id: string;
  author: string;
  /** As sent (little text). */
  commentary: string;
  /** What LinkedIn shows: escapes resolved, cut at the first unescaped reserved character. */
  text: string;
  truncated: boolean;
  visibility: string;
  distribution: unknown;
  content?: Record<string, unknown>;
  lifecycleState: string;
  isReshareDisabledByAuthor: boolean;
  createdAt: number;
}

export interface LinkedInSimComment { id: string; urn: string; postUrn: string; actor: string; text: string; createdAt: number }

export interface LinkedInSimImage { urn: string; owner: string; status: string; size?: number; contentType?: string }

export interface LinkedInSimVideo {
  urn: string;
  owner: string;
  fileSizeBytes: number;
  status: string;
  parts: Array<{ firstByte: number; lastByte: number; etag?: string }>;
  uploadToken: string;
  thumbnail?: { size: number; contentType: string };
  processingFailureReason?: string;
}

export interface LinkedInSimulator {
  port: number;
  origin: string;
  /** The adapter's `apiBase` (the adapter adds /rest and /v2). */
  apiBase: string;
  /** The adapter's `authBase`: `<origin>/oauth/v2`. */
  authBase: string;
  /** A client registered at start, with no redirect URIs; used by issueTokens by default. */
  defaultClient: LinkedInClientFixture;
  registerClient(input: { redirectUris: string[]; clientId?: string; clientSecret?: string; scopes?: string[]; refreshTokens?: boolean }): LinkedInClientFixture;
  createAccount(input: { name: string; picture?: string | null; email?: string; pages?: Array<{ name: string; role?: string }> }): LinkedInAccountFixture;
  issueAuthCode(sub: string, opts: { clientId: string; redirectUri: string; scope?: string[]; codeChallenge?: string }): string;
  /** Tokens as a finished OAuth flow would give them, without the flow. */
  issueTokens(sub: string, opts?: { clientId?: string; scope?: string[] }): { accessToken: string; refreshToken?: string; expiresAt: Date; scope: string[] };
  expireAccessTokens(sub?: string): void;
  expireRefreshTokens(sub?: string): void;
  /** As when the member removes the app: access and refresh tokens stop working. */
  revokeTokens(sub?: string): void;
  accounts(): LinkedInAccountFixture[];
  posts(): LinkedInSimPost[];
  comments(postUrn?: string): LinkedInSimComment[];
  images(): LinkedInSimImage[];
  videos(): LinkedInSimVideo[];
  fail(mode: LinkedInFailureMode, times?: number): void;
  setLatency(ms: number): void;
  readonly requests: RecordedRequest[];
  state(): Record<string, unknown>;
  /** Clears posts, comments, media, queued failures, latency and recorded requests; accounts, clients and tokens stay. */
  reset(): void;
  close(): Promise<void>;
}

// --- little text ------------------------------------------------------------------------------

const RESERVED = /[\\|{}@[\]()<>#*_~]/;

/** What LinkedIn shows for a commentary: escapes resolved, links, hashtags and mentions kept, cut at the first stray reserved character. */
export function renderLittleText(src: string): { text: string; truncated: boolean } {
  let out = '';
  let i = 0;
  while (i < src.length) {
    const rest = src.slice(i);
    if (src[i] === '\\' && i + 1 < src.length) {
      const next = String.fromCodePoint(src.codePointAt(i + 1)!);
      out += next;
      i += 1 + next.length;
      continue;
    }
    const token = /^https?:\/\/[^\s]+/.exec(rest) ?? /^#[\p{L}\p{N}]+/u.exec(rest);
    if (token) {
      out += token[0];
      i += token[0].length;
      continue;
    }
    const mention = /^@\[([^\]]+)\]\(urn:li:(?:person|organization):[^)]+\)/.exec(rest);
    const hashtag = /^\{hashtag\|\\#\|([^}]+)\}/.exec(rest);
    if (mention || hashtag) {
      out += mention ? mention[1] : `#${hashtag![1]}`;
      i += (mention ?? hashtag)![0].length;
      continue;
    }
    if (RESERVED.test(src[i]!)) return { text: out, truncated: true };
    out += src[i];
    i += 1;
  }
  return { text: out, truncated: false };
}

const titleUnits = (s: string) => s.replace(/\r\n|\r|\n/g, '\n\n').length;
const codePoints = (s: string) => [...s].length;
const isImageBytes = (b: Buffer) =>
  (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) || b.subarray(0, 4).toString('latin1') === '\x89PNG' || b.subarray(0, 4).toString('latin1') === 'GIF8';
const isMp4Bytes = (b: Buffer) => b.subarray(4, 8).toString('latin1') === 'ftyp';
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const splitScopes = (raw: string | undefined) => (raw ?? '').split(/[\s,]+/).filter(Boolean);

// --- server state -------------------------------------------------------------------------------

interface TokenRecord { sub: string; clientId: string; scope: string[]; expiresAt: number; revoked: boolean }
interface RefreshRecord extends TokenRecord { used: boolean }
interface CodeRecord { sub: string; clientId: string; redirectUri: string; scope: string[]; expiresAt: number; challenge?: string; used: boolean }
interface UploadSlot { kind: 'image' | 'part' | 'thumbnail'; urn: string; part?: number; sig: string }
interface VideoRecord extends LinkedInSimVideo { head?: Buffer; readyAt?: number; failProcessing: boolean; thumbnailUrl?: string }
type ImageRecord = LinkedInSimImage;

type Route =
  | { name: 'authorize' | 'token' | 'userinfo' | 'unknown' }
  | { name: 'upload'; id: string }
  | { name: 'rest'; op: string; param?: string };

export async function startLinkedInSimulator(opts: LinkedInSimulatorOptions = {}): Promise<LinkedInSimulator> {
  const seeded = createSeededSource(opts.seed);
  const processingMs = opts.processingMs ?? 50;
  const partBytes = opts.uploadPartBytes ?? DEFAULT_PART_BYTES;
  const clients = new Map<string, LinkedInClientFixture>();
  const accounts = new Map<string, LinkedInAccountFixture>();
  const codes = new Map<string, CodeRecord>();
  const accessTokens = new Map<string, TokenRecord>();
  const refreshTokens = new Map<string, RefreshRecord>();
  const uploads = new Map<string, UploadSlot>();
  const images = new Map<string, ImageRecord>();
  const videos = new Map<string, VideoRecord>();
  const posts: LinkedInSimPost[] = [];
  const comments: LinkedInSimComment[] = [];
  /** Failures taken off the host's queue, waiting for a request they apply to. */
  const armed: LinkedInFailureMode[] = [];
  let sequence = 0;
  let origin = '';

  const secret = (bytes = 32) => randomBytes(bytes).toString('base64url');
  const liveId = () => ((BigInt(Date.now()) << 22n) | BigInt(sequence++ & 0x3fffff)).toString();
  const mediaId = (prefix: string) => `${prefix}${randomBytes(12).toString('base64url')}`;

  // --- answers ------------------------------------------------------------------------------

  const restError = (res: ServerResponse, status: number, code: string, message: string, serviceErrorCode?: number) =>
    sendJson(res, status, { status, ...(serviceErrorCode !== undefined ? { serviceErrorCode } : {}), code, message });
  const invalidField = (res: ServerResponse, path: string, message: string) =>
    restError(res, 422, 'UNPROCESSABLE_ENTITY', `ERROR :: ${path} :: ${message}`);
  const badRequest = (res: ServerResponse, message: string) => restError(res, 400, 'ILLEGAL_ARGUMENT', message);
  const notFound = (res: ServerResponse, what: string) => restError(res, 404, 'NOT_FOUND', `${what} not found`);
  const accessDenied = (res: ServerResponse, what: string, version = 'unknown') =>
    restError(res, 403, 'ACCESS_DENIED', `Not enough permissions to access: ${what}.${version}`, 100);
  const oauthError = (res: ServerResponse, status: number, error: string, description: string) =>
    sendJson(res, status, { error, error_description: description });

  /** Answers the failures that stand in for the whole request; false when the request goes on. */
  function answerFailure(mode: LinkedInFailureMode, res: ServerResponse): boolean {
    switch (mode) {
      case 'rate_limited':
        sendJson(res, 429, { status: 429, serviceErrorCode: 101, code: 'TOO_MANY_REQUESTS', message: 'Resource level throttle APPLICATION DAY limit for calls to this resource is reached.' },
          { 'retry-after': String(LINKEDIN_SIM_RETRY_AFTER_SECONDS) });
        return true;
      case 'server_error': restError(res, 500, 'INTERNAL_SERVER_ERROR', 'Internal Server Error'); return true;
      case 'gateway_timeout': sendText(res, 504, '<html><body><h1>504 Gateway Time-out</h1></body></html>', 'text/html'); return true;
      case 'expired_token': restError(res, 401, 'EXPIRED_ACCESS_TOKEN', 'The token used in the request has expired', 65600); return true;
      case 'revoked_token': restError(res, 401, 'REVOKED_ACCESS_TOKEN', 'The token used in the request has been revoked by the user', 65601); return true;
      case 'access_denied': accessDenied(res, 'partnerApiPostsExternal.CREATE'); return true;
      case 'version_retired': restError(res, 426, 'NONEXISTENT_VERSION', 'Requested version is not active'); return true;
      case 'upload_failed': restError(res, 500, 'INTERNAL_SERVER_ERROR', 'Upload failed'); return true;
      case 'thumbnail_rejected': restError(res, 400, 'INVALID_THUMBNAIL', 'The thumbnail could not be processed'); return true;
      case 'duplicate_post': restError(res, 422, 'DUPLICATE_POST', `Content is a duplicate of urn:li:share:${liveId()}`); return true;
      case 'content_rejected': invalidField(res, '/commentary', 'Content violates the content policy'); return true;
      case 'video_processing_failed': return false;
    }
  }

  function appliesTo(mode: LinkedInFailureMode, route: Route): boolean {
    const bearer = route.name === 'rest' || route.name === 'userinfo';
    switch (mode) {
      case 'rate_limited': case 'server_error': case 'gateway_timeout': return true;
      case 'expired_token': case 'revoked_token': case 'access_denied': return bearer;
      case 'version_retired': return route.name === 'rest';
      case 'upload_failed': return route.name === 'upload';
      case 'thumbnail_rejected': return route.name === 'upload' && uploads.get(route.id)?.kind === 'thumbnail';
      case 'video_processing_failed': return route.name === 'rest' && route.op === 'videos.finalizeUpload';
      case 'duplicate_post': case 'content_rejected': return route.name === 'rest' && route.op === 'posts.create';
    }
  }

  function takeArmed(route: Route): LinkedInFailureMode | undefined {
    const i = armed.findIndex((mode) => appliesTo(mode, route));
    return i < 0 ? undefined : armed.splice(i, 1)[0];
  }

  // --- tokens ---------------------------------------------------------------------------------

  function grantTokens(sub: string, client: LinkedInClientFixture, scope: string[]) {
    const accessToken = `AQ${secret(48)}`;
    const expiresAt = Date.now() + ACCESS_TTL_S * 1000;
    accessTokens.set(accessToken, { sub, clientId: client.clientId, scope, expiresAt, revoked: false });
    let refreshToken: string | undefined;
    if (client.refreshTokens) {
      refreshToken = `AQ${secret(48)}`;
      refreshTokens.set(refreshToken, { sub, clientId: client.clientId, scope, expiresAt: Date.now() + REFRESH_TTL_S * 1000, revoked: false, used: false });
    }
    return { accessToken, refreshToken, expiresAt, scope };
  }

  const tokenBody = (t: { accessToken: string; refreshToken?: string; scope: string[] }, refreshExpiresAt?: number) => ({
    access_token: t.accessToken,
    expires_in: ACCESS_TTL_S,
    ...(t.refreshToken ? { refresh_token: t.refreshToken, refresh_token_expires_in: Math.floor(((refreshExpiresAt ?? Date.now() + REFRESH_TTL_S * 1000) - Date.now()) / 1000) } : {}),
    // LinkedIn lists granted scopes separated by commas.
    scope: t.scope.join(','),
    token_type: 'Bearer',
  });

  function tokenEndpoint(req: SimRequest, res: ServerResponse) {
    if (req.method !== 'POST') return oauthError(res, 405, 'invalid_request', 'The token endpoint takes POST');
    if (req.body.kind !== 'form') return oauthError(res, 400, 'invalid_request', 'The request body must be application/x-www-form-urlencoded');
    const f = req.body.fields;
    const client = clients.get(f.client_id ?? '');
    if (!f.grant_type) return oauthError(res, 400, 'invalid_request', 'A required parameter "grant_type" is missing');
    if (!client || client.clientSecret !== f.client_secret) return oauthError(res, 401, 'invalid_client', 'Client authentication failed');

    if (f.grant_type === 'authorization_code') {
      if (!f.code || !f.redirect_uri) return oauthError(res, 400, 'invalid_request', 'A required parameter "code" or "redirect_uri" is missing');
      const code = codes.get(f.code);
      const mismatch = !code || code.used || code.expiresAt <= Date.now() || code.clientId !== client.clientId || code.redirectUri !== f.redirect_uri;
      if (mismatch) {
        return oauthError(res, 400, 'invalid_grant', 'Unable to retrieve access token: appid/redirect uri/code verifier does not match authorization code. Or authorization code expired.');
      }
      if (code.challenge !== undefined) {
        const verified = f.code_verifier && createHash('sha256').update(f.code_verifier).digest('base64url') === code.challenge;
        if (!verified) return oauthError(res, 400, 'invalid_grant', 'The code verifier does not match the code challenge');
      }
      code.used = true;
      return sendJson(res, 200, tokenBody(grantTokens(code.sub, client, code.scope)));
    }

    if (f.grant_type === 'refresh_token') {
      const old = refreshTokens.get(f.refresh_token ?? '');
      if (!old || old.used || old.revoked || old.expiresAt <= Date.now() || old.clientId !== client.clientId) {
        return oauthError(res, 400, 'invalid_grant', 'The provided authorization grant or refresh token is invalid, expired or revoked');
      }
      // Rotation: the old refresh token stops working, the new one keeps the original expiry.
      old.used = true;
      const accessToken = `AQ${secret(48)}`;
      accessTokens.set(accessToken, { sub: old.sub, clientId: old.clientId, scope: old.scope, expiresAt: Date.now() + ACCESS_TTL_S * 1000, revoked: false });
      const refreshToken = `AQ${secret(48)}`;
      refreshTokens.set(refreshToken, { ...old, used: false });
      return sendJson(res, 200, tokenBody({ accessToken, refreshToken, scope: old.scope }, old.expiresAt));
    }
    return oauthError(res, 400, 'unsupported_grant_type', `Unsupported grant type ${f.grant_type}`);
  }

  // --- authorize page -----------------------------------------------------------------------

  function authorize(req: SimRequest, res: ServerResponse) {
    const p = req.method === 'POST' && req.body.kind === 'form' ? req.body.fields : req.query;
    const client = clients.get(p.client_id ?? '');
    // Like LinkedIn, a bad client or redirect URI is shown on LinkedIn's page, never sent to that URI.
    if (!client) return sendText(res, 400, '<html><body><h1>Invalid client_id</h1></body></html>', 'text/html');
    if (!p.redirect_uri || !client.redirectUris.includes(p.redirect_uri)) {
      return sendText(res, 400, '<html><body><h1>The redirect_uri does not match the registered value</h1></body></html>', 'text/html');
    }
    const back = (params: Record<string, string>) => {
      const url = new URL(p.redirect_uri!);
      for (const [k, v] of Object.entries({ ...params, ...(p.state !== undefined ? { state: p.state } : {}) })) url.searchParams.set(k, v);
      res.writeHead(302, { location: url.toString() });
      res.end();
    };
    if (p.response_type !== 'code' && req.method === 'GET') return back({ error: 'invalid_request', error_description: 'response_type must be code' });
    const scope = splitScopes(p.scope);
    const refused = scope.filter((s) => !client.scopes.includes(s));
    if (!scope.length || refused.length) {
      return back({ error: 'unauthorized_scope_error', error_description: `Scope "${refused[0] ?? ''}" is not authorized for your application` });
    }
    if (p.code_challenge !== undefined && p.code_challenge_method !== 'S256') {
      return back({ error: 'invalid_request', error_description: 'code_challenge_method must be S256' });
    }

    if (req.method === 'POST') {
      if (p.decision !== 'allow') return back({ error: 'user_cancelled_authorize', error_description: 'The user cancelled the authorization' });
      const account = accounts.get(p.account ?? '');
      if (!account) return sendText(res, 400, '<html><body><h1>Choose an account</h1></body></html>', 'text/html');
      return back({ code: issueAuthCode(account.sub, { clientId: client.clientId, redirectUri: p.redirect_uri, scope, codeChallenge: p.code_challenge }) });
    }

    const hidden = ['client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method']
      .filter((k) => p[k] !== undefined)
      .map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(p[k]!)}">`).join('');
    const choices = [...accounts.values()].map((a, i) =>
      `<label><input type="radio" name="account" value="${escapeHtml(a.sub)}"${i === 0 ? ' checked' : ''}> ${escapeHtml(a.name)}</label><br>`).join('');
    sendText(res, 200, `<!doctype html><html><head><title>LinkedIn (simulator): authorize</title></head><body>
<h1>Allow this app to access your LinkedIn account?</h1><p>Scopes: ${escapeHtml(scope.join(', '))}</p>
<form method="post" action="/oauth/v2/authorization">${hidden}${choices || '<p>No sandbox accounts.</p>'}
<button name="decision" value="allow">Allow</button> <button name="decision" value="cancel">Cancel</button></form></body></html>`, 'text/html');
  }

  function issueAuthCode(sub: string, o: { clientId: string; redirectUri: string; scope?: string[]; codeChallenge?: string }): string {
    if (!accounts.has(sub)) throw new Error(`unknown account ${sub}`);
    const code = `AQ${secret(32)}`;
    codes.set(code, {
      sub, clientId: o.clientId, redirectUri: o.redirectUri, scope: o.scope ?? ['openid', 'profile', 'w_member_social'],
      expiresAt: Date.now() + CODE_TTL_MS, used: false, ...(o.codeChallenge !== undefined ? { challenge: o.codeChallenge } : {}),
    });
    return code;
  }

  // --- REST ------------------------------------------------------------------------------------

  function versionProblem(raw: string | undefined): { code: string; message: string } | undefined {
    if (!raw) return { code: 'VERSION_MISSING', message: 'A version must be present. Please specify a version by adding the LinkedIn-Version header.' };
    const m = /^(\d{4})(\d{2})(?:\.\d{2})?$/.exec(raw);
    const now = new Date();
    const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
    const month = m ? Number(m[1]) * 12 + Number(m[2]) - 1 : NaN;
    // A monthly version is served for a year; future months do not exist yet.
    if (!m || Number(m[2]) < 1 || Number(m[2]) > 12 || month > current || month <= current - 12) {
      return { code: 'NONEXISTENT_VERSION', message: `Requested version ${raw} is not active` };
    }
    return undefined;
  }

  function authenticate(req: SimRequest, res: ServerResponse): TokenRecord | undefined {
    const token = /^Bearer\s+(\S+)$/i.exec(String(req.headers.authorization ?? ''))?.[1];
    const record = token ? accessTokens.get(token) : undefined;
    if (!record) restError(res, 401, 'INVALID_ACCESS_TOKEN', 'Invalid access token', 65600);
    else if (record.revoked) restError(res, 401, 'REVOKED_ACCESS_TOKEN', 'The token used in the request has been revoked by the user', 65601);
    else if (record.expiresAt <= Date.now()) restError(res, 401, 'EXPIRED_ACCESS_TOKEN', 'The token used in the request has expired', 65600);
    else return record;
    return undefined;
  }

  /** May this token write as `urn` (the member itself, or a page the member has a posting role on)? */
  function mayActAs(token: TokenRecord, urn: unknown): boolean {
    if (typeof urn !== 'string') return false;
    if (urn === `urn:li:person:${token.sub}`) return token.scope.includes('w_member_social');
    const org = /^urn:li:organization:(\d+)$/.exec(urn)?.[1];
    const page = org ? accounts.get(token.sub)?.pages.find((p) => p.id === org) : undefined;
    return Boolean(page && POSTING_ROLES.includes(page.role) && token.scope.includes('w_organization_social'));
  }

  function jsonBody(req: SimRequest, res: ServerResponse): Record<string, unknown> | undefined {
    if (req.body.kind === 'json' && isObj(req.body.value)) return req.body.value;
    badRequest(res, req.body.kind === 'invalid' ? 'Malformed JSON body' : 'The request body must be a JSON object');
    return undefined;
  }

  function uploadUrl(slot: Omit<UploadSlot, 'sig'>): string {
    const id = randomBytes(12).toString('hex');
    const sig = secret(16);
    uploads.set(id, { ...slot, sig });
    return `${origin}/dms-uploads/${id}?sig=${sig}`;
  }

  function initializeImage(req: SimRequest, res: ServerResponse, token: TokenRecord, version: string) {
    const body = jsonBody(req, res);
    if (!body) return;
    const request = body.initializeUploadRequest;
    if (!isObj(request) || typeof request.owner !== 'string') return invalidField(res, '/initializeUploadRequest/owner', 'field is required but not found');
    if (!mayActAs(token, request.owner)) return accessDenied(res, 'images.INITIALIZE_UPLOAD', version);
    const urn = mediaId('urn:li:image:C4E10AQ');
    images.set(urn, { urn, owner: request.owner, status: 'WAITING_UPLOAD' });
    sendJson(res, 200, { value: { uploadUrlExpiresAt: Date.now() + 86400_000, uploadUrl: uploadUrl({ kind: 'image', urn }), image: urn } });
  }

  function initializeVideo(req: SimRequest, res: ServerResponse, token: TokenRecord, version: string) {
    const body = jsonBody(req, res);
    if (!body) return;
    const r = body.initializeUploadRequest;
    if (!isObj(r) || typeof r.owner !== 'string') return invalidField(res, '/initializeUploadRequest/owner', 'field is required but not found');
    const size = r.fileSizeBytes;
    if (typeof size !== 'number' || !Number.isInteger(size) || size <= 0) return invalidField(res, '/initializeUploadRequest/fileSizeBytes', 'must be a positive integer');
    if (size > VIDEO_MAX_BYTES) return invalidField(res, '/initializeUploadRequest/fileSizeBytes', `must be at most ${VIDEO_MAX_BYTES}`);
    for (const flag of ['uploadCaptions', 'uploadThumbnail']) {
      if (r[flag] !== undefined && typeof r[flag] !== 'boolean') return invalidField(res, `/initializeUploadRequest/${flag}`, 'must be a boolean');
    }
    // Captions are not simulated: Herald never uploads them.
    if (r.uploadCaptions === true) return invalidField(res, '/initializeUploadRequest/uploadCaptions', 'captions are not supported by this simulator');
    if (!mayActAs(token, r.owner)) return accessDenied(res, 'videos.INITIALIZE_UPLOAD', version);
    const urn = mediaId('urn:li:video:C5F10AQ');
    const parts: VideoRecord['parts'] = [];
    for (let first = 0; first < size; first += partBytes) parts.push({ firstByte: first, lastByte: Math.min(size, first + partBytes) - 1 });
    // LinkedIn gives single-part uploads an empty upload token.
    const video: VideoRecord = { urn, owner: r.owner, fileSizeBytes: size, status: 'WAITING_UPLOAD', parts, uploadToken: parts.length > 1 ? secret(24) : '', failProcessing: false };
    videos.set(urn, video);
    const uploadInstructions = parts.map((p, i) => ({ uploadUrl: uploadUrl({ kind: 'part', urn, part: i }), firstByte: p.firstByte, lastByte: p.lastByte }));
    if (r.uploadThumbnail === true) video.thumbnailUrl = uploadUrl({ kind: 'thumbnail', urn });
    sendJson(res, 200, {
      value: {
        uploadUrlsExpireAt: Date.now() + 86400_000,
        video: urn,
        uploadInstructions,
        uploadToken: video.uploadToken,
        ...(video.thumbnailUrl ? { thumbnailUploadUrl: video.thumbnailUrl } : {}),
      },
    });
  }

  function finalizeVideo(req: SimRequest, res: ServerResponse, token: TokenRecord, version: string, failProcessing: boolean) {
    const body = jsonBody(req, res);
    if (!body) return;
    const r = body.finalizeUploadRequest;
    if (!isObj(r) || typeof r.video !== 'string') return invalidField(res, '/finalizeUploadRequest/video', 'field is required but not found');
    const video = videos.get(r.video);
    if (!video) return notFound(res, `Video ${r.video}`);
    if (!mayActAs(token, video.owner)) return accessDenied(res, 'videos.FINALIZE_UPLOAD', version);
    if (video.status !== 'WAITING_UPLOAD') return badRequest(res, `Video ${video.urn} was already finalized`);
    if (r.uploadToken !== video.uploadToken) return badRequest(res, 'The uploadToken does not match this upload');
    const etags = video.parts.map((p) => p.etag);
    if (etags.some((e) => e === undefined)) return badRequest(res, `Not every part of ${video.urn} was uploaded`);
    const ids = Array.isArray(r.uploadedPartIds) ? r.uploadedPartIds : [];
    if (ids.length !== etags.length || ids.some((id, i) => id !== etags[i])) {
      return badRequest(res, 'uploadedPartIds must list the ETag of every part, in the order of the upload instructions');
    }
    video.status = 'PROCESSING';
    video.readyAt = Date.now() + processingMs;
    video.failProcessing = failProcessing || !video.head || !isMp4Bytes(video.head);
    sendEmpty(res, 200);
  }

  /** Processing finishes when someone looks after `processingMs`. */
  function settle(video: VideoRecord): VideoRecord {
    if (video.status === 'PROCESSING' && video.readyAt !== undefined && Date.now() >= video.readyAt) {
      video.status = video.failProcessing ? 'PROCESSING_FAILED' : 'AVAILABLE';
      if (video.failProcessing) video.processingFailureReason = 'Video could not be transcoded';
    }
    return video;
  }

  function upload(req: SimRequest, res: ServerResponse, id: string) {
    const slot = uploads.get(id);
    if (!slot || req.query.sig !== slot.sig) return restError(res, 403, 'FORBIDDEN', 'The upload URL is invalid or expired');
    if (req.method !== 'PUT' && req.method !== 'POST') return restError(res, 405, 'METHOD_NOT_ALLOWED', 'Uploads take PUT');
    if (req.body.kind === 'too_large') return restError(res, 413, 'PAYLOAD_TOO_LARGE', 'The uploaded file is too large');
    if (req.body.kind !== 'binary') return badRequest(res, 'Uploads take the raw bytes of the file');
    const bytes = req.body.data;

    if (slot.kind === 'image') {
      const image = images.get(slot.urn)!;
      // Bytes that are no image fail LinkedIn's processing; a post using the image is then refused.
      Object.assign(image, { size: bytes.length, contentType: req.body.contentType, status: isImageBytes(bytes) ? 'AVAILABLE' : 'PROCESSING_FAILED' });
      return sendEmpty(res, 201);
    }
    const video = videos.get(slot.urn)!;
    if (slot.kind === 'thumbnail') {
      if (!isImageBytes(bytes) || bytes.length > THUMBNAIL_MAX_BYTES) return badRequest(res, 'The thumbnail must be a JPG or PNG image up to 10 MB');
      video.thumbnail = { size: bytes.length, contentType: req.body.contentType };
      return sendEmpty(res, 201);
    }
    const part = video.parts[slot.part!]!;
    const expected = part.lastByte - part.firstByte + 1;
    if (bytes.length !== expected) return badRequest(res, `Part ${slot.part} must have ${expected} bytes (${part.firstByte}-${part.lastByte}); got ${bytes.length}`);
    if (part.firstByte === 0) video.head = Buffer.from(bytes.subarray(0, 16));
    part.etag = `/${createHash('sha1').update(bytes).digest('base64url')}`;
    res.writeHead(200, { etag: part.etag, 'content-length': 0 });
    res.end();
  }

  /** Validates `content` of a post; answers and returns false when it is refused. */
  function checkContent(res: ServerResponse, author: string, content: unknown): boolean {
    if (content === undefined) return true;
    if (!isObj(content)) return invalidField(res, '/content', 'must be an object'), false;
    const kinds = Object.keys(content);
    if (kinds.length !== 1) return invalidField(res, '/content', 'must hold exactly one of media, multiImage, poll, article'), false;
    const usable = (path: string, id: unknown, allowVideo: boolean): boolean => {
      const media = typeof id === 'string' ? images.get(id) ?? (allowVideo ? videos.get(id) : undefined) : undefined;
      if (!media) return invalidField(res, path, `${String(id)} is not an uploaded ${allowVideo ? 'image or video' : 'image'}`), false;
      if (media.owner !== author) return invalidField(res, path, `${media.urn} belongs to ${media.owner}, not the author`), false;
      const status = 'parts' in media ? settle(media as VideoRecord).status : media.status;
      if (status !== 'AVAILABLE') return invalidField(res, path, `${media.urn} is ${status}, not AVAILABLE`), false;
      return true;
    };
    const altOk = (path: string, alt: unknown) =>
      alt === undefined || (typeof alt === 'string' && codePoints(alt) <= ALT_TEXT_MAX) ? true : (invalidField(res, path, `must be text of at most ${ALT_TEXT_MAX} characters`), false);

    if (isObj(content.media)) {
      const { id, title, altText } = content.media;
      if (!usable('/content/media/id', id, true)) return false;
      if (title !== undefined && (typeof title !== 'string' || titleUnits(title) > MEDIA_TITLE_MAX)) {
        return invalidField(res, '/content/media/title', `must be at most ${MEDIA_TITLE_MAX} characters`), false;
      }
      return altOk('/content/media/altText', altText);
    }
    if (isObj(content.multiImage)) {
      const list = content.multiImage.images;
      if (!Array.isArray(list) || list.length < 2 || list.length > 20) return invalidField(res, '/content/multiImage/images', 'must hold 2 to 20 images'), false;
      return list.every((img, i) => isObj(img) && usable(`/content/multiImage/images/${i}/id`, img.id, false) && altOk(`/content/multiImage/images/${i}/altText`, img.altText));
    }
    if (isObj(content.poll)) {
      const { question, options, settings } = content.poll;
      if (typeof question !== 'string' || !question.trim() || codePoints(question) > 140) return invalidField(res, '/content/poll/question', 'must be 1 to 140 characters'), false;
      if (!Array.isArray(options) || options.length < 2 || options.length > 4) return invalidField(res, '/content/poll/options', 'must hold 2 to 4 options'), false;
      const bad = options.findIndex((o) => !isObj(o) || typeof o.text !== 'string' || !o.text.trim() || codePoints(o.text) > 30);
      if (bad >= 0) return invalidField(res, `/content/poll/options/${bad}/text`, 'must be 1 to 30 characters'), false;
      if (!isObj(settings) || !POLL_DURATIONS.includes(String(settings.duration))) {
        return invalidField(res, '/content/poll/settings/duration', `must be one of ${POLL_DURATIONS.join(', ')}`), false;
      }
      return true;
    }
    return invalidField(res, '/content', `unsupported content ${kinds[0]}`), false;
  }

  function createPost(req: SimRequest, res: ServerResponse, token: TokenRecord, version: string) {
    const body = jsonBody(req, res);
    if (!body) return;
    const { author, commentary, visibility, distribution, content, lifecycleState, isReshareDisabledByAuthor } = body;
    if (typeof author !== 'string') return invalidField(res, '/author', 'field is required but not found');
    if (!mayActAs(token, author)) return accessDenied(res, 'partnerApiPostsExternal.CREATE', version);
    if (commentary !== undefined && typeof commentary !== 'string') return invalidField(res, '/commentary', 'must be a string');
    if (typeof visibility !== 'string' || !VISIBILITIES.includes(visibility)) return invalidField(res, '/visibility', `must be one of ${VISIBILITIES.join(', ')}`);
    if (!isObj(distribution) || !['MAIN_FEED', 'NONE'].includes(String(distribution.feedDistribution))) {
      return invalidField(res, '/distribution/feedDistribution', 'must be MAIN_FEED or NONE');
    }
    if (lifecycleState !== 'PUBLISHED' && lifecycleState !== 'DRAFT') return invalidField(res, '/lifecycleState', 'must be PUBLISHED or DRAFT');
    if (isReshareDisabledByAuthor !== undefined && typeof isReshareDisabledByAuthor !== 'boolean') return invalidField(res, '/isReshareDisabledByAuthor', 'must be a boolean');
    const raw = commentary ?? '';
    const rendered = renderLittleText(raw);
    if (codePoints(rendered.text) > COMMENTARY_MAX) return invalidField(res, '/commentary', `length must be at most ${COMMENTARY_MAX}`);
    if (content === undefined && rendered.text.trim() === '') return invalidField(res, '/commentary', 'a post needs commentary or content');
    if (!checkContent(res, author, content)) return;
    // LinkedIn refuses the same text-only post twice from one author.
    const twin = content === undefined && raw ? posts.find((p) => p.author === author && p.commentary === raw && !p.content) : undefined;
    if (twin) return restError(res, 422, 'DUPLICATE_POST', `Content is a duplicate of ${twin.id}`);

    const simple = content === undefined || (isObj(content) && isObj(content.media) && images.has(String(content.media.id)));
    const id = `urn:li:${simple ? 'share' : 'ugcPost'}:${liveId()}`;
    posts.push({
      id, author, commentary: raw, text: rendered.text, truncated: rendered.truncated, visibility, distribution,
      ...(isObj(content) ? { content } : {}), lifecycleState, isReshareDisabledByAuthor: isReshareDisabledByAuthor === true, createdAt: Date.now(),
    });
    res.writeHead(201, { 'x-restli-id': id, 'x-linkedin-id': id, 'content-length': 0 });
    res.end();
  }

  function createComment(req: SimRequest, res: ServerResponse, token: TokenRecord, postUrn: string, version: string) {
    const post = posts.find((p) => p.id === postUrn);
    if (!post) return notFound(res, `Post ${postUrn}`);
    const body = jsonBody(req, res);
    if (!body) return;
    if (!mayActAs(token, body.actor)) return accessDenied(res, 'socialActions.comments.CREATE', version);
    if (body.object !== undefined && body.object !== postUrn) return badRequest(res, 'object must be the post the comment is created under');
    const text = isObj(body.message) ? body.message.text : undefined;
    if (typeof text !== 'string' || !text.trim()) return invalidField(res, '/message/text', 'field is required but not found');
    if (codePoints(text) > COMMENT_MAX) return invalidField(res, '/message/text', `length must be at most ${COMMENT_MAX}`);
    const id = liveId();
    const comment: LinkedInSimComment = { id, urn: `urn:li:comment:(${postUrn},${id})`, postUrn, actor: String(body.actor), text, createdAt: Date.now() };
    comments.push(comment);
    const created = { actor: comment.actor, time: comment.createdAt };
    sendJson(res, 201, { id, $URN: comment.urn, actor: comment.actor, object: postUrn, message: { text }, created, lastModified: created }, { 'x-restli-id': id });
  }

  function restRoute(req: SimRequest, res: ServerResponse, route: Extract<Route, { name: 'rest' }>, armedMode: LinkedInFailureMode | undefined) {
    const version = String(req.headers['linkedin-version'] ?? '');
    const problem = versionProblem(version || undefined);
    if (problem) return restError(res, 426, problem.code, problem.message);
    if (req.headers['x-restli-protocol-version'] !== '2.0.0') return badRequest(res, 'The X-Restli-Protocol-Version: 2.0.0 header is required');
    const token = authenticate(req, res);
    if (!token) return;
    const p = route.param;
    switch (route.op) {
      case 'images.initializeUpload': return initializeImage(req, res, token, version);
      case 'videos.initializeUpload': return initializeVideo(req, res, token, version);
      case 'videos.finalizeUpload': return finalizeVideo(req, res, token, version, armedMode === 'video_processing_failed');
      case 'videos.get': {
        const video = videos.get(p!);
        if (!video) return notFound(res, `Video ${p}`);
        if (!mayActAs(token, video.owner)) return accessDenied(res, 'videos.GET', version);
        const { urn, owner, status, processingFailureReason, thumbnail } = settle(video);
        return sendJson(res, 200, {
          id: urn, owner, status, ...(processingFailureReason ? { processingFailureReason } : {}),
          ...(status === 'AVAILABLE' ? { downloadUrl: `${origin}/media/${encodeURIComponent(urn)}`, ...(thumbnail ? { thumbnail: `${origin}/media/${encodeURIComponent(urn)}/thumbnail` } : {}) } : {}),
        });
      }
      case 'images.get': {
        const image = images.get(p!);
        if (!image) return notFound(res, `Image ${p}`);
        if (!mayActAs(token, image.owner)) return accessDenied(res, 'images.GET', version);
        return sendJson(res, 200, { id: image.urn, owner: image.owner, status: image.status });
      }
      case 'posts.create': return createPost(req, res, token, version);
      case 'posts.get': {
        const post = posts.find((x) => x.id === p);
        if (!post) return notFound(res, `Post ${p}`);
        const { id, author, commentary, visibility, distribution, content, lifecycleState, isReshareDisabledByAuthor, createdAt } = post;
        return sendJson(res, 200, { id, author, commentary, visibility, distribution, ...(content ? { content } : {}), lifecycleState, isReshareDisabledByAuthor, createdAt, publishedAt: createdAt, lastModifiedAt: createdAt });
      }
      case 'comments.create': return createComment(req, res, token, p!, version);
      case 'organizationAcls': {
        if (req.query.q !== 'roleAssignee') return badRequest(res, 'Query parameter q must be roleAssignee');
        if (!token.scope.includes('r_organization_admin')) return accessDenied(res, 'organizationAcls.FINDER-roleAssignee', version);
        const member = accounts.get(token.sub)!;
        const elements = member.pages
          .filter((page) => !req.query.role || req.query.role === page.role)
          .map((page) => ({ roleAssignee: member.urn, state: 'APPROVED', role: page.role, organization: `urn:li:organization:${page.id}` }));
        return sendJson(res, 200, { elements, paging: { count: 10, start: 0, total: elements.length, links: [] } });
      }
      default: return notFound(res, `Resource ${req.method} ${req.path}`);
    }
  }

  function classify(req: SimRequest): Route {
    const { method, path } = req;
    const action = req.query.action;
    if (path === '/oauth/v2/authorization') return { name: 'authorize' };
    if (path === '/oauth/v2/accessToken') return { name: 'token' };
    if (path === '/v2/userinfo' && method === 'GET') return { name: 'userinfo' };
    const up = /^\/dms-uploads\/([0-9a-f]+)$/.exec(path);
    if (up) return { name: 'upload', id: up[1]! };
    if (!path.startsWith('/rest/')) return { name: 'unknown' };
    const rest = path.slice('/rest'.length);
    const one = (re: RegExp) => { const m = re.exec(rest); return m ? decodeURIComponent(m[1]!) : undefined; };
    let op = 'unknown';
    let param: string | undefined;
    if (method === 'POST' && rest === '/images' && action === 'initializeUpload') op = 'images.initializeUpload';
    else if (method === 'POST' && rest === '/videos' && action === 'initializeUpload') op = 'videos.initializeUpload';
    else if (method === 'POST' && rest === '/videos' && action === 'finalizeUpload') op = 'videos.finalizeUpload';
    else if (method === 'POST' && rest === '/posts') op = 'posts.create';
    else if (method === 'GET' && rest === '/organizationAcls') op = 'organizationAcls';
    else if (method === 'GET' && (param = one(/^\/videos\/([^/]+)$/))) op = 'videos.get';
    else if (method === 'GET' && (param = one(/^\/images\/([^/]+)$/))) op = 'images.get';
    else if (method === 'GET' && (param = one(/^\/posts\/([^/]+)$/))) op = 'posts.get';
    else if (method === 'POST' && (param = one(/^\/socialActions\/([^/]+)\/comments$/))) op = 'comments.create';
    return { name: 'rest', op, ...(param !== undefined ? { param } : {}) };
  }

  const host = await startSimulatorHost<LinkedInFailureMode>({
    port: opts.port,
    maxBodyBytes: 64 * 1024 * 1024,
    failureModes: LINKEDIN_FAILURE_MODES,
    state: () => ({
      armedFailures: [...armed],
      accounts: [...accounts.values()].map((a) => ({ sub: a.sub, name: a.name, pages: a.pages })),
      clients: [...clients.values()].map((c) => ({ clientId: c.clientId, redirectUris: c.redirectUris })),
      postCount: posts.length,
      commentCount: comments.length,
      imageCount: images.size,
      videoCount: videos.size,
    }),
    reset: () => {
      posts.length = 0;
      comments.length = 0;
      images.clear();
      videos.clear();
      uploads.clear();
      armed.length = 0;
    },
    handle(req, res, failure) {
      if (failure) armed.push(failure);
      const route = classify(req);
      const mode = takeArmed(route);
      if (mode && answerFailure(mode, res)) return;
      switch (route.name) {
        case 'authorize': return authorize(req, res);
        case 'token': return tokenEndpoint(req, res);
        case 'upload': return upload(req, res, route.id);
        case 'userinfo': {
          const token = authenticate(req, res);
          if (!token) return;
          if (!token.scope.includes('openid')) return accessDenied(res, 'userinfo.GET');
          const a = accounts.get(token.sub)!;
          return sendJson(res, 200, {
            sub: a.sub, name: a.name, given_name: a.givenName, family_name: a.familyName,
            ...(a.picture && token.scope.includes('profile') ? { picture: a.picture } : {}),
            locale: { country: 'US', language: 'en' },
            ...(token.scope.includes('email') ? { email: a.email, email_verified: true } : {}),
          });
        }
        case 'rest': return restRoute(req, res, route, mode);
        case 'unknown': return notFound(res, `Resource ${req.method} ${req.path}`);
      }
    },
  });
  origin = host.origin;

  function registerClient(input: Parameters<LinkedInSimulator['registerClient']>[0]): LinkedInClientFixture {
    const client: LinkedInClientFixture = {
      clientId: input.clientId ?? seeded('client').toString('hex').slice(0, 14),
      clientSecret: input.clientSecret ?? seeded('client-secret').toString('base64url').slice(0, 16),
      redirectUris: [...input.redirectUris],
      scopes: [...(input.scopes ?? LINKEDIN_SIM_ALL_SCOPES)],
      refreshTokens: input.refreshTokens ?? true,
    };
    clients.set(client.clientId, client);
    return client;
  }
  const defaultClient = registerClient({ redirectUris: [] });

  const ofAccount = (sub?: string) => (t: TokenRecord) => sub === undefined || t.sub === sub;

  return {
    port: host.port,
    origin,
    apiBase: origin,
    authBase: `${origin}/oauth/v2`,
    defaultClient,
    get requests() { return host.requests; },
    registerClient,
    createAccount(input) {
      const sub = seeded('member').toString('base64url').replace(/[-_]/g, 'x').slice(0, 10);
      const [givenName = input.name, ...rest] = input.name.split(' ');
      const account: LinkedInAccountFixture = {
        sub,
        urn: `urn:li:person:${sub}`,
        name: input.name,
        givenName,
        familyName: rest.join(' '),
        picture: input.picture === undefined ? `https://media.licdn.com/dms/image/sim/${sub}/profile-displayphoto-shrink_100_100/0` : input.picture,
        email: input.email ?? `${givenName.toLowerCase()}@example.com`,
        pages: (input.pages ?? []).map((p) => ({ id: String(10_000_000 + (seeded('organization').readUInt32BE(0) % 89_999_999)), name: p.name, role: p.role ?? 'ADMINISTRATOR' })),
      };
      accounts.set(sub, account);
      return structuredClone(account);
    },
    issueAuthCode,
    issueTokens(sub, o = {}) {
      if (!accounts.has(sub)) throw new Error(`unknown account ${sub}`);
      const client = clients.get(o.clientId ?? defaultClient.clientId);
      if (!client) throw new Error(`unknown client ${o.clientId}`);
      const t = grantTokens(sub, client, o.scope ?? ['openid', 'profile', 'w_member_social']);
      return { accessToken: t.accessToken, ...(t.refreshToken ? { refreshToken: t.refreshToken } : {}), expiresAt: new Date(t.expiresAt), scope: t.scope };
    },
    expireAccessTokens(sub) { for (const t of accessTokens.values()) if (ofAccount(sub)(t)) t.expiresAt = Date.now() - 1000; },
    expireRefreshTokens(sub) { for (const t of refreshTokens.values()) if (ofAccount(sub)(t)) t.expiresAt = Date.now() - 1000; },
    revokeTokens(sub) { for (const t of [...accessTokens.values(), ...refreshTokens.values()]) if (ofAccount(sub)(t)) t.revoked = true; },
    accounts: () => [...accounts.values()].map((a) => structuredClone(a)),
    posts: () => posts.map((p) => structuredClone(p)),
    comments: (postUrn) => comments.filter((c) => postUrn === undefined || c.postUrn === postUrn).map((c) => ({ ...c })),
    images: () => [...images.values()].map((i) => ({ urn: i.urn, owner: i.owner, status: i.status, size: i.size, contentType: i.contentType })),
    videos: () => [...videos.values()].map((v) => {
      const { urn, owner, fileSizeBytes, status, parts, uploadToken, thumbnail, processingFailureReason } = settle(v);
      return { urn, owner, fileSizeBytes, status, parts: parts.map((p) => ({ ...p })), uploadToken, ...(thumbnail ? { thumbnail: { ...thumbnail } } : {}), ...(processingFailureReason ? { processingFailureReason } : {}) };
    }),
    fail: (mode, times) => host.fail(mode, times),
    setLatency: (ms) => host.setLatency(ms),
    state: () => host.state(),
    reset: () => host.reset(),
    close: () => host.close(),
  };
}
