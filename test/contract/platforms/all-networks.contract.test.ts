/**
 * The shared platform contract (shared-contract.ts) run against every adapter + simulator pair.
 * One harness per network, built from that network's simulator helpers and adapter factory; each
 * network's simulator runs only while its describe block runs.
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { MediaKind } from '../../../core/domain/platforms';
import { resolveSettings } from '../../../core/domain/settings';
import type {
  MediaAccess, MediaRef, PlatformAdapter, PlatformCredentials, PlatformDescriptor, PublishPost, VerifiedConnection,
} from '../../../core/ports/platform';
import { createFfprobe } from '../../../adapters/media/ffprobe';
import { createTikTokPlatform } from '../../../adapters/platforms/tiktok';
import { createInstagramPlatform } from '../../../adapters/platforms/instagram';
import { createThreadsPlatform } from '../../../adapters/platforms/threads';
import { createFacebookPlatform } from '../../../adapters/platforms/facebook';
import { createYoutubePlatform } from '../../../adapters/platforms/youtube';
import { createLinkedInPlatform } from '../../../adapters/platforms/linkedin';
import { createXPlatform } from '../../../adapters/platforms/x';
import { createPinterestPlatform } from '../../../adapters/platforms/pinterest';
import { createBlueskyPlatform } from '../../../adapters/platforms/bluesky';
import { createDiscordPlatform } from '../../../adapters/platforms/discord';
import { createTelegramPlatform } from '../../../adapters/platforms/telegram';
import { startTikTokSimulator, type TikTokSimulator } from '../../../ops/simulators/tiktok';
import { startInstagramSimulator, type InstagramSimulator } from '../../../ops/simulators/instagram';
import { startThreadsSimulator, type ThreadsSimulator } from '../../../ops/simulators/threads';
import { startFacebookSimulator, type FacebookSimulator } from '../../../ops/simulators/facebook';
import { startYoutubeSimulator, type YoutubeSimulator } from '../../../ops/simulators/youtube';
import { startLinkedInSimulator, type LinkedInSimulator } from '../../../ops/simulators/linkedin';
import { startXSimulator, type XSimulator } from '../../../ops/simulators/x';
import { startPinterestSimulator, type PinterestSimulator } from '../../../ops/simulators/pinterest';
import { startBlueskySimulator, type BlueskySimulator } from '../../../ops/simulators/bluesky';
import { startDiscordSimulator, type DiscordSimulator } from '../../../ops/simulators/discord';
import { startTelegramSimulator, type TelegramSimulator } from '../../../ops/simulators/telegram';
import { mediaFixtures, type MediaFixtures , FIXTURE_TIMEOUT_MS } from '../../support/platform-harness';
import { platformContract, type PlatformHarness } from './shared-contract';
import {
  blueskyAnalyticsHarness, facebookAnalyticsHarness, instagramAnalyticsHarness, linkedinAnalyticsHarness, pinterestAnalyticsHarness, threadsAnalyticsHarness,
  tiktokAnalyticsHarness, xAnalyticsHarness, youtubeAnalyticsHarness,
} from './analytics-harnesses';

const PROCESSING_MS = 20;
const POLL_MS = 10;
const TIMEOUT_MS = 5000;

let fx: MediaFixtures;
beforeAll(async () => { fx = await mediaFixtures(); }, FIXTURE_TIMEOUT_MS);
afterAll(async () => { await fx?.close(); });
const fixtures = () => fx;

// ---------------------------------------------------------------------------------------------
// Helpers shared by the harnesses.

let serial = 0;
/** A text no network has seen yet (several refuse the same text twice in a row). */
const unique = (text: string) => `${text} #${++serial}`;

/** Settings as the core hands them to an adapter: canonical names, types converted, defaults applied. */
function settingsFor(descriptor: PlatformDescriptor, kind: MediaKind, fields: Record<string, unknown>, mediaCount: number) {
  const resolved = resolveSettings(descriptor.id, descriptor.settings, fields, { endpoint: kind, mediaCount });
  if (resolved.violations.length) throw new Error(`${descriptor.id} harness settings are invalid: ${JSON.stringify(resolved.violations)}`);
  return resolved.values;
}

function post(adapter: PlatformAdapter, kind: MediaKind, title: string, media: MediaRef[], fields: Record<string, unknown> = {}, extra: Partial<PublishPost> = {}): PublishPost {
  return { kind, title: unique(title), media, settings: settingsFor(adapter.descriptor, kind, fields, media.length), ...extra };
}

/**
 * The real OAuth connect: the adapter's authorize URL is opened on the simulator (which checks the
 * client, redirect URI and scopes), the approve form is posted with the sandbox account, and the
 * code from the redirect goes to exchangeCode (with the PKCE verifier when the adapter uses PKCE).
 */
async function oauthConnect(adapter: PlatformAdapter, redirectUri: string, approve: Record<string, string>): Promise<VerifiedConnection> {
  const oauth = adapter.oauth;
  if (!oauth) throw new Error(`${adapter.descriptor.id} has no oauth`);
  const state = `st-${randomBytes(6).toString('hex')}`;
  const verifier = oauth.pkce ? randomBytes(32).toString('base64url') : undefined;
  const codeChallenge = verifier ? createHash('sha256').update(verifier).digest('base64url') : undefined;
  const authorize = new URL(oauth.authorizeUrl({ state, redirectUri, ...(codeChallenge ? { codeChallenge } : {}) }));
  const page = await fetch(authorize);
  if (page.status !== 200) throw new Error(`${adapter.descriptor.id} authorize page answered ${page.status}: ${await page.text()}`);
  await page.text();
  const approved = await fetch(`${authorize.origin}${authorize.pathname}`, {
    method: 'POST', redirect: 'manual', body: new URLSearchParams({ ...Object.fromEntries(authorize.searchParams), ...approve }),
  });
  const location = approved.headers.get('location');
  if (approved.status !== 302 || !location) throw new Error(`${adapter.descriptor.id} approve answered ${approved.status}: ${await approved.text()}`);
  const back = new URL(location);
  const code = back.searchParams.get('code');
  if (`${back.origin}${back.pathname}` !== redirectUri || back.searchParams.get('state') !== state || !code) {
    throw new Error(`${adapter.descriptor.id} approve redirected to ${location}`);
  }
  return oauth.exchangeCode({ code, redirectUri, ...(verifier ? { codeVerifier: verifier } : {}) });
}

/**
 * Builds a harness whose simulator and adapter exist between start and stop. `make` runs at start
 * and returns the network-specific parts; the simulator is closed at stop.
 */
