/**
 * Loopback simulator of the Instagram API with Instagram Login (developers.facebook.com/docs/instagram-platform):
 * Business Login (`/oauth/authorize` approve page, `/oauth/access_token` for the short-lived token,
 * `/access_token` ig_exchange_token and `/refresh_access_token` ig_refresh_token) and the Graph API
 * under `/v{N}` for content publishing: containers that Meta fills by fetching the media URL itself,
 * processing that finishes after `processingMs`, media_publish, permalinks, comments and the
 * content publishing limit, with Graph's `{error:{message,type,code,error_subcode,fbtrace_id}}`.
 * One origin plays www.instagram.com, api.instagram.com and graph.instagram.com.
 */
import type { ServerResponse } from 'node:http';
import { createSeededSource, sendJson, sendText, startSimulatorHost, type SimRequest } from '../kit/http';
import { createCommentStore, seedInputOf, type SeedCommentInput } from '../kit/comments';
import { instagramCommentRoute } from './comments';
import { clockControl, createAnalyticsModel } from '../kit/metrics';
import { createInstagramAnalytics } from './analytics';
import {
  answerConsent, approvePage, createCheckpointedAccounts, fetchMedia, graphParamsOf, META_SIM_COMMON_ERRORS, sendGraphError, sniffMedia,
} from '../kit/meta-graph';

import { listInstagramMedia } from './media';
import {
  CODE_TTL_MS, INSTAGRAM_FAILURE_MODES, INSTAGRAM_SIM_API_VERSION, INSTAGRAM_SIM_QUOTA_TOTAL, INSTAGRAM_SIM_REGAIN_MINUTES, LONG_TOKEN_SECONDS,
  MAX_CAPTION, MAX_IMAGE_BYTES, MAX_VIDEO_BYTES, SCOPES, SHORT_TOKEN_SECONDS,
  type InstagramAccountFixture, type InstagramComment, type InstagramContainer, type InstagramFailureMode, type InstagramMedia,
  type InstagramSimulator, type InstagramSimulatorOptions,
} from './model';

export { approvePage, fetchMedia, sniffMedia, type SniffedMedia } from '../kit/meta-graph';

export {
  INSTAGRAM_FAILURE_MODES, INSTAGRAM_SIM_API_VERSION, INSTAGRAM_SIM_QUOTA_TOTAL, INSTAGRAM_SIM_REGAIN_MINUTES,
  type InstagramAccountFixture, type InstagramComment, type InstagramContainer, type InstagramFailureMode, type InstagramMedia,
  type InstagramSimulator, type InstagramSimulatorOptions,
} from './model';

// ---------------------------------------------------------------------------------------------

interface SimApp { clientId: string; clientSecret: string; redirectUris: string[] }
interface SimCode { code: string; accountId: string; clientId: string; redirectUri: string; scopes: string[]; expiresAt: number; used: boolean }
interface SimToken { token: string; accountId: string; clientId: string; kind: 'short' | 'long'; scopes: string[]; issuedAt: number; expiresAt: number; revoked: boolean }
interface ContainerState extends InstagramContainer {
  readyAt: number;
  /** Video fetch and checks, running in the background like Meta's processing. */
  processing?: Promise<void>;
  fetchedDone?: boolean;
  failure?: string;
  mediaId?: string;
}

type RequestKind = 'authorize' | 'token' | 'container' | 'publish' | 'graph';

function appliesTo(mode: InstagramFailureMode, kind: RequestKind): boolean {
  switch (mode) {
    case 'container_error': return kind === 'container';
    case 'publish_limit': case 'spam_restricted': case 'policy_block': return kind === 'publish';
    default: return kind !== 'authorize';
  }
}

