/**
 * Loopback simulator of the Facebook Graph API for Pages: Facebook Login (dialog, code and
 * fb_exchange_token grants), /me, /me/accounts, page publishing (/feed, /photos, /videos,
 * /photo_stories, /video_stories, /video_reels), the Resumable Upload API (/{app-id}/uploads,
 * /upload:<id>), the rupload host of stories and reels (/video-upload/<version>/<video-id>), object
 * reads (permalink_url, video status) and comments, with Graph's `{error:{message,type,code,
 * error_subcode,fbtrace_id}}` answers. One origin stands in for graph.facebook.com,
 * graph-video.facebook.com, www.facebook.com and rupload.facebook.com; paths take an optional
 * `/vXX.X` prefix like Graph does. Pull URLs (`url`, `file_url`) are fetched for real.
 *
 * Simplifications: every page answers Business Use Case limits the same way; a bad client id or
 * secret is answered with code 101; the login dialog ignores queued failures.
 */
import { listFacebookPosts } from './media';
import type { ServerResponse } from 'node:http';
import { facebookPostOperation } from './posts';
import { createHmac } from 'node:crypto';
import { createCommentStore, seedInputOf, type SeedCommentInput, type SimComment } from '../kit/comments';
import { facebookCommentRoute, type FacebookCommentDeps } from './comments';
import {
  createSeededSource, sendJson, sendText, startSimulatorHost, type MultipartPart, type SimRequest,
} from '../kit/http';
import { escapeHtml } from '../kit/html';
import { fetchMedia, graphParamsOf, META_SIM_COMMON_ERRORS, sendGraphError } from '../kit/meta-graph';
import { clockControl, createAnalyticsModel } from '../kit/metrics';
import { createFacebookAnalytics, FACEBOOK_INSIGHTS_SCOPE } from './analytics';
import {
  CODE_TTL_MS, DUPLICATE_WINDOW_MS, FACEBOOK_FAILURE_MODES, FACEBOOK_KNOWN_SCOPES, FACEBOOK_SIM_REGAIN_MINUTES,
  FACEBOOK_SIM_VERSION, LONG_TOKEN_SECONDS, MAX_MESSAGE, MAX_PHOTO_BYTES, PHOTO_TYPES, SHORT_TOKEN_SECONDS, UPLOAD_FILE_TYPES,
  type FacebookFailureMode, type FacebookSimAccount, type FacebookSimComment, type FacebookSimPage, type FacebookSimPhoto,
  type FacebookSimPost, type FacebookSimStory, type FacebookSimUploadSession, type FacebookSimVideo, type FacebookSimulator,
  type FacebookSimulatorOptions, type SimCode, type SimToken,
} from './model';

export {
  FACEBOOK_FAILURE_MODES, FACEBOOK_KNOWN_SCOPES, FACEBOOK_SIM_REGAIN_MINUTES, FACEBOOK_SIM_VERSION, type FacebookFailureMode,
  type FacebookSimAccount, type FacebookSimComment, type FacebookSimPage, type FacebookSimPhoto, type FacebookSimPost,
  type FacebookSimStory, type FacebookSimUploadSession, type FacebookSimVideo, type FacebookSimulator,
  type FacebookSimulatorOptions,
} from './model';

/** Graph's error body; `type` is OAuthException unless it says otherwise (sendGraphError). */
interface GraphErrorBody {
  message: string;
  type?: string;
  code: number;
  error_subcode?: number;
  is_transient?: boolean;
  error_user_title?: string;
  error_user_msg?: string;
}

class GraphFailure {
  constructor(readonly status: number, readonly error: GraphErrorBody, readonly headers: Record<string, string> = {}) {}
}

const oauthError = (message: string, subcode?: number) =>
  new GraphFailure(400, { message, code: 190, ...(subcode ? { error_subcode: subcode } : {}) });
const paramError = (message: string, subcode?: number) =>
  new GraphFailure(400, { message: `(#100) ${message}`, code: 100, ...(subcode ? { error_subcode: subcode } : {}) });
const permissionError = (message: string) => new GraphFailure(403, { message: `(#200) ${message}`, code: 200 });
const noSuchObject = (id: string, method: string) => paramError(
  `Unsupported ${method.toLowerCase()} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`, 33);

/** The failures whose answer is the same on every Meta network. */
const common = (mode: 'token_expired' | 'server_error') =>
  new GraphFailure(META_SIM_COMMON_ERRORS[mode].status, META_SIM_COMMON_ERRORS[mode].error as unknown as GraphErrorBody);

const FAILURES: Record<Exclude<FacebookFailureMode, 'bad_gateway' | 'video_processing_error'>, () => GraphFailure> = {
  token_expired: () => common('token_expired'),
  token_revoked: () => oauthError('Error validating access token: The session has been invalidated because the user changed their password or Facebook has changed the session for security reasons.', 460),
  checkpoint: () => oauthError('Error validating access token: You cannot access the app till you log in to www.facebook.com and follow the instructions given.', 459),
  identity_confirmation: () => new GraphFailure(400, {
    message: 'Please confirm your identity before you can post.', code: 368, error_subcode: 1404078,
    error_user_title: 'Confirm Your Identity', error_user_msg: 'To continue posting, confirm your identity on facebook.com.',
  }),
  posting_too_fast: () => new GraphFailure(400, {
    message: 'It looks like you were misusing this feature by going too fast.', code: 368, error_subcode: 1390008,
    error_user_title: "You Can't Use This Feature Right Now", error_user_msg: "You're posting too fast. Please slow down.",
  }),
  rate_limited: () => new GraphFailure(400, { message: '(#32) Page request limit reached', code: 32 }, {
    'x-business-use-case-usage': JSON.stringify({ 'sim-page': [{ type: 'pages', call_count: 100, total_cputime: 20, total_time: 25, estimated_time_to_regain_access: FACEBOOK_SIM_REGAIN_MINUTES }] }),
  }),
  app_rate_limited: () => new GraphFailure(400, { message: '(#4) Application request limit reached', code: 4, is_transient: true }, {
    'x-app-usage': JSON.stringify({ call_count: 100, total_cputime: 40, total_time: 60 }),
  }),
  duplicate_post: () => new GraphFailure(400, { message: '(#506) Duplicate status message', code: 506 }),
  permission_denied: () => permissionError('Permissions error'),
  server_error: () => common('server_error'),
};