function harness<S extends { close(): Promise<void>; reset(): void; readonly requests: unknown[] }>(
  base: Omit<PlatformHarness, 'start' | 'stop' | 'reset' | 'adapter' | 'requestCount'> & {
    start(): Promise<{ sim: S; adapter: PlatformAdapter }>;
    cleanup?(): void;
  },
  bind: (get: () => S) => void,
): PlatformHarness {
  let sim: S | undefined;
  let adapter: PlatformAdapter | undefined;
  const get = () => {
    if (!sim) throw new Error(`${base.name} simulator is not running`);
    return sim;
  };
  bind(get);
  const { start, cleanup, ...rest } = base;
  return {
    ...rest,
    async start() {
      ({ sim, adapter } = await start());
    },
    async stop() {
      await sim?.close();
      sim = undefined;
      cleanup?.();
    },
    reset: () => get().reset(),
    requestCount: () => get().requests.length,
    get adapter() {
      if (!adapter) throw new Error(`${base.name} adapter is not built`);
      return adapter;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// TikTok

const tiktok = (() => {
  const REDIRECT = 'https://herald.example/connect/tiktok/callback';
  let sim: () => TikTokSimulator;
  let openId = '';
  let adapter: PlatformAdapter;
  return harness<TikTokSimulator>({
    name: 'tiktok',
    async start() {
      const s = await startTikTokSimulator({ processingMs: PROCESSING_MS, commentListingDelayMs: 0 });
      const client = s.createClient({ redirectUris: [REDIRECT] });
      openId = s.createAccount({ username: 'contract.creator', displayName: 'Contract Creator', capabilities: ['comments'] }).openId;
      adapter = createTikTokPlatform({
        clientId: client.clientKey, clientSecret: client.clientSecret, apiBase: s.apiBase, authBase: s.authBase, businessApiBase: s.businessApiBase,
        pollIntervalMs: POLL_MS, postIdPollIntervalMs: POLL_MS, timeoutMs: TIMEOUT_MS,
      });
      return { sim: s, adapter };
    },
    connect: () => oauthConnect(adapter, REDIRECT, { open_id: openId, decision: 'approve' }),
    refresh: { model: 'after_expiry', expireAccessToken: () => sim().expireAccessTokens(openId) },
    publishable: {
      photo: (m) => post(adapter, 'photo', 'Contract photos', m.images.slice(0, 2)),
      video: (m) => post(adapter, 'video', 'Contract video #herald', [m.video]),
    },
    networkHas: async (o) => sim().posts(openId).some((p) => p.id === o.postId && p.state === 'published'),
    publishedCount: () => sim().posts().length,
    firstComment: { check: async (o, text) => sim().comments(o.postId).some((c) => c.text === text) },
    library: { kind: 'video' },
    lookups: {
      lists: {
        music_trending: { names: ['Summer Vibes', 'Morning Coffee'] },
        music_search: { request: { query: 'lo-fi' }, names: ['Morning Coffee', 'Bakery Morning'] },
        locations: { request: { query: 'paris' }, names: ['Paris Bakery 1', 'Paris Bakery 20'] },
      },
      records: { settings: { privacy_level_options: expect.arrayContaining(['PUBLIC_TO_EVERYONE']), max_video_post_duration_sec: expect.any(Number), comment_disabled: false } },
    },
    analytics: tiktokAnalyticsHarness(() => sim(), () => openId),
    comments: {
      seed: (o, text, parentId) => sim().seedComment({ postId: o.postId, text, authorName: 'a.fan', ...(parentId ? { parentId } : {}) }).id,
      state: (id) => {
        const c = sim().comments().find((x) => x.id === id);
        return c && { text: c.text, hidden: c.hidden, liked: c.liked, pinned: c.pinned };
      },
    },
    failures: [
      { mode: 'access_token_invalid', arm: () => sim().fail('access_token_invalid'), expect: { kind: 'auth_expired', reason: 'access_token_invalid' } },
      { mode: 'real:access_token_expired', arm: () => sim().expireAccessTokens(openId), expect: { kind: 'auth_expired' } },
      { mode: 'job_auth_removed', arm: () => sim().fail('job_auth_removed'), expect: { kind: 'auth_expired', reason: 'auth_removed' } },
      { mode: 'rate_limit_exceeded', arm: () => sim().fail('rate_limit_exceeded'), expect: { kind: 'rate_limited', retryAfterMs: 30_000 } },
      { mode: 'internal_error', arm: () => sim().fail('internal_error'), expect: { kind: 'transient' } },
      { mode: 'bad_gateway', arm: () => sim().fail('bad_gateway'), expect: { kind: 'transient' } },
      { mode: 'job_internal', arm: () => sim().fail('job_internal'), expect: { kind: 'transient' } },
      { mode: 'spam_risk_too_many_posts', arm: () => sim().fail('spam_risk_too_many_posts'), expect: { kind: 'restricted', reason: 'spam_risk_too_many_posts' } },
      { mode: 'spam_risk_user_banned_from_posting', arm: () => sim().fail('spam_risk_user_banned_from_posting'), expect: { kind: 'restricted', reason: 'spam_risk_user_banned_from_posting' } },
      { mode: 'spam_risk_text', arm: () => sim().fail('spam_risk_text'), expect: { kind: 'rejected', code: 'spam_risk_text' } },
      { mode: 'reached_active_user_cap', arm: () => sim().fail('reached_active_user_cap'), expect: { kind: 'rejected', code: 'reached_active_user_cap' } },
      { mode: 'privacy_level_option_mismatch', arm: () => sim().fail('privacy_level_option_mismatch'), expect: { kind: 'invalid_content', code: 'tiktok_privacy_unavailable' } },
      { mode: 'job_file_format_check_failed', kind: 'video', arm: () => sim().fail('job_file_format_check_failed'), expect: { kind: 'invalid_content', code: 'file_format_check_failed' } },
    ],
  }, (get) => { sim = get; });
})();

// ---------------------------------------------------------------------------------------------
// Instagram

const instagram = (() => {
  const REDIRECT = 'https://herald.example/oauth/instagram/callback';
  let sim: () => InstagramSimulator;
  let accountId = '';
  let igApp = { clientId: '', clientSecret: '' };
  let adapter: PlatformAdapter;
  return harness<InstagramSimulator>({
    name: 'instagram',
    async start() {
      const s = await startInstagramSimulator({ processingMs: PROCESSING_MS });
      const app = s.createApp({ redirectUris: [REDIRECT] });
      accountId = s.createAccount({ username: 'contract_ig', name: 'Contract IG' }).id;
      igApp = app;
      adapter = createInstagramPlatform({
        clientId: app.clientId, clientSecret: app.clientSecret, apiBase: s.apiBase, apiVersion: s.apiVersion,
        authorizeUrl: s.authorizeUrl, tokenUrl: s.tokenUrl, timeoutMs: TIMEOUT_MS, pollIntervalMs: POLL_MS,
      });
      return { sim: s, adapter };
    },
    connect: () => oauthConnect(adapter, REDIRECT, { account_id: accountId, decision: 'allow' }),
    refresh: { model: 'while_valid', expireAccessToken: () => sim().expireAccessTokens(accountId) },
    publishable: {
      photo: (m) => post(adapter, 'photo', 'Contract photo #launch', [m.images[0]!]),
      video: (m) => post(adapter, 'video', 'Contract reel', [m.video]),
    },
    networkHas: async (o) => sim().posts(accountId).some((p) => p.id === o.postId),
    publishedCount: () => sim().posts().length,
    analytics: instagramAnalyticsHarness(() => sim(), () => accountId),
    firstComment: { check: async (o, text) => sim().comments(o.postId).some((c) => c.text === text) },
    library: {},
    lookups: { records: { publishing_limit: { quota_total: 100, quota_usage: 0, quota_remaining: 100, quota_duration_seconds: 86400 } } },
    comments: {
      seed: (o, text, parentId) => sim().seedComment({ postId: o.postId, text, authorName: 'a_fan', ...(parentId ? { parentId } : {}) }).id,
      state: (id) => { const c = sim().comments().find((x) => x.id === id); return c && { text: c.text, hidden: c.hidden ?? false }; },
      postCommentsEnabled: (o) => sim().commentsEnabled(o.postId),
      async foreignPost() {
        const other = sim().createAccount({ username: `other_ig_${++serial}` });
        const { accessToken } = sim().issueToken(other.id, { clientId: igApp.clientId });
        const { drivePublish } = await import('../../support/platform-harness');
        const { outcome } = await drivePublish(adapter, { credentials: { access_token: accessToken, ig_user_id: other.id }, idempotencyKey: 'foreign', media: fx.access },
          post(adapter, 'photo', 'Not yours', [fx.images[0]!]), { maxWaitMs: 20 });
        return { id: outcome.postId };
      },
    },
    failures: [
      { mode: 'token_expired', arm: () => sim().fail('token_expired'), expect: { kind: 'auth_expired', reason: 'token_expired' } },
      { mode: 'token_revoked', arm: () => sim().fail('token_revoked'), expect: { kind: 'auth_expired', reason: 'app_removed' } },
      { mode: 'real:access_token_expired', arm: () => sim().expireAccessTokens(accountId), expect: { kind: 'auth_expired', reason: 'token_expired' } },
      { mode: 'rate_limited', arm: () => sim().fail('rate_limited'), expect: { kind: 'rate_limited', retryAfterMs: 120_000 } },
      { mode: 'server_error', arm: () => sim().fail('server_error'), expect: { kind: 'transient' } },
      { mode: 'checkpoint', arm: () => sim().fail('checkpoint'), expect: { kind: 'checkpoint' } },
      { mode: 'publish_limit', arm: () => sim().fail('publish_limit'), expect: { kind: 'restricted', reason: 'publish_limit' } },
      { mode: 'spam_restricted', arm: () => sim().fail('spam_restricted'), expect: { kind: 'restricted', reason: 'spam_restricted' } },
      { mode: 'policy_block', arm: () => sim().fail('policy_block'), expect: { kind: 'restricted', reason: 'spam_restricted' } },
      { mode: 'permission_denied', arm: () => sim().fail('permission_denied'), expect: { kind: 'rejected', code: 'permission_denied' } },
      { mode: 'container_error', kind: 'video', arm: () => sim().fail('container_error'), expect: { kind: 'invalid_content', code: 'unsupported_video_format' } },
    ],
  }, (get) => { sim = get; });
})();

// ---------------------------------------------------------------------------------------------
// Threads

const threads = (() => {
  const REDIRECT = 'https://herald.example/oauth/threads/callback';
  let sim: () => ThreadsSimulator;
  let accountId = '';
  let adapter: PlatformAdapter;
  return harness<ThreadsSimulator>({
    name: 'threads',
    async start() {
      const s = await startThreadsSimulator({ processingMs: PROCESSING_MS });
      const app = s.createApp({ redirectUris: [REDIRECT] });
      accountId = s.createAccount({ username: 'contract_threads', name: 'Contract Threads' }).id;
      adapter = createThreadsPlatform({
        clientId: app.clientId, clientSecret: app.clientSecret, apiBase: s.apiBase, apiVersion: s.apiVersion,
        authorizeUrl: s.authorizeUrl, timeoutMs: TIMEOUT_MS, pollIntervalMs: POLL_MS,
      });
      return { sim: s, adapter };
    },
    connect: () => oauthConnect(adapter, REDIRECT, { account_id: accountId, decision: 'allow' }),
    refresh: { model: 'while_valid', expireAccessToken: () => sim().expireAccessTokens(accountId) },
    publishable: {
      text: () => post(adapter, 'text', 'Contract thread', []),
      photo: (m) => post(adapter, 'photo', 'Contract photo', [m.images[0]!]),
      video: (m) => post(adapter, 'video', 'Contract video', [m.landscapeVideo]),
    },
    networkHas: async (o) => sim().posts(accountId).some((p) => p.id === o.postId),
    publishedCount: () => sim().posts().length,
    firstComment: { check: async (o, text) => sim().replies(o.postId).some((p) => p.text === text) },
    library: {},
    lookups: { records: { publishing_limit: { posts: expect.objectContaining({ total: 250, usage: 0 }), replies: expect.objectContaining({ total: 1000, usage: 0 }) } } },
    comments: {
      seed: (o, text, parentId) => sim().seedComment({ postId: o.postId, text, authorName: 'a_threads_fan', ...(parentId ? { parentId } : {}) }).id,
      state: (id) => {
        const reply = sim().posts().find((p) => p.id === id);
        return reply && { text: reply.text ?? '', ...sim().replyState(id) };
      },
    },
    analytics: threadsAnalyticsHarness(() => sim(), () => accountId),
    failures: [
      { mode: 'token_expired', arm: () => sim().fail('token_expired'), expect: { kind: 'auth_expired', reason: 'token_expired' } },
      { mode: 'token_revoked', arm: () => sim().fail('token_revoked'), expect: { kind: 'auth_expired', reason: 'app_removed' } },
      { mode: 'real:access_token_expired', arm: () => sim().expireAccessTokens(accountId), expect: { kind: 'auth_expired' } },
      { mode: 'rate_limited', arm: () => sim().fail('rate_limited'), expect: { kind: 'rate_limited', retryAfterMs: 180_000 } },
      { mode: 'server_error', arm: () => sim().fail('server_error'), expect: { kind: 'transient' } },
      { mode: 'checkpoint', arm: () => sim().fail('checkpoint'), expect: { kind: 'checkpoint' } },
      { mode: 'publish_limit', arm: () => sim().fail('publish_limit'), expect: { kind: 'rate_limited', retryAfterMs: 3_600_000 } },
      { mode: 'permission_denied', arm: () => sim().fail('permission_denied'), expect: { kind: 'rejected', code: 'permission_denied' } },
      { mode: 'container_error', kind: 'video', arm: () => sim().fail('container_error'), expect: { kind: 'invalid_content', code: 'failed_processing_video' } },
    ],
  }, (get) => { sim = get; });
})();

// ---------------------------------------------------------------------------------------------
// Facebook

const facebook = (() => {
  const REDIRECT = 'https://herald.example/oauth/facebook/callback';
  let sim: () => FacebookSimulator;
  let accountId = '';
  let adapter: PlatformAdapter;
  /**
   * The simulator stores the feed post of a video when /videos is called, and keeps it when the
   * video then fails processing: such a post is not counted as published.
   */
  const failedVideoPosts = () => new Set(sim().videos().filter((v) => v.failProcessing && v.postId).map((v) => v.postId));
  const feedPosts = () => sim().posts().filter((p) => !failedVideoPosts().has(p.id));
  return harness<FacebookSimulator>({
    name: 'facebook',
    async start() {
      const s = await startFacebookSimulator({ processingMs: PROCESSING_MS });
      accountId = s.createAccount({ name: 'Contract Cafe', pages: ['Contract Cafe Page'] }).id;
      adapter = createFacebookPlatform({
        apiBase: s.baseUrl, videoApiBase: s.baseUrl, authBase: s.baseUrl, clientId: s.app.id, clientSecret: s.app.secret,
        timeoutMs: TIMEOUT_MS, pollIntervalMs: POLL_MS,
      });
      return { sim: s, adapter };
    },
    connect: () => oauthConnect(adapter, REDIRECT, { account_id: accountId, decision: 'approve' }),
    refresh: { model: 'after_expiry', expireAccessToken: () => sim().expireAccessTokens(accountId), expiredCredentialsStillPublish: true },
    publishable: {
      text: () => post(adapter, 'text', 'Contract status', []),
      photo: (m) => post(adapter, 'photo', 'Contract photo', [m.images[0]!]),
      video: (m) => post(adapter, 'video', 'Contract film', [m.video]),
    },
    networkHas: async (o) => feedPosts().some((p) => p.id === o.postId)
      || sim().photos().some((p) => p.published && (p.id === o.postId || p.postId === o.postId))
      || sim().videos().some((v) => v.published && !v.failProcessing && (v.id === o.postId || v.postId === o.postId)),
    publishedCount: () => feedPosts().length,
    postOperations: { operations: ['edit', 'unpublish'], textOf: (id) => sim().posts().find((p) => p.id === id)?.message },
    analytics: facebookAnalyticsHarness(() => sim(), () => accountId),
    firstComment: { check: async (o, text) => sim().comments(o.postId).some((c) => c.message === text) },
    library: {},
    lookups: { lists: { pages: { names: ['Contract Cafe Page'] } } },
    comments: {
      seed: (o, text, parentId) => sim().seedComment({ postId: o.postId, text, authorName: 'A Fan', ...(parentId ? { parentId } : {}) }).id,
      state: (id) => {
        const c = sim().comments().find((x) => x.id === id);
        return c && { text: c.message, hidden: c.hidden ?? false, liked: (c.likes ?? 0) > 0 };
      },
      revoke: () => sim().revokeTokens(accountId),
    },
    failures: [
      { mode: 'token_expired', arm: () => sim().fail('token_expired'), expect: { kind: 'auth_expired', reason: 'token_expired' } },
      { mode: 'token_revoked', arm: () => sim().fail('token_revoked'), expect: { kind: 'auth_expired', reason: 'password_changed' } },
      { mode: 'real:tokens_revoked', arm: () => sim().revokeTokens(accountId), expect: { kind: 'auth_expired', reason: 'app_deauthorized' } },
      { mode: 'rate_limited', arm: () => sim().fail('rate_limited'), expect: { kind: 'rate_limited', retryAfterMs: 120_000 } },
      { mode: 'app_rate_limited', arm: () => sim().fail('app_rate_limited'), expect: { kind: 'rate_limited', retryAfterMs: 60_000 } },
      { mode: 'server_error', arm: () => sim().fail('server_error'), expect: { kind: 'transient' } },
      { mode: 'bad_gateway', arm: () => sim().fail('bad_gateway'), expect: { kind: 'transient' } },
      { mode: 'checkpoint', arm: () => sim().fail('checkpoint'), expect: { kind: 'checkpoint' } },
      { mode: 'posting_too_fast', arm: () => sim().fail('posting_too_fast'), expect: { kind: 'restricted', reason: 'rate_limited' } },
      { mode: 'identity_confirmation', arm: () => sim().fail('identity_confirmation'), expect: { kind: 'restricted', reason: 'identity_confirmation' } },
      { mode: 'duplicate_post', arm: () => sim().fail('duplicate_post'), expect: { kind: 'rejected', code: 'duplicate_post' } },
      { mode: 'permission_denied', arm: () => sim().fail('permission_denied'), expect: { kind: 'rejected', code: 'permission' } },
      { mode: 'video_processing_error', kind: 'video', arm: () => sim().fail('video_processing_error'), expect: { kind: 'invalid_content' } },
    ],
  }, (get) => { sim = get; });
})();

// ---------------------------------------------------------------------------------------------
// YouTube

const youtube = (() => {
  const REDIRECT = 'https://herald.example/oauth/youtube/callback';
  let sim: () => YoutubeSimulator;
  let channelId = '';
  let adapter: PlatformAdapter;
  return harness<YoutubeSimulator>({
    name: 'youtube',
    async start() {
      const s = await startYoutubeSimulator({ processingMs: PROCESSING_MS });
      const client = s.createClient({ redirectUris: [REDIRECT] });
      channelId = s.createAccount({ title: 'Contract Channel', handle: '@contract' }).id;
      adapter = createYoutubePlatform({
        clientId: client.clientId, clientSecret: client.clientSecret, apiBase: s.apiBase, analyticsApiBase: s.apiBase, authBase: s.authBase, tokenUrl: s.tokenUrl,
        chunkSizeBytes: 256 * 1024, pollIntervalMs: POLL_MS, timeoutMs: TIMEOUT_MS,
      });
      return { sim: s, adapter };
    },
    connect: () => oauthConnect(adapter, REDIRECT, { channel_id: channelId, decision: 'approve' }),
    refresh: { model: 'after_expiry', expireAccessToken: () => sim().expireAccessTokens(channelId) },
    publishable: {
      video: (m) => post(adapter, 'video', 'Contract release notes', [m.video]),
    },
    networkHas: async (o) => sim().videos(channelId).some((v) => v.id === o.postId && v.outcome === 'processed'),
    publishedCount: () => sim().videos().filter((v) => v.outcome === 'processed').length,
    postOperations: {
      operations: ['edit', 'unpublish'],
      textOf: (id) => {
        const video = sim().videos(channelId).find((v) => v.id === id);
        return video ? String((video.resource.snippet as { description?: unknown } | undefined)?.description ?? '') : undefined;
      },
    },
    analytics: youtubeAnalyticsHarness(() => sim(), () => channelId),
    firstComment: { check: async (o, text) => sim().comments(o.postId).some((c) => c.text === text) },
    library: {},
    comments: {
      seed: (o, text, parentId) => sim().seedComment({ postId: o.postId, text, authorName: '@a_viewer', ...(parentId ? { parentId } : {}) }).id,
      state: (id) => {
        const c = sim().comments().find((x) => x.id === id);
        return c && { text: c.text, hidden: c.moderationStatus === 'rejected', moderation: c.moderationStatus };
      },
    },
    failures: [
      { mode: 'token_expired', arm: () => sim().fail('token_expired'), expect: { kind: 'auth_expired' } },
      { mode: 'token_revoked', arm: () => sim().fail('token_revoked'), expect: { kind: 'auth_expired' } },
      { mode: 'real:access_token_expired', arm: () => sim().expireAccessTokens(channelId), expect: { kind: 'auth_expired' } },
      { mode: 'rate_limited', arm: () => sim().fail('rate_limited'), expect: { kind: 'rate_limited', retryAfterMs: 30_000 } },
      { mode: 'quota_exceeded', arm: () => sim().fail('quota_exceeded'), expect: { kind: 'rate_limited' } },
      { mode: 'server_error', arm: () => sim().fail('server_error'), expect: { kind: 'transient' } },
      { mode: 'service_unavailable', arm: () => sim().fail('service_unavailable'), expect: { kind: 'transient' } },
      { mode: 'upload_limit_exceeded', arm: () => sim().fail('upload_limit_exceeded'), expect: { kind: 'restricted', reason: 'daily_upload_limit' } },
      { mode: 'forbidden', arm: () => sim().fail('forbidden'), expect: { kind: 'restricted', reason: 'permission_denied' } },
      { mode: 'invalid_title', arm: () => sim().fail('invalid_title'), expect: { kind: 'invalid_content', code: 'invalid_title' } },
      { mode: 'processing_failed', arm: () => sim().fail('processing_failed'), expect: { kind: 'invalid_content', code: 'video_processing_failed' } },
      { mode: 'processing_rejected', arm: () => sim().fail('processing_rejected'), expect: { kind: 'rejected', code: 'video_rejected' } },
    ],
  }, (get) => { sim = get; });
})();

// ---------------------------------------------------------------------------------------------
// LinkedIn

const linkedin = (() => {
  const REDIRECT = 'https://herald.example/connect/linkedin/callback';
  let sim: () => LinkedInSimulator;
  let sub = '';
  let urn = '';
  let pageId = '';
  let adapter: PlatformAdapter;
  /** A connection with page access (the harness's own connect asks member scopes only). */
  const pageConnect = async (): Promise<VerifiedConnection> => {
    const t = sim().issueTokens(sub, { scope: ['openid', 'profile', 'w_member_social', 'w_organization_social', 'r_organization_admin', 'r_organization_social', 'rw_organization_admin'] });
    return {
      identity: { platformUserId: sub, handle: 'Contract Member', displayName: 'Contract Member', avatarUrl: '' },
      credentials: { access_token: t.accessToken, expires_at: t.expiresAt.toISOString(), member_urn: urn, pages: JSON.stringify([{ id: pageId, role: 'ADMINISTRATOR' }]) },
    };
  };
  const thisMonth = () => `${new Date().getUTCFullYear()}${String(new Date().getUTCMonth() + 1).padStart(2, '0')}`;
  /** A text post as the organization page (comments and statistics are the page's). */
  const pagePost = async (credentials: PlatformCredentials) => {
    const { drivePublish } = await import('../../support/platform-harness');
    const { noMedia } = await import('../../support/media-access');
    return (await drivePublish(adapter, { credentials, idempotencyKey: `li-org-${++serial}`, media: noMedia },
      post(adapter, 'text', 'Contract page update', [], { target_linkedin_page_id: pageId }), { maxWaitMs: 20 })).outcome;
  };
  return harness<LinkedInSimulator>({
    name: 'linkedin',
    async start() {
      const s = await startLinkedInSimulator({ processingMs: PROCESSING_MS, uploadPartBytes: 64 * 1024 });
      const client = s.registerClient({ redirectUris: [REDIRECT] });
      const member = s.createAccount({ name: 'Contract Member', pages: [{ name: 'Contract Page' }] });
      ({ sub, urn } = member);
      pageId = member.pages[0]!.id;
      ({ sub, urn } = s.createAccount({ name: 'Contract Member', pages: [{ name: 'Contract Page' }] }));
      pageId = s.accounts().find((a) => a.sub === sub)!.pages[0]!.id;
      adapter = createLinkedInPlatform({
        clientId: client.clientId, clientSecret: client.clientSecret, apiBase: s.apiBase, authBase: s.authBase,
        version: thisMonth(), timeoutMs: TIMEOUT_MS, videoPollMs: POLL_MS,
        // Comments are read and moderated on organization posts: the connection asks for page access.
        organizationPages: true,
      });
      return { sim: s, adapter };
    },
    connect: () => oauthConnect(adapter, REDIRECT, { account: sub, decision: 'allow' }),
    refresh: { model: 'after_expiry', expireAccessToken: () => sim().expireAccessTokens(sub) },
    publishable: {
      text: () => post(adapter, 'text', 'Contract update', []),
      photo: (m) => post(adapter, 'photo', 'Contract photo', [m.images[0]!]),
      video: (m) => post(adapter, 'video', 'Contract video', [m.video]),
    },
    networkHas: async (o) => sim().posts().some((p) => p.id === o.postId && p.author === urn),
    publishedCount: () => sim().posts().length,
    postOperations: { operations: ['edit', 'unpublish'], textOf: (id) => sim().posts().find((p) => p.id === id)?.text },
    firstComment: { check: async (o, text) => sim().comments(o.postId).some((c) => c.text === text) },
    library: { connect: () => pageConnect(), post: () => post(adapter, 'text', 'Contract page update', [], { target_linkedin_page_id: pageId }) },
    lookups: { connect: () => pageConnect(), lists: { pages: { names: ['Contract Page'] } } },
    analytics: linkedinAnalyticsHarness(() => sim(), () => pageId, (credentials) => pagePost(credentials)),
    comments: {
      publish: (credentials) => pagePost(credentials),
      seed: (o, text) => sim().seedComment({ postId: o.postId, text }).urn,
      state: (id) => { const c = sim().comments().find((x) => x.urn === id || x.id === id); return c && { text: c.text }; },
    },
    failures: [
      { mode: 'expired_token', arm: () => sim().fail('expired_token'), expect: { kind: 'auth_expired', reason: 'token_expired' } },
      { mode: 'revoked_token', arm: () => sim().fail('revoked_token'), expect: { kind: 'auth_expired', reason: 'token_revoked' } },
      { mode: 'real:access_token_expired', arm: () => sim().expireAccessTokens(sub), expect: { kind: 'auth_expired', reason: 'token_expired' } },
      { mode: 'rate_limited', arm: () => sim().fail('rate_limited'), expect: { kind: 'rate_limited', retryAfterMs: 120_000 } },
      { mode: 'server_error', arm: () => sim().fail('server_error'), expect: { kind: 'transient' } },
      { mode: 'gateway_timeout', arm: () => sim().fail('gateway_timeout'), expect: { kind: 'transient' } },
      { mode: 'upload_failed', kind: 'photo', arm: () => sim().fail('upload_failed'), expect: { kind: 'transient' } },
      { mode: 'version_retired', arm: () => sim().fail('version_retired'), expect: { kind: 'rejected', code: 'linkedin_version_inactive' } },
      { mode: 'access_denied', arm: () => sim().fail('access_denied'), expect: { kind: 'rejected', code: 'permission_denied' } },
      { mode: 'duplicate_post', arm: () => sim().fail('duplicate_post'), expect: { kind: 'invalid_content', code: 'duplicate_post' } },
      { mode: 'content_rejected', arm: () => sim().fail('content_rejected'), expect: { kind: 'invalid_content' } },
      { mode: 'video_processing_failed', kind: 'video', arm: () => sim().fail('video_processing_failed'), expect: { kind: 'invalid_content' } },
    ],
  }, (get) => { sim = get; });
})();

// ---------------------------------------------------------------------------------------------
// X

const x = (() => {
  const REDIRECT = 'https://herald.example/oauth/x/callback';
  let sim: () => XSimulator;
  let accountId = '';
  let adapter: PlatformAdapter;
  return harness<XSimulator>({
    name: 'x',
    async start() {
      const s = await startXSimulator({ processingMs: PROCESSING_MS });
      const client = s.createClient({ name: 'Herald', redirectUris: [REDIRECT] });
      accountId = s.createAccount({ username: 'contract_x', name: 'Contract X', premium: true }).id;
      adapter = createXPlatform({ apiBase: s.origin, authBase: s.origin, clientId: client.clientId, clientSecret: client.clientSecret!, timeoutMs: TIMEOUT_MS });
      return { sim: s, adapter };
    },
    connect: () => oauthConnect(adapter, REDIRECT, { account_id: accountId, decision: 'allow' }),
    refresh: { model: 'after_expiry', expireAccessToken: () => sim().expireAccessTokens(accountId) },
    publishable: {
      text: () => post(adapter, 'text', 'Contract post', []),
      photo: (m) => post(adapter, 'photo', 'Contract photo', [m.images[0]!]),
      video: (m) => post(adapter, 'video', 'Contract video', [m.landscapeVideo]),
    },
    networkHas: async (o) => sim().tweets(accountId).some((t) => t.id === o.postId),
    publishedCount: () => sim().tweets().length,
    postOperations: { operations: ['edit', 'unpublish'], textOf: (id) => sim().tweets().find((t) => t.id === id)?.text },
    firstComment: {
      async check(o, text) {
        const thread = Array.isArray(o.extra?.post_ids) ? (o.extra!.post_ids as string[]) : [o.postId];
        return sim().tweets(accountId).some((t) => t.text === text && thread.includes(t.in_reply_to_tweet_id ?? ''));
      },
    },
    library: {},
    comments: {
      seed: (o, text, parentId) => sim().seedComment({ postId: o.postId, text, authorName: 'a_follower', ...(parentId ? { parentId } : {}) }).id,
      state: (id) => { const t = sim().tweets().find((x) => x.id === id); return t && { text: t.text }; },
      pageSize: 5,
      ownCommentsUnlisted: true,
    },
    analytics: xAnalyticsHarness(() => sim(), () => accountId),
    failures: [
      { mode: 'expired_token', arm: () => sim().fail('expired_token'), expect: { kind: 'auth_expired' } },
      { mode: 'revoked_token', arm: () => sim().fail('revoked_token'), expect: { kind: 'auth_expired' } },
      { mode: 'real:access_token_expired', arm: () => sim().expireAccessTokens(accountId), expect: { kind: 'auth_expired' } },
      { mode: 'rate_limited', arm: () => sim().fail('rate_limited'), expect: { kind: 'rate_limited' } },
      { mode: 'daily_limit', arm: () => sim().fail('daily_limit'), expect: { kind: 'rate_limited' } },
      { mode: 'usage_capped', arm: () => sim().fail('usage_capped'), expect: { kind: 'rate_limited' } },
      { mode: 'server_error', arm: () => sim().fail('server_error'), expect: { kind: 'transient' } },
      { mode: 'service_unavailable', arm: () => sim().fail('service_unavailable'), expect: { kind: 'transient' } },
      { mode: 'duplicate_content', arm: () => sim().fail('duplicate_content'), expect: { kind: 'rejected', code: 'duplicate_content' } },
      { mode: 'forbidden', arm: () => sim().fail('forbidden'), expect: { kind: 'rejected' } },
      { mode: 'invalid_request', arm: () => sim().fail('invalid_request'), expect: { kind: 'invalid_content' } },
      { mode: 'media_processing_failed', kind: 'video', arm: () => sim().fail('media_processing_failed'), expect: { kind: 'invalid_content', code: 'media_processing_failed' } },
    ],
  }, (get) => { sim = get; });
})();

// ---------------------------------------------------------------------------------------------
// Pinterest

const pinterest = (() => {
  const REDIRECT = 'https://herald.test/oauth/pinterest/callback';
  let sim: () => PinterestSimulator;
  let accountId = '';
  let boardId = '';
  let adapter: PlatformAdapter;
  // Pinterest videos last at least 4 s; the shared fixtures' video lasts 3 s.
  let tmp = '';
  let video: MediaRef;
  let file = '';
  return harness<PinterestSimulator>({
    name: 'pinterest',
    async start() {
      tmp = mkdtempSync(path.join(os.tmpdir(), 'herald-contract-pinterest-'));
      file = path.join(tmp, 'four-and-a-half-seconds.mp4');
      execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=320x568:rate=15:duration=4.5', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', file]);
      const info = await createFfprobe({ pathOf: () => file }).probe('pinterest-video');
      video = { id: 'pinterest-video', kind: 'video', contentType: 'video/mp4', size: statSync(file).size, filename: 'four-and-a-half-seconds.mp4', info };
      const s = await startPinterestSimulator({ processingMs: PROCESSING_MS });
      const app = s.createApp({ name: 'Herald', redirectUris: [REDIRECT] });
      accountId = s.createAccount({ username: 'contract_pins', businessName: 'Contract Pins' }).id;
      boardId = s.createBoard(accountId, { name: 'Contract board' }).id;
      adapter = createPinterestPlatform({ clientId: app.clientId, clientSecret: app.clientSecret, apiBase: s.apiBase, authBase: s.origin, timeoutMs: TIMEOUT_MS });
      return { sim: s, adapter };
    },
    cleanup: () => { if (tmp) rmSync(tmp, { recursive: true, force: true }); },
    media: (m): MediaAccess => ({
      read: (id, range) => (id === video.id ? createReadStream(file, range ? { start: range.start, end: range.end - 1 } : {}) : m.access.read(id, range)),
      publicUrl: (id) => m.access.publicUrl(id),
      rendition: m.access.rendition,
    }),
    connect: () => oauthConnect(adapter, REDIRECT, { account_id: accountId, decision: 'allow' }),
    refresh: { model: 'after_expiry', expireAccessToken: () => sim().expireAccessTokens(accountId) },
    publishable: {
      photo: (m) => post(adapter, 'photo', 'Contract pin', [m.images[0]!], { pinterest_board_id: boardId }),
      video: () => post(adapter, 'video', 'Contract video pin', [video], { pinterest_board_id: boardId }),
    },
    networkHas: async (o) => sim().pins(accountId).some((p) => String(p.pin.id) === o.postId),
    publishedCount: () => sim().pins().length,
    library: {},
    lookups: { lists: { boards: { names: ['Contract board'] } } },
    postOperations: { operations: ['unpublish'], textOf: (id) => { const p = sim().pins(accountId).find((x) => String(x.pin.id) === id); return p ? String(p.pin.title) : undefined; } },
    analytics: pinterestAnalyticsHarness(() => sim(), () => accountId),
    failures: [
      { mode: 'expired_token', arm: () => sim().fail('expired_token'), expect: { kind: 'auth_expired', reason: 'token_invalid' } },
      { mode: 'revoked_token', arm: () => sim().fail('revoked_token'), expect: { kind: 'auth_expired', reason: 'token_invalid' } },
      { mode: 'real:access_token_expired', arm: () => sim().expireAccessTokens(accountId), expect: { kind: 'auth_expired' } },
      { mode: 'missing_scope', arm: () => sim().fail('missing_scope'), expect: { kind: 'auth_expired', reason: 'scope_missing' } },
      { mode: 'rate_limited', arm: () => sim().fail('rate_limited'), expect: { kind: 'rate_limited', retryAfterMs: 7000 } },
      { mode: 'server_error', arm: () => sim().fail('server_error'), expect: { kind: 'transient' } },
      { mode: 'bad_gateway', arm: () => sim().fail('bad_gateway'), expect: { kind: 'transient' } },
      { mode: 'forbidden', arm: () => sim().fail('forbidden'), expect: { kind: 'rejected', code: 'forbidden' } },
      { mode: 'board_not_found', arm: () => sim().fail('board_not_found'), expect: { kind: 'invalid_content', code: 'board_not_found' } },
      { mode: 'image_too_small', arm: () => sim().fail('image_too_small'), expect: { kind: 'invalid_content', code: 'image_too_small' } },
      { mode: 'image_broken', arm: () => sim().fail('image_broken'), expect: { kind: 'invalid_content', code: 'image_broken' } },
      { mode: 'invalid_parameters', arm: () => sim().fail('invalid_parameters'), expect: { kind: 'invalid_content', code: 'invalid_parameters' } },
      { mode: 'media_processing_failed', kind: 'video', arm: () => sim().fail('media_processing_failed'), expect: { kind: 'invalid_content' } },
    ],
  }, (get) => { sim = get; });
})();

// ---------------------------------------------------------------------------------------------
// Bluesky

const bluesky = (() => {
  let sim: () => BlueskySimulator;
  let account: { did: string; handle: string; appPassword: string };
  let adapter: PlatformAdapter;
  return harness<BlueskySimulator>({
    name: 'bluesky',
    async start() {
      const s = await startBlueskySimulator({ processingMs: PROCESSING_MS });
      account = s.createAccount({ handle: 'contract.test', displayName: 'Contract' });
      adapter = createBlueskyPlatform({ apiBase: s.serviceUrl, videoBase: s.videoBaseUrl, timeoutMs: TIMEOUT_MS, videoPollMs: POLL_MS });
      return { sim: s, adapter };
    },
    connect: () => adapter.credentials!.verify({ identifier: account.handle, app_password: account.appPassword }),
    refresh: { model: 'after_expiry', expireAccessToken: () => sim().expireAccessTokens(account.did) },
    publishable: {
      text: () => post(adapter, 'text', 'Contract skeet', []),
      photo: (m) => post(adapter, 'photo', 'Contract photo', [m.images[0]!]),
      video: (m) => post(adapter, 'video', 'Contract video', [m.video]),
    },
    networkHas: async (o) => sim().posts(account.did).some((r) => r.uri === o.postId),
    publishedCount: () => sim().posts().length,
    postOperations: { operations: ['unpublish'], textOf: (id) => { const r = sim().posts(account.did).find((x) => x.uri === id); return r ? String((r.value as { text?: unknown }).text ?? '') : undefined; } },
    firstComment: {
      check: async (o, text) => sim().comments(account.did)
        .some((r) => r.value.text === text && (r.value.reply as { root?: { uri?: string } } | undefined)?.root?.uri === o.postId),
    },
    library: {},
    comments: {
      seed: (o, text, parentId) => sim().seedComment({ postId: o.postId, text, authorName: 'a-reader.bsky.social', ...(parentId ? { parentId } : {}) }).uri,
      state: (id) => { const r = sim().records().find((x) => x.uri === id); return r && { text: String(r.value.text) }; },
    },
    analytics: blueskyAnalyticsHarness(() => sim(), () => account.did),
    failures: [
      { mode: 'expired_token', arm: () => sim().fail('expired_token'), expect: { kind: 'auth_expired', reason: 'token_expired' } },
      { mode: 'invalid_token', arm: () => sim().fail('invalid_token'), expect: { kind: 'auth_expired', reason: 'token_invalid' } },
      { mode: 'auth_required', arm: () => sim().fail('auth_required'), expect: { kind: 'auth_expired', reason: 'authentication_required' } },
      { mode: 'real:access_token_expired', arm: () => sim().expireAccessTokens(account.did), expect: { kind: 'auth_expired', reason: 'token_expired' } },
      { mode: 'rate_limited', arm: () => sim().fail('rate_limited'), expect: { kind: 'rate_limited' } },
      { mode: 'server_error', arm: () => sim().fail('server_error'), expect: { kind: 'transient' } },
      { mode: 'upstream_failure', arm: () => sim().fail('upstream_failure'), expect: { kind: 'transient' } },
      { mode: 'invalid_request', arm: () => sim().fail('invalid_request'), expect: { kind: 'invalid_content' } },
      { mode: 'blob_too_large', kind: 'photo', arm: () => sim().fail('blob_too_large'), expect: { kind: 'invalid_content', code: 'media_too_large' } },
      { mode: 'unconfirmed_email', kind: 'video', arm: () => sim().fail('unconfirmed_email'), expect: { kind: 'invalid_content', code: 'unconfirmed_email' } },
      { mode: 'video_daily_limit', kind: 'video', arm: () => sim().fail('video_daily_limit'), expect: { kind: 'rate_limited', retryAfterMs: 3_600_000 } },
      { mode: 'video_processing_failed', kind: 'video', arm: () => sim().fail('video_processing_failed'), expect: { kind: 'invalid_content', code: 'video_rejected' } },
    ],
  }, (get) => { sim = get; });
})();

// ---------------------------------------------------------------------------------------------
// Discord

const discord = (() => {
  let sim: () => DiscordSimulator;
  let hook: { id: string; token: string; url: string };
  let adapter: PlatformAdapter;
  return harness<DiscordSimulator>({
    name: 'discord',
    async start() {
      const s = await startDiscordSimulator();
      hook = s.createWebhook({ name: 'Contract announcements', channelId: '1200000000000000001', guildId: '1100000000000000001' });
      adapter = createDiscordPlatform({ apiBase: s.baseUrl, timeoutMs: TIMEOUT_MS });
      return { sim: s, adapter };
    },
    connect: () => adapter.credentials!.verify({ webhook_url: hook.url }),
    publishable: {
      text: () => post(adapter, 'text', 'Contract announcement', []),
      photo: (m) => post(adapter, 'photo', 'Contract photos', m.images.slice(0, 2)),
      video: (m) => post(adapter, 'video', 'Contract clip', [m.video]),
    },
    networkHas: async (o) => sim().messages(hook.id).some((m) => m.id === o.postId),
    publishedCount: () => sim().messages().length,
    postOperations: { operations: ['edit', 'unpublish'], textOf: (id) => sim().messages(hook.id).find((m) => m.id === id)?.content },
    failures: [
      { mode: 'unknown_webhook', arm: () => sim().fail('unknown_webhook'), expect: { kind: 'auth_expired', reason: 'webhook_deleted' } },
      { mode: 'rate_limited', arm: () => sim().fail('rate_limited'), expect: { kind: 'rate_limited', retryAfterMs: 1500 } },
      { mode: 'server_error', arm: () => sim().fail('server_error'), expect: { kind: 'transient' } },
      { mode: 'bad_gateway', arm: () => sim().fail('bad_gateway'), expect: { kind: 'transient' } },
    ],
  }, (get) => { sim = get; });
})();

// ---------------------------------------------------------------------------------------------
// Telegram

const telegram = (() => {
  let sim: () => TelegramSimulator;
  let bot: { id: number; token: string };
  let chat: { id: number; username?: string };
  let adapter: PlatformAdapter;
  return harness<TelegramSimulator>({
    name: 'telegram',
    async start() {
      const s = await startTelegramSimulator();
      bot = s.createBot({ username: 'herald_contract_bot', firstName: 'Herald Contract' });
      chat = s.createChat({ type: 'channel', title: 'Contract News', username: 'herald_contract_news' });
      s.setMember(chat.id, bot.id, 'administrator', { can_post_messages: true });
      adapter = createTelegramPlatform({ apiBase: s.baseUrl, timeoutMs: TIMEOUT_MS });
      return { sim: s, adapter };
    },
    connect: () => adapter.credentials!.verify({ bot_token: bot.token, chat_id: `@${chat.username}` }),
    publishable: {
      text: () => post(adapter, 'text', 'Contract news', []),
      photo: (m) => post(adapter, 'photo', 'Contract album', m.images.slice(0, 3)),
      video: (m) => post(adapter, 'video', 'Contract clip', [m.video]),
    },
    networkHas: async (o) => sim().messages(chat.id).some((m) => String(m.message_id) === o.postId),
    publishedCount: () => sim().messages().length,
    postOperations: { operations: ['edit', 'unpublish'], textOf: (id) => { const m = sim().messages(chat.id).find((x) => String(x.message_id) === id); return m ? m.text ?? m.caption ?? '' : undefined; } },
    failures: [
      { mode: 'revoked', arm: () => sim().fail('revoked'), expect: { kind: 'auth_expired', reason: 'token_revoked' } },
      { mode: 'rate_limited', arm: () => sim().fail('rate_limited'), expect: { kind: 'rate_limited', retryAfterMs: 2000 } },
      { mode: 'server_error', arm: () => sim().fail('server_error'), expect: { kind: 'transient' } },
      { mode: 'bad_gateway', arm: () => sim().fail('bad_gateway'), expect: { kind: 'transient' } },
    ],
  }, (get) => { sim = get; });
})();

// ---------------------------------------------------------------------------------------------

const HARNESSES: PlatformHarness[] = [tiktok, instagram, threads, facebook, youtube, linkedin, x, pinterest, bluesky, discord, telegram];

for (const h of HARNESSES) platformContract(h, fixtures);