export async function startInstagramSimulator(opts: InstagramSimulatorOptions = {}): Promise<InstagramSimulator> {
  const seeded = createSeededSource(opts.seed);
  const processingMs = opts.processingMs ?? 50;
  const apps = new Map<string, SimApp>();
  const accounts = new Map<string, InstagramAccountFixture>();
  const codes = new Map<string, SimCode>();
  const tokens = new Map<string, SimToken>();
  const containers = new Map<string, ContainerState>();
  const media = new Map<string, InstagramMedia>();
  const commentStore = createCommentStore();
  const commentsOff = new Set<string>();
  const privatelyAnswered = new Set<string>();
  const extraQuota = new Map<string, number>();
  /** Failures taken off the host's queue that wait for the kind of request they target. */
  const armed: InstagramFailureMode[] = [];
  const checkpointed = createCheckpointedAccounts((id) => accounts.has(id));
  let nextId = 1;
  const analytics = createInstagramAnalytics({
    model: createAnalyticsModel(opts.seed), media: () => media.values(), commentCount: (mediaId) => commentStore.all(mediaId).length,
    paramError: (res, message, subcode) => paramError(res, message, subcode), permissionDenied: (res) => failWith(res, 'permission_denied'),
  });

  const digits = (kind: string, n: number) => (seeded(kind).readBigUInt64BE(0) % 10n ** BigInt(n)).toString().padStart(n, '0');
  const liveId = (prefix: string) => `${prefix}${String(nextId++).padStart(17 - prefix.length, '0')}`;
  const secret = (kind: string, len: number) => seeded(kind).toString('base64url').slice(0, len);
  const fbtrace = () => secret('trace', 11);

  const graphError = (res: ServerResponse, status: number, error: Record<string, unknown>, headers: Record<string, string> = {}) =>
    sendGraphError(res, status, error, fbtrace(), headers);
  const paramError = (res: ServerResponse, message: string, subcode?: number) =>
    graphError(res, 400, { message: `(#100) ${message}`, code: 100, ...(subcode ? { error_subcode: subcode } : {}) });
  const legacyError = (res: ServerResponse, message: string) =>
    sendJson(res, 400, { error_type: 'OAuthException', code: 400, error_message: message });

  function failWith(res: ServerResponse, mode: InstagramFailureMode, ownerId?: string): void {
    switch (mode) {
      case 'token_expired': case 'token_revoked': case 'server_error': case 'permission_denied':
        return graphError(res, META_SIM_COMMON_ERRORS[mode].status, META_SIM_COMMON_ERRORS[mode].error);
      case 'rate_limited': {
        const usage = JSON.stringify({ [ownerId ?? '0']: [{ type: 'instagram', call_count: 100, total_cputime: 20, total_time: 25, estimated_time_to_regain_access: INSTAGRAM_SIM_REGAIN_MINUTES }] });
        return graphError(res, 400, { message: '(#4) Application request limit reached', code: 4, is_transient: true },
          { 'x-app-usage': JSON.stringify({ call_count: 100, total_cputime: 20, total_time: 25 }), 'x-business-use-case-usage': usage });
      }
      case 'checkpoint':
        return graphError(res, 400, { message: 'The user is restricted.', code: 25, error_subcode: 2207050,
          error_user_title: 'Restricted user', error_user_msg: "The app user's Instagram professional account is inactive, checkpointed, or restricted." });
      case 'publish_limit':
        return graphError(res, 400, { message: 'Application request limit reached', code: 9, error_subcode: 2207042,
          error_user_msg: 'You reached maximum number of posts that is allowed to be published by Content Publishing API.' });
      case 'spam_restricted':
        return graphError(res, 400, { message: 'Application request limit reached', code: 4, error_subcode: 2207051,
          error_user_msg: 'We restrict certain activity to protect our community. Tell us if you think we made a mistake.' });
      case 'policy_block':
        return graphError(res, 400, { message: '(#368) The action attempted has been deemed abusive or is otherwise disallowed', code: 368 });
      case 'container_error':
        return; // marks the container instead of answering with an error
    }
  }

  const paramsOf = graphParamsOf;

  const newToken = (accountId: string, clientId: string, kind: 'short' | 'long', scopes: string[]): SimToken => {
    const token: SimToken = {
      token: `IGAA${secret('token', 120)}`, accountId, clientId, kind, scopes, issuedAt: Date.now(),
      expiresAt: Date.now() + (kind === 'short' ? SHORT_TOKEN_SECONDS : LONG_TOKEN_SECONDS) * 1000, revoked: false,
    };
    tokens.set(token.token, token);
    return token;
  };

  /** Token validity as the Graph API answers it; undefined when the answer has been sent. */
  function authenticate(req: SimRequest, params: Record<string, string>, res: ServerResponse): SimToken | undefined {
    const header = /^(?:Bearer|OAuth)\s+(.+)$/i.exec(String(req.headers.authorization ?? ''))?.[1];
    const raw = header ?? params.access_token;
    if (!raw) {
      graphError(res, 400, { message: 'An active access token must be used to query information about the current user.', code: 2500 });
      return undefined;
    }
    const token = tokens.get(raw);
    if (!token) {
      graphError(res, 400, { message: 'Invalid OAuth access token - Cannot parse access token', code: 190 });
      return undefined;
    }
    if (token.revoked) {
      graphError(res, 400, { message: 'Error validating access token: The user has not authorized application.', code: 190, error_subcode: 458 });
      return undefined;
    }
    if (token.expiresAt <= Date.now()) {
      graphError(res, 400, { message: `Error validating access token: Session has expired on ${new Date(token.expiresAt).toUTCString()}.`, code: 190, error_subcode: 463 });
      return undefined;
    }
    return token;
  }

  // ----- OAuth ---------------------------------------------------------------------------------

  function scopesOf(raw: string | undefined): string[] {
    return (raw ?? '').split(/[,\s]+/).map((s) => s.trim()).filter(Boolean);
  }

  function authorizePage(req: SimRequest, res: ServerResponse) {
    const q = req.query;
    const app = apps.get(q.client_id ?? '');
    if (!app) return sendText(res, 400, 'Invalid Request: Request parameters are invalid: Invalid platform app');
    if (q.response_type !== 'code') return sendText(res, 400, 'Invalid Request: response_type must be code');
    if (!/^https?:\/\//.test(q.redirect_uri ?? '')) return sendText(res, 400, 'Invalid Request: redirect_uri is missing');
    if (app.redirectUris.length && !app.redirectUris.includes(q.redirect_uri!)) {
      return sendText(res, 400, 'Invalid Request: Redirect URI does not match the registered redirect URI');
    }
    const scopes = scopesOf(q.scope);
    const unknown = scopes.filter((s) => !SCOPES.includes(s));
    if (unknown.length) return sendText(res, 400, `Invalid Scopes: ${unknown.join(', ')}`);
    if (!scopes.includes('instagram_business_basic')) return sendText(res, 400, 'Invalid Scopes: instagram_business_basic is required');
    sendText(res, 200, approvePage({
      network: 'Instagram', appName: app.clientId, action: '/oauth/authorize', scopes,
      hidden: { client_id: app.clientId, redirect_uri: q.redirect_uri!, scope: scopes.join(','), state: q.state ?? '' },
      accounts: [...accounts.values()],
    }), 'text/html; charset=utf-8');
  }

  function authorizeDecision(req: SimRequest, res: ServerResponse) {
    const f = paramsOf(req);
    answerConsent(res, f, {
      appExists: (clientId) => apps.has(clientId), accountExists: (accountId) => accounts.has(accountId),
      issueCode: (accountId, clientId, redirectUri) => issueCode(accountId, clientId, redirectUri, scopesOf(f.scope)),
      deniedDescription: 'The user denied your request.',
    });
  }

  function issueCode(accountId: string, clientId: string, redirectUri: string, scopes: string[]): string {
    const code = `AQ${secret('code', 60)}`;
    codes.set(code, { code, accountId, clientId, redirectUri, scopes, expiresAt: Date.now() + CODE_TTL_MS, used: false });
    return code;
  }

  function shortLivedToken(req: SimRequest, res: ServerResponse) {
    const p = paramsOf(req);
    for (const name of ['client_id', 'client_secret', 'grant_type', 'redirect_uri', 'code']) {
      if (!p[name]) return legacyError(res, `You must provide a ${name}`);
    }
    const app = apps.get(p.client_id!);
    if (!app) return legacyError(res, 'Invalid platform app');
    if (app.clientSecret !== p.client_secret) return legacyError(res, 'Error validating client secret.');
    if (p.grant_type !== 'authorization_code') return legacyError(res, 'Unsupported grant_type');
    const code = codes.get(p.code!.replace(/#_$/, ''));
    if (!code || code.clientId !== app.clientId) return legacyError(res, 'Invalid authorization code');
    if (code.used) return legacyError(res, 'This authorization code has been used');
    if (code.expiresAt <= Date.now()) return legacyError(res, 'This authorization code has expired');
    if (code.redirectUri !== p.redirect_uri) {
      return legacyError(res, 'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request');
    }
    code.used = true;
    const token = newToken(code.accountId, code.clientId, 'short', code.scopes);
    // user_id is an unquoted number past 2^53, as Instagram sends it.
    const text = `{"access_token":${JSON.stringify(token.token)},"user_id":${accounts.get(code.accountId)!.appScopedId},"permissions":${JSON.stringify(code.scopes)}}`;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  }

  function longLivedToken(req: SimRequest, res: ServerResponse, failure: InstagramFailureMode | undefined) {
    const p = paramsOf(req);
    if (failure) return failWith(res, failure);
    const exchange = req.path === '/access_token';
    if (p.grant_type !== (exchange ? 'ig_exchange_token' : 'ig_refresh_token')) {
      return paramError(res, `grant_type must be ${exchange ? 'ig_exchange_token' : 'ig_refresh_token'}`);
    }
    const token = authenticate(req, p, res);
    if (!token) return;
    if (exchange) {
      if (token.kind !== 'short') return paramError(res, 'Only a short-lived token can be exchanged');
      if (apps.get(token.clientId)?.clientSecret !== p.client_secret) return graphError(res, 400, { message: 'Error validating client secret.', code: 1 });
    } else {
      if (token.kind !== 'long') return paramError(res, 'Only a long-lived token can be refreshed');
      // The simulator rotates strictly: the old token stops working, so the adapter must keep the new one.
      token.revoked = true;
    }
    const fresh = newToken(token.accountId, token.clientId, 'long', token.scopes);
    sendJson(res, 200, { access_token: fresh.token, token_type: 'bearer', expires_in: LONG_TOKEN_SECONDS });
  }

  // ----- Content publishing --------------------------------------------------------------------

  const bool = (v: string | undefined) => v === 'true' || v === '1';

  function parseJsonParam(raw: string): unknown {
    try {
      return JSON.parse(raw);
    } catch {
      return undefined;
    }
  }

  function countOf(re: RegExp, text: string) { return text.match(re)?.length ?? 0; }

  /** Validates a container request like Meta does at creation; returns an error answer or nothing. */
  function validateContainer(p: Record<string, string>, owner: InstagramAccountFixture, mediaType: InstagramContainer['mediaType'], isItem: boolean): [string, number?] | undefined {
    const image = mediaType === 'IMAGE' || (mediaType === 'STORIES' && !p.video_url);
    const reel = mediaType === 'REELS';
    if (mediaType === 'IMAGE' && !p.image_url) return ['The parameter image_url is required.'];
    if ((mediaType === 'REELS' || mediaType === 'VIDEO') && !p.video_url) return ['The parameter video_url is required.'];
    if (mediaType === 'STORIES' && !p.image_url === !p.video_url) return ['A story takes either image_url or video_url.'];
    if (mediaType === 'VIDEO' && !isItem) return ['The VIDEO media type is no longer supported. Use REELS.', 2207023];
    if (mediaType === 'CAROUSEL' && isItem) return ['A carousel cannot be a carousel item.'];
    const caption = p.caption ?? '';
    if ([...caption].length > MAX_CAPTION || countOf(/#[\p{L}\p{N}_]+/gu, caption) > 30 || countOf(/(^|[^\w])@[\w.]+/g, caption) > 20) {
      return ['The caption is too long or has too many hashtags or mentions.', 2207010];
    }
    for (const name of ['share_to_feed', 'audio_name', 'cover_url', 'thumb_offset', 'trial_params']) {
      if (p[name] !== undefined && !reel) return [`The parameter ${name} is only supported for REELS.`];
    }
    if (p.share_to_feed !== undefined && !['true', 'false', '1', '0'].includes(p.share_to_feed)) return ['share_to_feed must be a boolean.'];
    if (p.thumb_offset !== undefined && !/^\d+$/.test(p.thumb_offset)) return ['thumb_offset must be a whole number of milliseconds.'];
    if (p.trial_params !== undefined) {
      const trial = parseJsonParam(p.trial_params) as { graduation_strategy?: unknown } | undefined;
      if (!trial || !['MANUAL', 'SS_PERFORMANCE'].includes(String(trial.graduation_strategy))) return ['trial_params.graduation_strategy must be MANUAL or SS_PERFORMANCE.'];
      if (p.collaborators) return ['Trial reels cannot have collaborators.'];
      if (owner.followersCount < 1000) return ['Trial reels need a public account with at least 1000 followers.'];
    }
    if (p.collaborators !== undefined) {
      if (mediaType === 'STORIES' || isItem) return ['Collaborators are not supported for this media.'];
      const list = p.collaborators.trim().startsWith('[') ? parseJsonParam(p.collaborators) : p.collaborators.split(',');
      if (!Array.isArray(list) || list.length > 3 || list.some((c) => typeof c !== 'string' || !c.trim())) return ['collaborators is a list of up to 3 usernames.'];
    }
    if (p.location_id !== undefined) {
      if (mediaType === 'STORIES' || isItem) return ['location_id is not supported for this media.'];
      if (!/^\d+$/.test(p.location_id)) return ['INSTAGRAM_PLATFORM_API__INVALID_LOCATION_ID'];
    }
    if (p.alt_text !== undefined) {
      if (mediaType !== 'IMAGE') return ['alt_text is supported for image posts only.'];
      if ([...p.alt_text].length > 1000) return ['alt_text is limited to 1000 characters.'];
    }
    if (p.is_ai_generated !== undefined && isItem) return ['is_ai_generated is set on the carousel container only.'];
    if (p.user_tags !== undefined) {
      const tags = parseJsonParam(p.user_tags);
      if (!Array.isArray(tags) || tags.length > 20) return ['user_tags must be a JSON array of at most 20 objects.'];
      for (const tag of tags as Array<Record<string, unknown>>) {
        if (!tag || typeof tag.username !== 'string' || !tag.username) return ['Each user tag needs a username.'];
        const coords = ['x', 'y'].filter((a) => tag[a] !== undefined);
        if (coords.some((a) => typeof tag[a] !== 'number' || (tag[a] as number) < 0 || (tag[a] as number) > 1)) return ['User tag x and y are floats from 0.0 to 1.0.'];
        if (image && mediaType !== 'STORIES' && coords.length !== 2) return ['User tags on images need x and y.'];
      }
    }
    return undefined;
  }

  /** Fetches and checks an image during creation (Meta answers image problems at once). */
  async function fetchImage(url: string, story: boolean): Promise<[string, number] | { contentType: string; bytes: number; width?: number; height?: number }> {
    const got = await fetchMedia(url, MAX_IMAGE_BYTES);
    if (!got.ok) return [`Media download has failed: ${got.reason}.`, got.reason.includes('larger') ? 2207004 : 2207052];
    const sniffed = sniffMedia(got.data);
    if (sniffed.kind !== 'jpeg') return ['The image format is not supported. Only JPEG is supported.', 2207005];
    if (!story && sniffed.width && sniffed.height) {
      const ratio = sniffed.width / sniffed.height;
      if (ratio < 0.8 - 0.005 || ratio > 1.91 + 0.005) return ['The aspect ratio is not supported.', 2207009];
    }
    return { contentType: got.contentType, bytes: got.data.length, width: sniffed.width, height: sniffed.height };
  }

  /** Video (and reel cover) processing happens after creation; problems end the container in ERROR. */
  async function processVideo(c: ContainerState): Promise<void> {
    const got = await fetchMedia(c.params.video_url!, MAX_VIDEO_BYTES);
    if (!got.ok) { c.failure = `Error: Media download has failed: ${got.reason} (2207052)`; return; }
    const sniffed = sniffMedia(got.data);
    c.fetched = { contentType: got.contentType, bytes: got.data.length, durationSeconds: sniffed.durationSeconds };
    if (sniffed.kind !== 'mp4') { c.failure = 'Error: Unsupported video format (2207026)'; return; }
    const seconds = sniffed.durationSeconds ?? 0;
    const max = c.mediaType === 'REELS' ? 90 : 60;
    if (seconds < 3 || seconds > max) { c.failure = `Error: The video duration ${seconds.toFixed(1)} s is outside 3-${max} s (2207026)`; return; }
    if (c.params.thumb_offset !== undefined && Number(c.params.thumb_offset) >= seconds * 1000) {
      c.failure = `Error: Thumbnail offset must be greater than or equal to 0 and less than video duration, i.e. ${Math.round(seconds * 1000)} (2207057)`;
      return;
    }
    if (c.params.cover_url) {
      const cover = await fetchMedia(c.params.cover_url, MAX_IMAGE_BYTES);
      if (!cover.ok || sniffMedia(cover.data).kind !== 'jpeg') c.failure = 'Error: The cover image could not be used (2207052)';
    }
  }

  /** The container's status now: processing ends at readyAt, once Meta has fetched the media. */
  function refreshStatus(c: ContainerState): void {
    if (c.statusCode !== 'IN_PROGRESS' || Date.now() < c.readyAt || (c.processing && !c.fetchedDone)) return;
    if (c.failure) { c.statusCode = 'ERROR'; c.status = c.failure; } else { c.statusCode = 'FINISHED'; c.status = 'Finished: Media has been uploaded and it is ready to be published.'; }
  }

  async function createContainer(res: ServerResponse, owner: InstagramAccountFixture, token: SimToken, p: Record<string, string>, failure: InstagramFailureMode | undefined) {
    if (!token.scopes.includes('instagram_business_content_publish')) return failWith(res, 'permission_denied');
    const isItem = bool(p.is_carousel_item);
    const explicit = p.media_type;
    if (explicit && !['IMAGE', 'VIDEO', 'REELS', 'STORIES', 'CAROUSEL'].includes(explicit)) return paramError(res, 'The media type is unknown.', 2207023);
    const mediaType = (explicit ?? (p.image_url ? 'IMAGE' : p.video_url ? 'VIDEO' : '')) as InstagramContainer['mediaType'];
    if (!mediaType) return paramError(res, 'The parameter image_url is required.');
    const invalidParam = validateContainer(p, owner, mediaType, isItem);
    if (invalidParam) return paramError(res, invalidParam[0], invalidParam[1]);

    let children: string[] = [];
    if (mediaType === 'CAROUSEL') {
      children = (p.children ?? '').trim().startsWith('[') ? ((parseJsonParam(p.children!) as string[] | undefined) ?? []) : (p.children ?? '').split(',').map((s) => s.trim()).filter(Boolean);
      if (children.length < 2 || children.length > 10) return paramError(res, 'A carousel takes 2 to 10 children.', 2207028);
      for (const id of children) {
        const child = containers.get(id);
        if (!child || child.ownerId !== owner.id || !child.isCarouselItem) return paramError(res, `Child ${id} is not a carousel item of this account.`, 2207028);
        refreshStatus(child);
        if (child.statusCode !== 'FINISHED') return graphError(res, 400, { message: 'The media is not ready for publishing, please wait for a moment', code: 9007, error_subcode: 2207027 });
      }
    }

    const c: ContainerState = {
      id: liveId('179'), ownerId: owner.id, mediaType, isCarouselItem: isItem, params: p, children,
      statusCode: 'IN_PROGRESS', status: 'In Progress: Media is still being processed.', createdAt: new Date(), readyAt: Date.now() + processingMs,
    };
    delete c.params.access_token;
    const image = mediaType === 'IMAGE' || (mediaType === 'STORIES' && !!p.image_url);
    if (image) {
      const fetched = await fetchImage(p.image_url!, mediaType === 'STORIES');
      if (Array.isArray(fetched)) return paramError(res, fetched[0], fetched[1]);
      c.fetched = fetched;
    } else if (mediaType !== 'CAROUSEL') {
      c.processing = processVideo(c).then(() => { c.fetchedDone = true; });
    }
    if (failure === 'container_error') c.failure = 'Error: Unsupported video format (2207026)';
    containers.set(c.id, c);
    sendJson(res, 200, { id: c.id });
  }

  function publishContainer(res: ServerResponse, owner: InstagramAccountFixture, p: Record<string, string>) {
    const c = containers.get(p.creation_id ?? '');
    if (!c || c.ownerId !== owner.id) return paramError(res, `Unsupported post request. Object with ID '${p.creation_id ?? ''}' does not exist.`, 33);
    if (c.isCarouselItem) return paramError(res, 'A carousel item cannot be published on its own.');
    refreshStatus(c);
    if (c.statusCode === 'IN_PROGRESS') return graphError(res, 400, { message: 'The media is not ready for publishing, please wait for a moment', code: 9007, error_subcode: 2207027 });
    if (c.statusCode === 'EXPIRED') return graphError(res, 400, { message: 'The media you are trying to access has expired.', code: -2, error_subcode: 2207020 });
    if (c.statusCode === 'ERROR') return graphError(res, 400, { message: c.status, code: -1, error_subcode: Number(/\((\d+)\)$/.exec(c.status)?.[1] ?? 2207001) });
    if (c.statusCode === 'PUBLISHED') return paramError(res, 'The container has already been published.');
    if (quotaUsage(owner.id) >= INSTAGRAM_SIM_QUOTA_TOTAL) return failWith(res, 'publish_limit');

    const shortcode = secret('shortcode', 11);
    const product = c.mediaType === 'STORIES' ? 'STORY' : c.mediaType === 'REELS' ? 'REELS' : 'FEED';
    const id = liveId('180');
    const item: InstagramMedia = {
      id, ownerId: owner.id, containerId: c.id,
      media_type: c.mediaType === 'CAROUSEL' ? 'CAROUSEL_ALBUM' : c.params.video_url ? 'VIDEO' : 'IMAGE',
      media_product_type: product,
      ...(c.mediaType !== 'STORIES' && c.params.caption ? { caption: c.params.caption } : {}),
      permalink: product === 'STORY' ? `https://www.instagram.com/stories/${owner.username}/${id}/`
        : `https://www.instagram.com/${product === 'REELS' ? 'reel' : 'p'}/${shortcode}/`,
      shortcode,
      timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, '+0000'),
      children: c.children.map((cid) => publicContainer(containers.get(cid)!)),
      params: c.params,
    };
    media.set(id, item);
    c.statusCode = 'PUBLISHED';
    c.status = 'Published: Media has been successfully published.';
    c.mediaId = id;
    for (const cid of c.children) containers.get(cid)!.statusCode = 'PUBLISHED';
    sendJson(res, 200, { id });
  }

  function quotaUsage(ownerId: string): number {
    const since = Date.now() - 86400_000;
    return [...media.values()].filter((m) => m.ownerId === ownerId && Date.parse(m.timestamp.replace('+0000', 'Z')) >= since).length + (extraQuota.get(ownerId) ?? 0);
  }

  function publicContainer(c: ContainerState): InstagramContainer {
    const { readyAt: _r, processing: _p, failure: _f, mediaId: _m, fetchedDone: _d, ...rest } = c;
    return structuredClone(rest);
  }

  const pick = (obj: Record<string, unknown>, fields: string | undefined, fallback: string[]) => {
    const wanted = fields ? fields.split(',').map((f) => f.trim()).filter(Boolean) : fallback;
    return Object.fromEntries(wanted.filter((f) => obj[f] !== undefined).map((f) => [f, obj[f]]));
  };

  function readObject(res: ServerResponse, owner: InstagramAccountFixture, id: string, p: Record<string, string>) {
    const account = id === 'me' ? owner : accounts.get(id);
    if (account) {
      if (account.id !== owner.id) return paramError(res, `Unsupported get request. Object with ID '${id}' does not exist.`, 33);
      return sendJson(res, 200, pick({
        id: account.id, user_id: account.id, username: account.username, name: account.name,
        profile_picture_url: account.profilePictureUrl, account_type: 'BUSINESS', followers_count: analytics.followers(account), follows_count: analytics.following(account),
        media_count: [...media.values()].filter((m) => m.ownerId === account.id).length,
      }, p.fields, ['id']));
    }
    const c = containers.get(id);
    if (c && c.ownerId === owner.id) {
      refreshStatus(c);
      return sendJson(res, 200, pick({ id: c.id, status_code: c.statusCode, status: c.status }, p.fields, ['id']));
    }
    const m = media.get(id);
    if (m && m.ownerId === owner.id) {
      return sendJson(res, 200, pick({
        id: m.id, media_type: m.media_type, media_product_type: m.media_product_type, caption: m.caption, permalink: m.permalink,
        shortcode: m.shortcode, timestamp: m.timestamp, username: owner.username, is_ai_generated: bool(m.params.is_ai_generated),
        comments_count: commentStore.all(m.id).length, comment_enabled: !commentsOff.has(m.id),
        children: m.children.length ? { data: m.children.map((ch) => ({ id: ch.id })) } : undefined,
      }, p.fields, ['id']));
    }
    return paramError(res, `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`, 33);
  }

  function requestKind(req: SimRequest): RequestKind {
    if (req.path === '/oauth/authorize') return 'authorize';
    if (req.path === '/oauth/access_token' || req.path === '/access_token' || req.path === '/refresh_access_token') return 'token';
    if (req.method === 'POST' && /\/media$/.test(req.path)) return 'container';
    if (req.method === 'POST' && /\/media_publish$/.test(req.path)) return 'publish';
    return 'graph';
  }

  async function graphRoute(req: SimRequest, res: ServerResponse, failure: InstagramFailureMode | undefined) {
    const route = /^(?:\/v\d+\.\d+)?\/([^/]+)(?:\/([a-z_]+))?\/?$/.exec(req.path);
    if (!route) return graphError(res, 404, { message: 'Unknown path components', code: 2500 });
    const p = paramsOf(req);
    const token = authenticate(req, p, res);
    if (!token) return;
    const owner = accounts.get(token.accountId)!;
    if (failure && failure !== 'container_error') return failWith(res, failure, owner.id);
    if (checkpointed.has(owner.id)) return failWith(res, 'checkpoint', owner.id);
    const [, node, edge] = route;
    const isOwner = node === 'me' || node === owner.id;

    const commentDeps = { store: commentStore, media, commentsOff, privatelyAnswered, newId: liveId, paramError, graphError: (r: ServerResponse, status: number, error: Record<string, unknown>) => graphError(r, status, error) };
    if (instagramCommentRoute(commentDeps, { req, res, owner, scopes: token.scopes, node: node!, edge, params: p })) return;
    if (req.method === 'GET' && !edge) return readObject(res, owner, node!, p);
    if (req.method === 'GET' && edge === 'insights' && analytics.route(res, owner, token.scopes, node!, p, media.get(node!))) return;
    if (req.method === 'GET' && edge === 'content_publishing_limit' && isOwner) {
      return sendJson(res, 200, { data: [{ quota_usage: quotaUsage(owner.id), config: { quota_total: INSTAGRAM_SIM_QUOTA_TOTAL, quota_duration: 86400 } }] });
    }
    if (req.method === 'GET' && edge === 'media' && isOwner) {
      return listInstagramMedia(req, res, { owner, scopes: token.scopes, media: media.values(), params: p, origin: host.origin, paramError, denied: (r) => failWith(r, 'permission_denied') });
    }
    if (req.method === 'POST' && edge === 'media' && isOwner) return createContainer(res, owner, token, p, failure);
    if (req.method === 'POST' && edge === 'media_publish' && isOwner) return publishContainer(res, owner, p);
    return paramError(res, `Unsupported ${req.method.toLowerCase()} request. Object with ID '${node}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`, 33);
  }

  /** A comment by another Instagram user (`POST /__sim/comment`), as it arrives from the app. */
  function seedComment(input: SeedCommentInput): InstagramComment {
    if (!media.has(input.postId)) throw new Error(`no media ${input.postId}`);
    if (input.parentId && commentStore.get(input.parentId)?.postId !== input.postId) throw new Error(`no comment ${input.parentId} under ${input.postId}`);
    const c = commentStore.add({ ...input, id: liveId('178'), authorId: input.authorId ?? `1784${digits('ig-fan', 13)}`, authorName: input.authorName ?? 'a_fan' });
    return { id: c.id, mediaId: c.postId, text: c.text, username: c.authorName, timestamp: c.createdAt.toISOString(), hidden: false, ...(c.parentId ? { parentId: c.parentId } : {}) };
  }

  const host = await startSimulatorHost<InstagramFailureMode>({
    port: opts.port,
    maxBodyBytes: 1024 * 1024,
    failureModes: INSTAGRAM_FAILURE_MODES,
    state: () => ({
      armedFailures: [...armed],
      checkpointed: checkpointed.list(),
      apps: apps.size,
      accounts: [...accounts.values()].map((a) => ({ id: a.id, username: a.username })),
      containers: containers.size,
      posts: media.size,
      comments: commentStore.all().length,
    }),
    reset: () => {
      containers.clear();
      media.clear();
      commentStore.clear();
      commentsOff.clear();
      privatelyAnswered.clear();
      extraQuota.clear();
      armed.length = 0;
      checkpointed.clear();
    },
    controls: {
      checkpoint: checkpointed.control,
      comment: (body) => { seedComment(seedInputOf(body)); },
      analytics_clock: clockControl(analytics.model),
    },
    handle(req, res, queued) {
      const kind = requestKind(req);
      if (queued) armed.push(queued);
      const at = armed.findIndex((m) => appliesTo(m, kind));
      const failure = at >= 0 ? armed.splice(at, 1)[0] : undefined;

      if (kind === 'authorize') {
        if (req.method === 'GET') return authorizePage(req, res);
        if (req.method === 'POST') return authorizeDecision(req, res);
        return sendText(res, 405, 'Method Not Allowed');
      }
      if (req.path === '/oauth/access_token') {
        if (req.method !== 'POST') return sendText(res, 405, 'Method Not Allowed');
        if (failure) return failWith(res, failure);
        return shortLivedToken(req, res);
      }
      if (kind === 'token') return longLivedToken(req, res, failure);
      void graphRoute(req, res, failure).catch((err: unknown) => {
        if (!res.headersSent) sendJson(res, 500, { error: { message: String(err), code: 1 } });
      });
    },
  });

  const origin = host.origin;
  const accountList = () => [...accounts.values()].map((a) => ({ ...a }));
  const tokensOf = (accountId?: string) => [...tokens.values()].filter((t) => accountId === undefined || t.accountId === accountId);

  return {
    port: host.port,
    origin,
    apiBase: origin,
    apiVersion: INSTAGRAM_SIM_API_VERSION,
    authorizeUrl: `${origin}/oauth/authorize`,
    tokenUrl: `${origin}/oauth/access_token`,
    get requests() { return host.requests; },
    analytics,
    createApp(input = {}) {
      const app: SimApp = {
        clientId: input.clientId ?? digits('app', 15),
        clientSecret: input.clientSecret ?? seeded('app-secret').toString('hex').slice(0, 32),
        redirectUris: input.redirectUris ?? [],
      };
      apps.set(app.clientId, app);
      return { clientId: app.clientId, clientSecret: app.clientSecret };
    },
    createAccount(input) {
      const account: InstagramAccountFixture = {
        id: `1784${digits('ig-user', 13)}`,
        appScopedId: `2${digits('ig-app-user', 16)}`,
        username: input.username,
        name: input.name ?? input.username,
        profilePictureUrl: input.profilePictureUrl ?? `https://scontent.cdninstagram.com/v/${input.username}.jpg`,
        followersCount: input.followersCount ?? 5000,
      };
      accounts.set(account.id, account);
      return { ...account };
    },
    accounts: accountList,
    issueAuthCode(accountId, o) {
      if (!accounts.has(accountId) || !apps.has(o.clientId)) throw new Error('unknown account or app');
      return issueCode(accountId, o.clientId, o.redirectUri, o.scopes ?? SCOPES.slice(0, 3));
    },
    issueToken(accountId, o) {
      if (!accounts.has(accountId) || !apps.has(o.clientId)) throw new Error('unknown account or app');
      const t = newToken(accountId, o.clientId, 'long', o.scopes ?? SCOPES.slice(0, 3));
      return { accessToken: t.token, expiresAt: new Date(t.expiresAt) };
    },
    expireAccessTokens(accountId) { for (const t of tokensOf(accountId)) t.expiresAt = Date.now() - 1000; },
    revokeTokens(accountId) { for (const t of tokensOf(accountId)) t.revoked = true; },
    tokenInfo(token) {
      const t = tokens.get(token);
      return t ? { accountId: t.accountId, kind: t.kind, expiresAt: new Date(t.expiresAt), revoked: t.revoked, scopes: [...t.scopes] } : undefined;
    },
    usePublishingQuota(accountId, n) { extraQuota.set(accountId, (extraQuota.get(accountId) ?? 0) + n); },
    containers: () => [...containers.values()].map((c) => { refreshStatus(c); return publicContainer(c); }),
    posts: (accountId) => [...media.values()].filter((m) => accountId === undefined || m.ownerId === accountId).map((m) => structuredClone(m)),
    comments: (mediaId) => commentStore.all(mediaId).map((c): InstagramComment => ({
      id: c.id, mediaId: c.postId, text: c.text, username: c.authorName, timestamp: c.createdAt.toISOString(),
      hidden: c.hidden, ...(c.parentId ? { parentId: c.parentId } : {}),
    })),
    seedComment,
    commentsEnabled: (mediaId) => !commentsOff.has(mediaId),
    fail: (mode, times) => host.fail(mode, times),
    checkpointAccount: (accountId) => checkpointed.set(accountId, true),
    completeCheckpoint: (accountId) => checkpointed.set(accountId, false),
    setLatency: (ms) => host.setLatency(ms),
    state: () => host.state(),
    reset: () => host.reset(),
    close: () => host.close(),
  };
}