/** Parameters as Graph reads them, and the multipart files. */
const paramsOf = (req: SimRequest): { params: Record<string, string>; files: MultipartPart[] } =>
  ({ params: graphParamsOf(req), files: req.body.kind === 'multipart' ? req.body.files : [] });

const bool = (v: string | undefined, fallback: boolean) => (v === undefined ? fallback : !['false', '0'].includes(v.toLowerCase()));

function jsonObject(name: string, raw: string | undefined): unknown {
  if (raw === undefined) return undefined;
  try {
    const v: unknown = JSON.parse(raw);
    if (v && typeof v === 'object' && !Array.isArray(v)) return v;
  } catch { /* answered below */ }
  throw paramError(`param ${name} must be a JSON object`);
}

/** Fetches a pull URL as Meta's crawler does; undefined when it cannot. Sizes are checked by the caller. */
async function pull(url: string): Promise<{ contentType: string; data: Buffer } | undefined> {
  const fetched = await fetchMedia(url, Number.POSITIVE_INFINITY);
  return fetched.ok ? { contentType: fetched.contentType.split(';')[0]!.trim().toLowerCase(), data: fetched.data } : undefined;
}

export async function startFacebookSimulator(opts: FacebookSimulatorOptions = {}): Promise<FacebookSimulator> {
  const seeded = createSeededSource(opts.seed);
  const processingMs = opts.processingMs ?? 50;
  const requireProof = opts.requireAppSecretProof ?? true;
  const fixtureId = (kind: string) => (BigInt(100000000000000) + (seeded(kind).readBigUInt64BE(0) % BigInt(900000000000000))).toString();
  const app = { id: opts.appId ?? fixtureId('app'), secret: opts.appSecret ?? seeded('app-secret').toString('hex').slice(0, 32) };

  const accounts = new Map<string, FacebookSimAccount>();
  const pages = new Map<string, FacebookSimPage>();
  const tokens = new Map<string, SimToken>();
  const codes = new Map<string, SimCode>();
  /** Page token per (user token, page): Facebook hands the same one back for the same login. */
  const pageTokens = new Map<string, string>();
  const posts: FacebookSimPost[] = [];
  const photos: FacebookSimPhoto[] = [];
  const videos: FacebookSimVideo[] = [];
  const stories: FacebookSimStory[] = [];
  const commentStore = createCommentStore();
  const sessions = new Map<string, FacebookSimUploadSession & { data: Buffer[]; appId: string }>();
  let liveCounter = 0;
  const analytics = createFacebookAnalytics({ model: createAnalyticsModel(opts.seed), posts: () => posts, commentCount: (postId) => commentStore.all(postId).length, paramError });
  let failNextVideo = false;

  const liveId = () => (BigInt('122000000000000000') + BigInt(++liveCounter)).toString();
  const newToken = (kind: string) => `EAA${seeded(`token-${kind}`).toString('base64url').slice(0, 80)}`;
  const iso = (ms = Date.now()) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+0000');

  function issueToken(t: Omit<SimToken, 'token' | 'revoked'>): string {
    const token = newToken(t.kind);
    tokens.set(token, { ...t, token, revoked: false });
    return token;
  }

  function userToken(accountId: string, longLived: boolean, scopes: string[]): { token: string; expiresIn: number } {
    const expiresIn = longLived ? LONG_TOKEN_SECONDS : SHORT_TOKEN_SECONDS;
    return { token: issueToken({ kind: 'user', accountId, scopes, expiresAt: Date.now() + expiresIn * 1000 }), expiresIn };
  }

  /**
   * Why a token cannot be used, or the token. A page token dies with a short-lived parent. `proof`
   * is the request's appsecret_proof; hosts that take none (token grant, rupload) pass nothing.
   */
  function checkToken(raw: string | undefined, proof?: { value: string | undefined }): SimToken {
    if (!raw) throw new GraphFailure(400, { message: 'An active access token must be used to query information about the current user.', code: 2500 });
    const token = tokens.get(raw);
    if (!token) throw oauthError('Invalid OAuth access token - Cannot parse access token');
    if (token.revoked) throw oauthError('Error validating access token: The user has not authorized application ' + app.id + '.', 458);
    const parent = token.parent ? tokens.get(token.parent) : undefined;
    if (parent?.revoked) throw oauthError('Error validating access token: The user has not authorized application ' + app.id + '.', 458);
    const expiry = [token.expiresAt, parent?.expiresAt ?? null].filter((e): e is number => e !== null);
    if (expiry.some((e) => e <= Date.now())) throw oauthError(`Error validating access token: Session has expired on ${new Date(Math.min(...expiry)).toUTCString()}.`, 463);
    if (!proof) return token;
    if (proof.value === undefined && requireProof) throw paramError('API calls from the server require an appsecret_proof argument');
    if (proof.value !== undefined && proof.value !== createHmac('sha256', app.secret).update(raw).digest('hex')) throw paramError('Invalid appsecret_proof provided in the API argument');
    return token;
  }

  function bearer(req: SimRequest, params: Record<string, string>): string | undefined {
    const header = req.headers.authorization;
    const match = typeof header === 'string' ? /^(?:Bearer|OAuth)\s+(\S+)$/i.exec(header) : null;
    return match?.[1] ?? params.access_token;
  }

  function requireScopes(token: SimToken, ...scopes: string[]) {
    const missing = scopes.filter((s) => !token.scopes.includes(s));
    if (missing.length) throw permissionError(`This endpoint requires the ${missing.join(' and ')} permission${missing.length > 1 ? 's' : ''}`);
  }

  /** A page edge needs that page's own token. */
  function pageOf(token: SimToken, pageId: string, ...scopes: string[]): FacebookSimPage {
    const page = pages.get(pageId);
    if (!page) throw noSuchObject(pageId, 'POST');
    if (token.kind !== 'page') throw permissionError('If posting to a page, requires both pages_read_engagement and pages_manage_posts as an admin with sufficient administrative permission');
    if (token.pageId !== pageId) throw permissionError('The access token does not belong to this Page');
    requireScopes(token, ...scopes);
    return page;
  }

  // ---- OAuth -------------------------------------------------------------------------------------

  function dialog(req: SimRequest, res: ServerResponse) {
    const { params } = paramsOf(req);
    const htmlError = (text: string) => sendText(res, 400, `<!doctype html><title>Error</title><p>${escapeHtml(text)}</p>`, 'text/html');
    if (params.client_id !== app.id) return htmlError('Invalid App ID: the client_id is not a known app.');
    let redirect: URL;
    try {
      redirect = new URL(params.redirect_uri ?? '');
      if (!/^https?:$/.test(redirect.protocol)) throw new Error('scheme');
    } catch {
      return htmlError("Can't load URL: the redirect_uri is missing or not a valid URL.");
    }
    const scopes = (params.scope ?? '').split(/[,\s]+/).filter(Boolean);
    const unknown = scopes.filter((s) => !FACEBOOK_KNOWN_SCOPES.includes(s));
    if (unknown.length) return htmlError(`Invalid Scopes: ${unknown.join(', ')}.`);
    if ((params.response_type ?? 'code') !== 'code') return htmlError('Unsupported response_type.');

    if (req.method === 'GET') {
      const hidden = ['client_id', 'redirect_uri', 'state', 'scope'].map((k) =>
        `<input type="hidden" name="${k}" value="${escapeHtml(params[k] ?? '')}">`).join('');
      const choices = [...accounts.values()].map((a, i) =>
        `<label><input type="radio" name="account_id" value="${a.id}"${i === 0 ? ' checked' : ''}> ${escapeHtml(a.name)} (${a.pageIds.length} Pages)</label><br>`).join('');
      const html = `<!doctype html><html><head><meta charset="utf-8"><title>Log in with Facebook (simulator)</title></head><body>
<h1>Continue as a sandbox account?</h1><p>The app wants: ${escapeHtml(scopes.join(', ') || 'public_profile')}</p>
<form method="post" action="${escapeHtml(req.path)}">${hidden}${choices || '<p>No sandbox accounts exist.</p>'}
<button name="decision" value="approve">Continue</button> <button name="decision" value="cancel">Cancel</button></form></body></html>`;
      return sendText(res, 200, html, 'text/html');
    }
    if (params.state !== undefined) redirect.searchParams.set('state', params.state);
    if (params.decision !== 'approve') {
      redirect.searchParams.set('error', 'access_denied');
      redirect.searchParams.set('error_code', '200');
      redirect.searchParams.set('error_description', 'Permissions error');
      redirect.searchParams.set('error_reason', 'user_denied');
    } else {
      const account = accounts.get(params.account_id ?? '');
      if (!account) return htmlError('Choose a sandbox account.');
      redirect.searchParams.set('code', issueCode(account.id, params.redirect_uri!, scopes));
    }
    redirect.hash = '_=_';
    res.writeHead(302, { location: redirect.toString() });
    res.end();
  }

  function addPage(accountId: string, name: string): { id: string; name: string } {
    const account = accounts.get(accountId);
    if (!account) throw new Error(`unknown account ${accountId}`);
    const page: FacebookSimPage = { id: fixtureId('page'), name, ownerId: accountId };
    pages.set(page.id, page);
    account.pageIds.push(page.id);
    return { id: page.id, name };
  }

  function issueCode(accountId: string, redirectUri: string, scopes: string[]): string {
    const code = `AQ${seeded('code').toString('base64url').slice(0, 120)}`;
    codes.set(code, { accountId, redirectUri, scopes, expiresAt: Date.now() + CODE_TTL_MS, used: false });
    return code;
  }

  function accessToken(params: Record<string, string>) {
    if (params.client_id !== app.id || params.client_secret !== app.secret) {
      throw new GraphFailure(400, { message: 'Error validating application. Invalid application ID or secret.', code: 101 });
    }
    if (params.grant_type === 'fb_exchange_token') {
      const current = tokens.get(params.fb_exchange_token ?? '');
      if (!current || current.kind !== 'user') throw oauthError('Invalid OAuth access token - Cannot parse access token');
      checkToken(current.token);
      // Facebook hands out a fresh 60-day token; the one exchanged stays valid until its own expiry.
      const fresh = userToken(current.accountId, true, current.scopes);
      return { access_token: fresh.token, token_type: 'bearer', expires_in: fresh.expiresIn };
    }
    if (params.grant_type !== undefined && params.grant_type !== 'authorization_code') throw paramError(`Unsupported grant_type ${params.grant_type}`);
    const code = codes.get(params.code ?? '');
    if (!code) throw paramError('Invalid verification code format.', 36007);
    if (code.used) throw paramError('This authorization code has been used.', 36009);
    if (code.expiresAt <= Date.now()) throw paramError('This authorization code has expired.', 36007);
    if (params.redirect_uri !== code.redirectUri) {
      throw paramError('Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request', 36008);
    }
    code.used = true;
    const short = userToken(code.accountId, false, code.scopes);
    return { access_token: short.token, token_type: 'bearer', expires_in: short.expiresIn };
  }

  // ---- reads ----------------------------------------------------------------------------------------

  function me(token: SimToken, params: Record<string, string>) {
    const fields = (params.fields ?? 'id,name').split(',');
    if (token.kind === 'page') {
      const page = pages.get(token.pageId!)!;
      return { id: page.id, ...(fields.includes('name') ? { name: page.name } : {}) };
    }
    const account = accounts.get(token.accountId)!;
    return {
      id: account.id,
      ...(fields.includes('name') ? { name: account.name } : {}),
      ...(fields.includes('picture') ? { picture: { data: { height: 50, width: 50, is_silhouette: false, url: account.pictureUrl } } } : {}),
    };
  }

  function myPages(req: SimRequest, token: SimToken, params: Record<string, string>) {
    if (token.kind !== 'user') throw paramError('Tried accessing nonexisting field (accounts) on node type (Page)');
    requireScopes(token, 'pages_show_list');
    const owned = accounts.get(token.accountId)!.pageIds.map((id) => pages.get(id)!);
    const limit = Math.min(Math.max(Number(params.limit ?? 25) || 25, 1), 100);
    const start = params.after ? Number(Buffer.from(params.after, 'base64url').toString()) : 0;
    const slice = owned.slice(start, start + limit);
    const data = slice.map((page) => {
      // Page tokens from a long-lived user token never expire; from a short-lived one they expire with it.
      const key = `${token.token}:${page.id}`;
      let pageToken = pageTokens.get(key);
      if (!pageToken) {
        const longLived = token.expiresAt !== null && token.expiresAt - Date.now() > SHORT_TOKEN_SECONDS * 1000;
        pageToken = issueToken({ kind: 'page', accountId: token.accountId, pageId: page.id, scopes: token.scopes, expiresAt: null, parent: longLived ? undefined : token.token });
        pageTokens.set(key, pageToken);
      }
      return { access_token: pageToken, category: 'Brand', category_list: [{ id: '1605186416478696', name: 'Brand' }], name: page.name, id: page.id, tasks: ['ANALYZE', 'ADVERTISE', 'MODERATE', 'CREATE_CONTENT', 'MANAGE'] };
    });
    const cursor = (i: number) => Buffer.from(String(i)).toString('base64url');
    const more = start + limit < owned.length;
    const next = new URL(req.url.toString());
    next.searchParams.set('after', cursor(start + limit));
    next.searchParams.delete('access_token');
    return { data, paging: { cursors: { before: cursor(start), after: cursor(start + limit) }, ...(more ? { next: next.toString() } : {}) } };
  }

  function videoStatus(v: FacebookSimVideo) {
    const now = Date.now();
    if (!v.uploaded || v.readyAt === null) {
      return { video_status: 'upload_complete', processing_progress: 0, uploading_phase: { status: v.uploaded ? 'complete' : 'in_progress' }, processing_phase: { status: 'not_started' }, publishing_phase: { status: 'not_started' } };
    }
    if (now < v.readyAt) {
      const progress = Math.min(99, Math.floor(((now - (v.readyAt - processingMs)) / Math.max(processingMs, 1)) * 100));
      return { video_status: 'processing', processing_progress: Math.max(progress, 0), uploading_phase: { status: 'complete' }, processing_phase: { status: 'in_progress' }, publishing_phase: { status: 'not_started' } };
    }
    if (v.failProcessing) {
      return { video_status: 'error', processing_progress: 0, uploading_phase: { status: 'complete' }, processing_phase: { status: 'error', errors: [{ code: 1363008, message: 'Video processing failed: the file could not be decoded.' }] }, publishing_phase: { status: 'not_started' } };
    }
    return { video_status: 'ready', processing_progress: 100, uploading_phase: { status: 'complete' }, processing_phase: { status: 'complete' }, publishing_phase: { status: 'complete', publish_status: v.published ? 'published' : 'draft' } };
  }

  function readObject(token: SimToken, id: string, params: Record<string, string>) {
    const fields = (params.fields ?? 'id').split(',').map((f) => f.trim());
    const pick = (all: Record<string, unknown>) => Object.fromEntries(Object.entries(all).filter(([k]) => k === 'id' || fields.includes(k)));
    const visible = (pageId: string) => {
      if (token.kind === 'page' ? token.pageId !== pageId : !accounts.get(token.accountId)?.pageIds.includes(pageId)) throw noSuchObject(id, 'GET');
    };
    const page = pages.get(id);
    if (page) return pick({ id: page.id, name: page.name, ...analytics.pageFields(page) });
    const post = posts.find((p) => p.id === id);
    if (post) {
      visible(post.pageId);
      return { ...pick({ id: post.id, message: post.message, created_time: post.createdTime, is_published: post.published,
        permalink_url: `https://www.facebook.com/${post.pageId}/posts/${post.id.split('_')[1]}` }), ...analytics.postFields(post, fields) };
    }
    const photo = photos.find((p) => p.id === id);
    if (photo) {
      visible(photo.pageId);
      return pick({ id: photo.id, name: photo.caption, alt_text_custom: photo.altText, permalink_url: `https://www.facebook.com/photo.php?fbid=${photo.id}` });
    }
    const video = videos.find((v) => v.id === id);
    if (video) {
      visible(video.pageId);
      // A Video node has no `shares` (Graph refuses the field); its comments are an edge as on posts.
      if (fields.includes('shares')) throw paramError('Tried accessing nonexisting field (shares) on node type (Video)');
      const owner = pages.get(video.pageId);
      return { ...pick({ id: video.id, title: video.title, description: video.description, published: video.published, status: videoStatus(video),
        permalink_url: video.kind === 'reel' ? `/reel/${video.id}/` : `/${video.pageId}/videos/${video.id}/`, from: { id: video.pageId, name: owner?.name } }),
      ...(fields.some((f) => f.startsWith('comments')) ? { comments: { data: [], summary: { order: 'ranked', total_count: commentStore.all(video.id).length, can_comment: true } } } : {}) };
    }
    throw noSuchObject(id, 'GET');
  }

  // ---- publishing -----------------------------------------------------------------------------------

  function createPost(p: Omit<FacebookSimPost, 'id' | 'createdTime'>): FacebookSimPost {
    const post: FacebookSimPost = { ...p, id: `${p.pageId}_${liveId()}`, createdTime: iso() };
    posts.push(post);
    return post;
  }

  function feed(page: FacebookSimPage, params: Record<string, string>) {
    const message = params.message;
    const attachedKeys = Object.keys(params).filter((k) => /^attached_media\[\d+\]$/.test(k))
      .sort((a, b) => Number(/\d+/.exec(a)![0]) - Number(/\d+/.exec(b)![0]));
    if (!message && !params.link && !attachedKeys.length) throw paramError('Missing message or attachment');
    if (message && [...message].length > MAX_MESSAGE) throw paramError('The message is too long');
    if (params.link !== undefined && !/^https?:\/\/\S+$/.test(params.link)) throw paramError('link URL is not properly formatted');
    const targeting = jsonObject('targeting', params.targeting);
    const feedTargeting = jsonObject('feed_targeting', params.feed_targeting);
    const attached = attachedKeys.map((k) => {
      let fbid: unknown;
      try {
        fbid = (JSON.parse(params[k]!) as { media_fbid?: unknown }).media_fbid;
      } catch { /* answered below */ }
      const photo = photos.find((p) => p.id === fbid && p.pageId === page.id);
      if (!photo || photo.published || photo.usedBy) throw paramError(`${k} is not an unpublished photo of this Page`);
      return photo;
    });
    const last = [...posts].reverse().find((p) => p.pageId === page.id);
    if (last && !attached.length && last.attachedMedia.length === 0 && last.message === message && last.link === params.link
      && Date.now() - Date.parse(last.createdTime.replace('+0000', 'Z')) < DUPLICATE_WINDOW_MS) {
      throw new GraphFailure(400, { message: '(#506) Duplicate status message', code: 506 });
    }
    const post = createPost({
      pageId: page.id, kind: attached.length ? 'photo' : 'status', message, link: params.link, attachedMedia: attached.map((p) => p.id),
      published: bool(params.published, true), place: params.place, targeting, feedTargeting,
    });
    for (const photo of attached) photo.usedBy = post.id;
    return { id: post.id };
  }

  async function photo(page: FacebookSimPage, params: Record<string, string>, files: MultipartPart[]) {
    const file = files.find((f) => f.name === 'source');
    let media: { contentType: string; data: Buffer } | undefined;
    if (file) media = { contentType: (file.contentType ?? '').toLowerCase(), data: file.data };
    else if (params.url) media = await pull(params.url);
    else throw new GraphFailure(400, { message: '(#324) Requires upload file', code: 324 });
    if (!media || !PHOTO_TYPES.includes(media.contentType)) {
      throw new GraphFailure(400, { message: '(#324) Missing or invalid image file', code: 324 });
    }
    if (media.data.length > MAX_PHOTO_BYTES) throw paramError('The image file is too large');
    const caption = params.caption ?? params.message;
    if (caption && [...caption].length > MAX_MESSAGE) throw paramError('The message is too long');
    const published = bool(params.published, true);
    const stored: FacebookSimPhoto = {
      id: liveId(), pageId: page.id, source: file ? 'upload' : 'url', url: file ? undefined : params.url, contentType: media.contentType,
      size: media.data.length, caption, published, altText: params.alt_text_custom, noStory: bool(params.no_story, false),
      place: params.place, targeting: jsonObject('targeting', params.targeting), feedTargeting: jsonObject('feed_targeting', params.feed_targeting),
    };
    if (published) {
      const post = createPost({ pageId: page.id, kind: 'photo', message: caption, attachedMedia: [stored.id], published: true,
        place: stored.place, targeting: stored.targeting, feedTargeting: stored.feedTargeting });
      stored.postId = post.id;
      stored.usedBy = post.id;
    }
    photos.push(stored);
    return stored.postId ? { id: stored.id, post_id: stored.postId } : { id: stored.id };
  }

  function photoStory(page: FacebookSimPage, params: Record<string, string>) {
    const photo = photos.find((p) => p.id === params.photo_id && p.pageId === page.id);
    if (!photo) throw paramError('param photo_id must be a photo of this Page');
    if (photo.published || photo.usedBy) throw paramError('The photo must be unpublished and not used in another post');
    const story: FacebookSimStory = { postId: liveId(), pageId: page.id, media: 'photo', mediaId: photo.id, createdTime: iso() };
    photo.usedBy = story.postId;
    stories.push(story);
    return { success: true, post_id: story.postId };
  }

  function newVideo(v: Omit<FacebookSimVideo, 'id' | 'failProcessing'>): FacebookSimVideo {
    const video: FacebookSimVideo = { ...v, id: liveId(), failProcessing: failNextVideo };
    failNextVideo = false;
    videos.push(video);
    return video;
  }

  async function videoPost(page: FacebookSimPage, params: Record<string, string>, files: MultipartPart[]) {
    let source: FacebookSimVideo['source'];
    let size: number;
    const file = files.find((f) => f.name === 'source');
    if (params.fbuploader_video_file_chunk) {
      const session = [...sessions.values()].find((s) => s.handle === params.fbuploader_video_file_chunk);
      if (!session) throw paramError('Invalid fbuploader_video_file_chunk handle');
      if (!session.fileType.startsWith('video/')) throw new GraphFailure(400, { message: "(#352) Sorry, the video file you selected is in a format that we don't support.", code: 352 });
      source = 'resumable';
      size = session.fileLength;
    } else if (params.file_url) {
      const fetched = await pull(params.file_url);
      if (!fetched) throw new GraphFailure(400, { message: '(#389) Unable to fetch video file from URL.', code: 389 });
      if (!fetched.contentType.startsWith('video/')) throw new GraphFailure(400, { message: "(#352) Sorry, the video file you selected is in a format that we don't support.", code: 352 });
      source = 'file_url';
      size = fetched.data.length;
    } else if (file) {
      source = 'upload';
      size = file.data.length;
    } else {
      throw paramError('Missing video file: send file_url, source or fbuploader_video_file_chunk');
    }
    const published = bool(params.published, true);
    const video = newVideo({
      pageId: page.id, kind: 'video', source, fileUrl: params.file_url, size, title: params.title, description: params.description,
      published, uploaded: true, readyAt: Date.now() + processingMs,
    });
    if (published) video.postId = createPost({ pageId: page.id, kind: 'video', message: params.description, attachedMedia: [], published: true }).id;
    return { id: video.id };
  }

  function uploadPhase(page: FacebookSimPage, kind: 'story' | 'reel', params: Record<string, string>, origin: string) {
    if (params.upload_phase === 'start') {
      const video = newVideo({ pageId: page.id, kind, source: 'rupload', size: 0, published: false, uploaded: false, readyAt: null });
      return { video_id: video.id, upload_url: `${origin}/video-upload/${FACEBOOK_SIM_VERSION}/${video.id}` };
    }
    if (params.upload_phase !== 'finish') throw paramError('param upload_phase must be one of {START, FINISH}');
    const video = videos.find((v) => v.id === params.video_id && v.pageId === page.id && v.kind === kind);
    if (!video) throw paramError('param video_id must be a video upload session of this Page');
    if (!video.uploaded) throw paramError('The video has not been uploaded yet');
    if (video.readyAt !== null) throw paramError('The upload session is already finished');
    video.readyAt = Date.now() + processingMs;
    if (kind === 'story') {
      const story: FacebookSimStory = { postId: liveId(), pageId: page.id, media: 'video', mediaId: video.id, createdTime: iso() };
      stories.push(story);
      video.published = true;
      video.postId = story.postId;
      return { success: true, post_id: story.postId };
    }
    const state = params.video_state ?? 'PUBLISHED';
    if (!['PUBLISHED', 'DRAFT', 'SCHEDULED'].includes(state)) throw paramError('param video_state must be one of {DRAFT, PUBLISHED, SCHEDULED}');
    Object.assign(video, { videoState: state, published: state === 'PUBLISHED', title: params.title, description: params.description });
    return { success: true };
  }

  /** rupload.facebook.com: the bytes (or a `file_url` header) of a story or reel session. */
  async function rupload(req: SimRequest, res: ServerResponse, videoId: string) {
    const debug = (status: number, type: string, message: string) => sendJson(res, status, { debug_info: { retriable: false, type, message } });
    const header = (name: string) => (typeof req.headers[name] === 'string' ? (req.headers[name] as string) : undefined);
    const video = videos.find((v) => v.id === videoId && v.kind !== 'video');
    if (!video) return debug(404, 'NotFoundError', 'Unknown video upload session');
    let token: SimToken;
    try {
      token = checkToken(/^OAuth\s+(\S+)$/i.exec(header('authorization') ?? '')?.[1]);
    } catch {
      return debug(401, 'AuthError', 'Invalid OAuth access token');
    }
    if (token.kind !== 'page' || token.pageId !== video.pageId) return debug(403, 'AuthError', 'The token does not belong to the Page of this upload');
    if (video.uploaded) return debug(400, 'ProcessingFailedError', 'The video was already uploaded');
    const fileUrl = header('file_url');
    if (fileUrl) {
      const fetched = await pull(fileUrl);
      if (!fetched) return debug(400, 'ProcessingFailedError', 'Unable to fetch the file_url');
      video.size = fetched.data.length;
    } else {
      const offset = Number(header('offset'));
      const fileSize = Number(header('file_size'));
      if (offset !== 0) return debug(400, 'PartialRequestError', `offset must be 0 for a new upload; got ${header('offset') ?? 'none'}`);
      if (req.body.kind !== 'binary') return debug(400, 'ProcessingFailedError', 'Send the file bytes as the request body');
      if (!Number.isInteger(fileSize) || fileSize !== req.body.data.length) return debug(400, 'PartialRequestError', `file_size ${header('file_size') ?? 'none'} does not match the ${req.body.data.length} bytes received`);
      video.size = fileSize;
    }
    video.uploaded = true;
    sendJson(res, 200, { success: true });
  }

  function startSession(token: SimToken, appId: string, params: Record<string, string>) {
    if (appId !== app.id) throw noSuchObject(appId, 'POST');
    if (token.kind !== 'user') throw paramError('The Resumable Upload API needs a user access token');
    const length = Number(params.file_length);
    if (!Number.isInteger(length) || length <= 0) throw paramError('param file_length must be a positive integer');
    if (!UPLOAD_FILE_TYPES.includes(params.file_type ?? '')) throw paramError(`param file_type must be one of ${UPLOAD_FILE_TYPES.join(', ')}`);
    const id = `upload:${seeded('session').toString('base64url').slice(0, 40)}`;
    sessions.set(id, { id, appId, accountId: token.accountId, fileName: params.file_name ?? 'file', fileLength: length, fileType: params.file_type!, offset: 0, data: [] });
    return { id };
  }

  function uploadToSession(req: SimRequest, token: SimToken, id: string) {
    const session = sessions.get(id);
    if (!session || session.accountId !== token.accountId) throw noSuchObject(id, 'POST');
    const offset = Number(req.headers.file_offset);
    if (!Number.isInteger(offset) || offset !== session.offset) throw paramError(`file_offset must be ${session.offset}`);
    if (req.body.kind !== 'binary') throw paramError('Send the file bytes as the request body');
    if (session.offset + req.body.data.length > session.fileLength) throw paramError('More bytes than file_length');
    session.data.push(req.body.data);
    session.offset += req.body.data.length;
    if (session.offset < session.fileLength) return { id, file_offset: session.offset };
    session.handle = `2:${seeded('handle').toString('base64')}`;
    return { h: session.handle };
  }

  const findObject = (id: string) => posts.find((p) => p.id === id) ?? photos.find((p) => p.id === id) ?? videos.find((v) => v.id === id && v.kind !== 'story');
  const commentDeps: FacebookCommentDeps<SimToken, GraphFailure> = {
    store: commentStore, findObject, paramError, noSuchObject, iso,
    pageOf: (token, pageId, ...scopes) => pageOf(token, pageId, ...scopes),
    refusal: (code, message) => new GraphFailure(400, { message, code }),
    newCommentId: (objectId) => `${objectId.split('_').pop()}_${liveId()}`,
  };

  /** A comment by a Facebook user under a Page's post (`POST /__sim/comment`). */
  function seedComment(input: SeedCommentInput): FacebookSimComment {
    const target = findObject(input.postId);
    if (!target) throw new Error(`no post ${input.postId}`);
    if (input.parentId && commentStore.get(input.parentId)?.postId !== input.postId) throw new Error(`no comment ${input.parentId} under ${input.postId}`);
    const c = commentStore.add({ ...input, id: commentDeps.newCommentId(input.postId), authorId: input.authorId ?? fixtureId('fan'), authorName: input.authorName ?? 'A Fan', extra: { pageId: target.pageId } });
    return simComment(c);
  }
  const simComment = (c: SimComment): FacebookSimComment => ({
    id: c.id, objectId: c.postId, pageId: String(c.extra.pageId ?? ''), message: c.text, createdTime: iso(c.createdAt.getTime()),
    authorName: c.authorName, hidden: c.hidden, likes: c.likedBy.length, ...(c.parentId ? { parentId: c.parentId } : {}),
  });

  async function route(req: SimRequest, rest: string, origin: string): Promise<unknown> {
    const { params, files } = paramsOf(req);
    if (rest === '/oauth/access_token' && req.method === 'GET') return accessToken(params);
    const token = checkToken(bearer(req, params), { value: params.appsecret_proof });
    const parts = rest.split('/').filter(Boolean).map(decodeURIComponent);
    const [node, edge, ...extra] = parts;
    if (!node || extra.length) throw paramError(`Unknown path components: ${rest}`);
    const commentAnswer = facebookCommentRoute(commentDeps, req.method, token, node, edge, params);
    if (commentAnswer !== undefined) return commentAnswer;
    if (req.method === 'GET') {
      if (node === 'me' && !edge) return me(token, params);
      if (node === 'me' && edge === 'accounts') return myPages(req, token, params);
      if (node.startsWith('upload:') && !edge) {
        const session = sessions.get(node);
        if (!session) throw noSuchObject(node, 'GET');
        return { id: session.id, file_offset: session.offset };
      }
      if (!edge) {
        requireScopes(token, 'pages_read_engagement');
        return readObject(token, node, params);
      }
      if (edge === 'posts' || edge === 'published_posts') {
        return listFacebookPosts({ page: pageOf(token, node, 'pages_read_engagement'), posts, photos, videos, params, origin, path: req.path, paramError });
      }
      const video = videos.find((v) => v.id === node && v.kind !== 'story');
      if (video && edge === 'insights') throw paramError('Tried accessing nonexisting field (insights) on node type (Video)');
      if (video && edge === 'video_insights') {
        pageOf(token, video.pageId, FACEBOOK_INSIGHTS_SCOPE, 'pages_read_engagement');
        return analytics.videoInsightsAnswer(video, params);
      }
      if (edge === 'insights') {
        const post = posts.find((p) => p.id === node);
        if (post) pageOf(token, post.pageId, FACEBOOK_INSIGHTS_SCOPE, 'pages_read_engagement');
        return analytics.insights(post ? undefined : pageOf(token, node, FACEBOOK_INSIGHTS_SCOPE, 'pages_read_engagement'), post, params);
      }
      throw paramError(`Unknown edge ${edge}`);
    }
    const operation = facebookPostOperation({ posts, photos, videos, pageOf, iso, paramError, noSuchObject }, token, req.method, node, edge, params);
    if (operation !== undefined) return operation;
    if (req.method !== 'POST') throw paramError(`Unsupported ${req.method} request`);
    if (node.startsWith('upload:') && !edge) return uploadToSession(req, token, node);
    switch (edge) {
      case 'uploads': return startSession(token, node, params);
      case 'feed': return feed(pageOf(token, node, 'pages_manage_posts', 'pages_read_engagement'), params);
      case 'photos': return photo(pageOf(token, node, 'pages_manage_posts', 'pages_read_engagement'), params, files);
      case 'photo_stories': return photoStory(pageOf(token, node, 'pages_manage_posts'), params);
      case 'videos': return videoPost(pageOf(token, node, 'pages_manage_posts', 'publish_video'), params, files);
      case 'video_stories': return uploadPhase(pageOf(token, node, 'pages_manage_posts'), 'story', params, origin);
      case 'video_reels': return uploadPhase(pageOf(token, node, 'pages_manage_posts'), 'reel', params, origin);
      default: throw paramError(`Unknown edge ${edge ?? ''}`);
    }
  }

  let originRef = '';
  const host = await startSimulatorHost<FacebookFailureMode>({
    port: opts.port,
    maxBodyBytes: 200 * 1024 * 1024,
    failureModes: FACEBOOK_FAILURE_MODES,
    state: () => ({
      app: { id: app.id },
      accounts: [...accounts.values()].map((a) => ({ id: a.id, name: a.name, pages: a.pageIds })),
      posts: posts.length, photos: photos.length, videos: videos.length, stories: stories.length, comments: commentStore.all().length,
    }),
    controls: { comment: (body) => { seedComment(seedInputOf(body)); }, analytics_clock: clockControl(analytics.model) },
    reset: () => {
      posts.length = 0; photos.length = 0; videos.length = 0; stories.length = 0; commentStore.clear();
      sessions.clear();
      failNextVideo = false;
    },
    handle(req, res, failure) {
      void (async () => {
        const graphAnswer = (f: GraphFailure) => sendGraphError(res, f.status, { ...f.error }, seeded('trace').toString('base64url').slice(0, 11), f.headers);
        const versioned = /^(?:\/v\d+\.\d+)?(\/.*)$/.exec(req.path);
        const rest = versioned?.[1] ?? req.path;
        if (rest === '/dialog/oauth' && (req.method === 'GET' || req.method === 'POST')) return dialog(req, res);
        if (failure === 'bad_gateway') return sendText(res, 502, '<html><body><h1>502 Bad Gateway</h1></body></html>', 'text/html');
        if (failure === 'video_processing_error') failNextVideo = true;
        else if (failure) return graphAnswer(FAILURES[failure]());
        const upload = /^\/video-upload\/v\d+\.\d+\/(\d+)$/.exec(req.path);
        if (upload) return rupload(req, res, upload[1]!);
        try {
          sendJson(res, 200, await route(req, rest, originRef));
        } catch (err) {
          if (err instanceof GraphFailure) return graphAnswer(err);
          throw err;
        }
      })().catch((err: unknown) => {
        if (!res.headersSent) sendJson(res, 500, { error: { message: `simulator failure: ${String(err)}`, type: 'OAuthException', code: 1 } });
      });
    },
  });
  originRef = host.origin;

  const accountsOf = (accountId?: string) => [...tokens.values()].filter((t) => accountId === undefined || t.accountId === accountId);

  return {
    port: host.port,
    origin: host.origin,
    baseUrl: `${host.origin}/${FACEBOOK_SIM_VERSION}`,
    app,
    get requests() { return host.requests; },
    analytics,
    createAccount(input) {
      const id = fixtureId('account');
      const account: FacebookSimAccount = { id, name: input.name, pictureUrl: input.pictureUrl ?? `https://scontent.example/${id}.jpg`, pageIds: [] };
      accounts.set(id, account);
      return { id, name: input.name, pages: (input.pages ?? []).map((name) => addPage(id, name)) };
    },
    addPage,
    issueAuthCode(accountId, o) {
      if (!accounts.has(accountId)) throw new Error(`unknown account ${accountId}`);
      return issueCode(accountId, o.redirectUri, o.scopes ?? [...FACEBOOK_KNOWN_SCOPES]);
    },
    issueUserToken(accountId, o = {}) {
      if (!accounts.has(accountId)) throw new Error(`unknown account ${accountId}`);
      return userToken(accountId, o.longLived ?? true, o.scopes ?? [...FACEBOOK_KNOWN_SCOPES]).token;
    },
    expireAccessTokens(accountId) {
      for (const t of accountsOf(accountId)) if (t.kind === 'user') t.expiresAt = Date.now() - 1000;
    },
    revokeTokens(accountId) {
      for (const t of accountsOf(accountId)) t.revoked = true;
    },
    accounts: () => [...accounts.values()].map((a) => structuredClone(a)),
    pages: () => [...pages.values()].map((p) => ({ ...p })),
    posts: (pageId) => posts.filter((p) => pageId === undefined || p.pageId === pageId).map((p) => structuredClone(p)),
    photos: (pageId) => photos.filter((p) => pageId === undefined || p.pageId === pageId).map((p) => structuredClone(p)),
    videos: (pageId) => videos.filter((v) => pageId === undefined || v.pageId === pageId).map((v) => structuredClone(v)),
    stories: (pageId) => stories.filter((s) => pageId === undefined || s.pageId === pageId).map((s) => ({ ...s })),
    comments: (objectId) => commentStore.all(objectId).map(simComment),
    seedComment,
    uploadSessions: () => [...sessions.values()].map(({ data: _data, appId: _appId, ...s }) => ({ ...s })),
    fail: (mode, times) => host.fail(mode, times),
    setLatency: (ms) => host.setLatency(ms),
    state: () => host.state(),
    reset: () => host.reset(),
    close: () => host.close(),
  };
}
