import { PlatformError } from '../../../core/domain/errors';
import { postFirstComment } from '../../support/first-comment';
import { resolveSettings } from '../../../core/domain/settings';
import type { MediaRef, PlatformAdapter, PlatformCredentials, PublishContext, PublishPost } from '../../../core/ports/platform';
import { createInstagramPlatform, instagramDescriptor, INSTAGRAM_SCOPES } from '../../../adapters/platforms/instagram';
import { startInstagramSimulator, type InstagramAccountFixture, type InstagramSimulator } from '../../../ops/simulators/instagram';
import { drivePublish, mediaFixtures, type MediaFixtures , FIXTURE_TIMEOUT_MS } from '../../support/platform-harness';

let sim: InstagramSimulator;
let media: MediaFixtures;
let app: { clientId: string; clientSecret: string };
let ig: PlatformAdapter;
const REDIRECT = 'https://herald.example/oauth/instagram/callback';

const adapterFor = (extra: Partial<Parameters<typeof createInstagramPlatform>[0]> = {}) => createInstagramPlatform({
  clientId: app.clientId, clientSecret: app.clientSecret, apiBase: sim.apiBase, apiVersion: sim.apiVersion,
  authorizeUrl: sim.authorizeUrl, tokenUrl: sim.tokenUrl, timeoutMs: 5000, pollIntervalMs: 20, ...extra,
});

beforeAll(async () => {
  [media, sim] = await Promise.all([mediaFixtures(), startInstagramSimulator({ processingMs: 30 })]);
  app = sim.createApp();
  ig = adapterFor();
}, FIXTURE_TIMEOUT_MS);
afterAll(async () => { await Promise.all([sim.close(), media.close()]); });
beforeEach(() => sim.reset());

let accountCount = 0;
function account(extra: Partial<Parameters<InstagramSimulator['createAccount']>[0]> = {}): InstagramAccountFixture {
  accountCount += 1;
  return sim.createAccount({ username: `herald_ig_${accountCount}`, name: `Herald IG ${accountCount}`, ...extra });
}
function credentialsOf(a: InstagramAccountFixture): PlatformCredentials {
  const { accessToken, expiresAt } = sim.issueToken(a.id, { clientId: app.clientId });
  return { access_token: accessToken, expires_at: expiresAt.toISOString(), ig_user_id: a.id, scopes: INSTAGRAM_SCOPES.join(',') };
}
const ctxOf = (credentials: PlatformCredentials, access = media.access): PublishContext => ({ credentials, idempotencyKey: 'idem-ig', media: access });
const photoPost = (files: MediaRef[], settings: Record<string, unknown> = {}, title = 'Hello from Herald #launch'): PublishPost =>
  ({ kind: 'photo', title, media: files, settings });
const videoPost = (settings: Record<string, unknown> = {}, title = 'A reel'): PublishPost =>
  ({ kind: 'video', title, media: [media.video], settings: { share_mode: 'CUSTOM', share_to_feed: true, is_ai_generated: false, ...settings } });
const publish = (ctx: PublishContext, post: PublishPost, adapter = ig) => drivePublish(adapter, ctx, post, { maxWaitMs: 100 });

const containerBodies = () => sim.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/media')).map((r) => r.body as Record<string, string>);
const paths = () => sim.requests.map((r) => `${r.method} ${r.path.replace(/\d{10,}/g, ':id')}`);

async function rejection(p: Promise<unknown>): Promise<PlatformError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof PlatformError) return err;
    throw err;
  }
  throw new Error('expected a rejection');
}

describe('descriptor and settings', () => {
  it('declares an OAuth network for video and photos with the spec limits', () => {
    expect(instagramDescriptor).toMatchObject({
      id: 'instagram', connect: 'oauth', endpoints: ['video', 'photo'],
      limits: {
        textMaxChars: 2200,
        video: { maxBytes: 300 * 1024 * 1024, maxSeconds: 90 },
        // The spec's JPG/PNG: PNG is published as a JPEG rendition (the publishing API takes JPEG only).
        photo: { maxBytes: 8 * 1024 * 1024, maxCount: 10, contentTypes: ['image/jpeg', 'image/png'], minAspectRatio: 0.8, maxAspectRatio: 1.91 },
      },
    });
  });

  const resolve = (fields: Record<string, unknown>, endpoint: 'video' | 'photo', mediaCount = 1) =>
    resolveSettings('instagram', instagramDescriptor.settings, fields, { endpoint, mediaCount });

  it('applies the video defaults and leaves media_type to the endpoint', () => {
    expect(resolve({}, 'video')).toMatchObject({ values: { share_mode: 'CUSTOM', share_to_feed: true, is_ai_generated: false }, violations: [] });
    expect(resolve({}, 'video').values.media_type).toBeUndefined();
    expect(resolve({}, 'photo').values).toEqual({ is_ai_generated: false });
  });

  it('converts types and splits lists', () => {
    const { values, violations } = resolve({
      collaborators: 'alice, bob', share_to_feed: 'false', thumb_offset: '1500', is_ai_generated: 'yes', cover_url: 'https://cdn.example/c.jpg',
    }, 'video');
    expect(violations).toEqual([]);
    expect(values).toMatchObject({ collaborators: ['alice', 'bob'], share_to_feed: false, thumb_offset: 1500, is_ai_generated: true, cover_url: 'https://cdn.example/c.jpg' });
    expect(resolve({ instagram_alt_text: 'A red wall, at dusk||Second' }, 'photo', 2).values.instagram_alt_text).toEqual(['A red wall, at dusk', 'Second']);
  });

  it.each([
    [{ media_type: 'IMAGE' }, 'video', 1, 'media_type'],
    [{ media_type: 'REELS' }, 'photo', 1, 'media_type'],
    [{ media_type: 'CAROUSEL' }, 'photo', 2, 'media_type'],
    [{ media_type: 'STORIES' }, 'photo', 2, 'media_type'],
    [{ share_mode: 'TRIAL' }, 'video', 1, 'share_mode'],
    [{ share_mode: 'TRIAL_REELS_DONT_SHARE_TO_FOLLOWERS', collaborators: 'alice' }, 'video', 1, 'share_mode'],
    [{ collaborators: 'a,b,c,d' }, 'photo', 1, 'collaborators'],
    [{ thumb_offset: '-5' }, 'video', 1, 'thumb_offset'],
    [{ cover_url: 'not a url' }, 'video', 1, 'cover_url'],
    [{ user_tags: 'alice,bob' }, 'photo', 1, 'user_tags'],
    [{ user_tags: '[{"username":"alice","x":1.5,"y":0.2}]' }, 'photo', 1, 'user_tags'],
    [{ instagram_alt_text: 'x'.repeat(1001) }, 'photo', 1, 'instagram_alt_text'],
    [{ instagram_alt_text: 'a||b||c' }, 'photo', 2, 'instagram_alt_text'],
  ] as const)('%j on %s (%i files) is a violation of %s', (fields, endpoint, count, field) => {
    const { violations } = resolve(fields, endpoint, count);
    expect(violations.map((v) => v.field)).toContain(field);
  });

  it('ignores fields of another endpoint with a warning', () => {
    const { warnings, values } = resolve({ instagram_alt_text: 'alt', share_mode: 'CUSTOM' }, 'video');
    expect(warnings).toEqual(['instagram_alt_text is not used by instagram on this endpoint and was ignored.']);
    expect(values.instagram_alt_text).toBeUndefined();
    expect(resolve({ audio_name: 'x' }, 'photo').warnings).toHaveLength(1);
  });
});

describe('connect', () => {
  it('builds the authorize URL with client id, scopes, redirect and state (no PKCE)', () => {
    expect(ig.oauth!.pkce).toBe(false);
    const url = new URL(ig.oauth!.authorizeUrl({ state: 'st-1', redirectUri: REDIRECT }));
    expect(`${url.origin}${url.pathname}`).toBe(sim.authorizeUrl);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: app.clientId, redirect_uri: REDIRECT, response_type: 'code', state: 'st-1',
      scope: 'instagram_business_basic,instagram_business_content_publish,instagram_business_manage_comments,instagram_business_manage_messages,instagram_business_manage_insights',
    });
    const real = createInstagramPlatform({ clientId: 'c', clientSecret: 's' }).oauth!.authorizeUrl({ state: 's', redirectUri: REDIRECT });
    expect(real.startsWith('https://www.instagram.com/oauth/authorize?')).toBe(true);
  });

  it('approve page → code → short-lived token → long-lived token → identity', async () => {
    const a = account({ name: 'Herald Studio', profilePictureUrl: 'https://cdn.example/avatar.jpg' });
    const authorize = ig.oauth!.authorizeUrl({ state: 'xyz', redirectUri: REDIRECT });
    const page = await fetch(authorize);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`@${a.username}`);

    const approve = await fetch(`${sim.origin}/oauth/authorize`, {
      method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: app.clientId, redirect_uri: REDIRECT, scope: INSTAGRAM_SCOPES.join(','), state: 'xyz', account_id: a.id, decision: 'allow' }),
    });
    expect(approve.status).toBe(302);
    const location = approve.headers.get('location')!;
    expect(location.endsWith('#_')).toBe(true);
    const back = new URL(location);
    expect(back.searchParams.get('state')).toBe('xyz');
    sim.reset();

    const verified = await ig.oauth!.exchangeCode({ code: `${back.searchParams.get('code')}#_`, redirectUri: REDIRECT });
    expect(verified.identity).toEqual({ platformUserId: a.id, handle: a.username, displayName: 'Herald Studio', avatarUrl: 'https://cdn.example/avatar.jpg' });
    const { credentials } = verified;
    expect(credentials.ig_user_id).toBe(a.id);
    expect(credentials.scopes).toBe(INSTAGRAM_SCOPES.join(','));
    expect(sim.tokenInfo(credentials.access_token!)).toMatchObject({ accountId: a.id, kind: 'long', revoked: false });
    const days = (Date.parse(credentials.expires_at!) - Date.now()) / 86400_000;
    expect(days).toBeGreaterThan(59);
    expect(days).toBeLessThanOrEqual(60);

    expect(paths()).toEqual(['POST /oauth/access_token', 'GET /access_token', 'GET /v21.0/me']);
    const [tokenReq, exchangeReq, meReq] = sim.requests;
    expect(tokenReq!.body).toEqual({ client_id: app.clientId, client_secret: app.clientSecret, grant_type: 'authorization_code', redirect_uri: REDIRECT, code: back.searchParams.get('code') });
    expect(exchangeReq!.query).toMatchObject({ grant_type: 'ig_exchange_token', client_secret: app.clientSecret });
    expect(meReq!.query).toEqual({ fields: 'user_id,username,name,profile_picture_url' });
    expect(meReq!.headers.authorization).toBe(`Bearer ${credentials.access_token}`);
  });

  it('sends a denied consent back with error=access_denied', async () => {
    const a = account();
    const res = await fetch(`${sim.origin}/oauth/authorize`, {
      method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: app.clientId, redirect_uri: REDIRECT, scope: 'instagram_business_basic', state: 's', account_id: a.id, decision: 'deny' }),
    });
    const back = new URL(res.headers.get('location')!);
    expect(Object.fromEntries(back.searchParams)).toMatchObject({ error: 'access_denied', state: 's' });
  });

  it('refuses a code used twice or sent with another redirect_uri', async () => {
    const a = account();
    const code = sim.issueAuthCode(a.id, { clientId: app.clientId, redirectUri: REDIRECT });
    await expect(ig.oauth!.exchangeCode({ code, redirectUri: 'https://elsewhere.example/cb' }))
      .rejects.toMatchObject({ failure: { kind: 'rejected', code: 'oauth_rejected' }, upstream: { status: 400 } });
    await ig.oauth!.exchangeCode({ code, redirectUri: REDIRECT });
    await expect(ig.oauth!.exchangeCode({ code, redirectUri: REDIRECT })).rejects.toMatchObject({ failure: { kind: 'rejected', code: 'oauth_rejected' } });
  });

  it('refresh renews the long-lived token; the old one stops working', async () => {
    const a = account();
    const old = credentialsOf(a);
    const renewed = await ig.refresher!.refresh({ ...old, expires_at: new Date(Date.now() + 86400_000).toISOString() });
    expect(renewed.access_token).not.toBe(old.access_token);
    expect(renewed).toMatchObject({ ig_user_id: a.id, scopes: old.scopes });
    expect(Date.parse(renewed.expires_at!)).toBeGreaterThan(Date.now() + 59 * 86400_000);
    expect(sim.requests.at(-1)).toMatchObject({ path: '/refresh_access_token', query: { grant_type: 'ig_refresh_token', access_token: old.access_token } });
    expect(sim.tokenInfo(old.access_token!)!.revoked).toBe(true);
    await expect(ig.refresher!.refresh(old)).rejects.toMatchObject({ failure: { kind: 'auth_expired' } });
    await publish(ctxOf(renewed), photoPost([media.images[0]!]));
  });

  it.each([
    ['expireAccessTokens', 'token_expired'],
    ['revokeTokens', 'app_removed'],
  ] as const)('refresh after %s is auth_expired (%s)', async (how, reason) => {
    const a = account();
    const creds = credentialsOf(a);
    sim[how](a.id);
    await expect(ig.refresher!.refresh(creds)).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason } });
  });
});

describe('publish', () => {
  it('a photo: container with every photo setting, status polls, media_publish, permalink', async () => {
    const a = account();
    const tags = [{ username: 'alice', x: 0.25, y: 0.5 }, { username: 'no_coords' }];
    const { outcome, steps } = await publish(ctxOf(credentialsOf(a)), photoPost([media.images[0]!], {
      collaborators: ['bob', '@carol'], user_tags: JSON.stringify(tags), location_id: '110843418940484',
      is_ai_generated: true, instagram_alt_text: ['A blue wall'],
    }));
    expect(steps).toBeGreaterThan(1);
    const [body] = containerBodies();
    expect(body).toEqual({
      image_url: media.access.publicUrl(media.images[0]!.id), caption: 'Hello from Herald #launch', alt_text: 'A blue wall',
      is_ai_generated: 'true', collaborators: '["bob","carol"]', location_id: '110843418940484',
      user_tags: JSON.stringify([{ username: 'alice', x: 0.25, y: 0.5 }]),
    });
    const [post] = sim.posts(a.id);
    expect(post).toMatchObject({ media_type: 'IMAGE', media_product_type: 'FEED', caption: 'Hello from Herald #launch' });
    expect(outcome).toEqual({ postId: post!.id, url: post!.permalink, warnings: [] });
    expect(outcome.url).toMatch(/^https:\/\/www\.instagram\.com\/p\/[\w-]{11}\/$/);
    const calls = paths();
    expect(calls[0]).toBe('GET /v21.0/:id/content_publishing_limit');
    expect(calls[1]).toBe('POST /v21.0/:id/media');
    expect(calls.slice(-2)).toEqual(['POST /v21.0/:id/media_publish', 'GET /v21.0/:id']);
    expect(sim.requests.at(-2)!.body).toEqual({ creation_id: sim.containers()[0]!.id });
    expect(sim.requests.at(-1)!.query).toEqual({ fields: 'permalink' });
    expect(sim.requests.every((r) => r.headers.authorization?.startsWith('Bearer IGAA') && r.query.access_token === undefined)).toBe(true);
  });

  it('a mixed carousel: children first, then the parent with caption, collaborators and the AI label', async () => {
    const a = account();
    const files = [media.images[0]!, media.video, media.images[1]!];
    const { outcome } = await publish(ctxOf(credentialsOf(a)), photoPost(files, {
      user_tags: '[{"username":"alice","x":0.1,"y":0.9}]', instagram_alt_text: ['first', 'for the video', 'third'],
      collaborators: ['bob'], is_ai_generated: true, location_id: 'Paris',
    }));
    const bodies = containerBodies();
    expect(bodies).toHaveLength(4);
    expect(bodies[0]).toEqual({ is_carousel_item: 'true', image_url: media.access.publicUrl(files[0]!.id), alt_text: 'first', user_tags: '[{"username":"alice","x":0.1,"y":0.9}]' });
    expect(bodies[1]).toEqual({ is_carousel_item: 'true', video_url: media.access.publicUrl(files[1]!.id), media_type: 'VIDEO' });
    expect(bodies[2]).toMatchObject({ is_carousel_item: 'true', alt_text: 'third' });
    const childIds = sim.containers().filter((c) => c.isCarouselItem).map((c) => c.id);
    expect(bodies[3]).toEqual({ media_type: 'CAROUSEL', caption: 'Hello from Herald #launch', is_ai_generated: 'true', collaborators: '["bob"]', children: childIds.join(',') });
    const [post] = sim.posts(a.id);
    expect(post!.media_type).toBe('CAROUSEL_ALBUM');
    expect(post!.children.map((c) => c.mediaType)).toEqual(['IMAGE', 'VIDEO', 'IMAGE']);
    expect(outcome.warnings).toEqual([
      'location_id was ignored: "Paris" is not a numeric location id.',
      'instagram_alt_text item 2 was ignored: Instagram takes alt text for feed images only.',
    ]);
  });

  it('a reel with every video setting', async () => {
    const a = account();
    const { outcome } = await publish(ctxOf(credentialsOf(a)), videoPost({
      share_to_feed: false, cover_url: media.access.publicUrl(media.images[2]!.id), audio_name: 'Herald theme', thumb_offset: 1500,
      user_tags: 'alice, @bob', location_id: '7640348500', collaborators: ['carol'],
    }));
    expect(containerBodies()).toEqual([{
      video_url: media.access.publicUrl(media.video.id), media_type: 'REELS', caption: 'A reel', share_to_feed: 'false',
      cover_url: media.access.publicUrl(media.images[2]!.id), audio_name: 'Herald theme', thumb_offset: '1500',
      user_tags: '[{"username":"alice"},{"username":"bob"}]', location_id: '7640348500', collaborators: '["carol"]',
    }]);
    const [post] = sim.posts(a.id);
    expect(post).toMatchObject({ media_type: 'VIDEO', media_product_type: 'REELS' });
    expect(outcome.url).toMatch(/^https:\/\/www\.instagram\.com\/reel\//);
    expect(sim.containers()[0]!.fetched).toMatchObject({ durationSeconds: 3 });
  });

  it('a cover_image file becomes the cover URL; cover_url wins when both are sent', async () => {
    const a = account();
    const cover = media.images[3]!;
    await publish(ctxOf(credentialsOf(a)), videoPost({ cover_image: cover }));
    expect(containerBodies()[0]!.cover_url).toBe(media.access.publicUrl(cover.id));
    const { outcome } = await publish(ctxOf(credentialsOf(a)), videoPost({ cover_image: cover, cover_url: media.access.publicUrl(media.images[4]!.id) }));
    expect(containerBodies()[1]!.cover_url).toBe(media.access.publicUrl(media.images[4]!.id));
    expect(outcome.warnings).toEqual(['cover_image was ignored: cover_url wins when both are sent.']);
  });

  it.each([
    ['TRIAL_REELS_SHARE_TO_FOLLOWERS_IF_LIKED', 'SS_PERFORMANCE'],
    ['TRIAL_REELS_DONT_SHARE_TO_FOLLOWERS', 'MANUAL'],
  ])('share_mode %s is a trial reel with graduation %s', async (shareMode, strategy) => {
    const a = account();
    await publish(ctxOf(credentialsOf(a)), videoPost({ share_mode: shareMode }));
    const [body] = containerBodies();
    expect(body!.trial_params).toBe(JSON.stringify({ graduation_strategy: strategy }));
    expect(body!.share_to_feed).toBeUndefined();
  });

  it('a video story: no caption, ignored feed-only settings named in warnings', async () => {
    const a = account();
    const { outcome } = await publish(ctxOf(credentialsOf(a)), videoPost({ media_type: 'STORIES', collaborators: ['bob'], location_id: '123', audio_name: 'x', user_tags: 'alice' }));
    expect(containerBodies()).toEqual([{ media_type: 'STORIES', video_url: media.access.publicUrl(media.video.id), user_tags: '[{"username":"alice"}]' }]);
    expect(outcome.warnings).toEqual([
      'Instagram stories have no caption; the title was not sent.',
      'audio_name was ignored: it applies to reels only.',
      'collaborators was ignored: Instagram stories take no collaborators.',
      'location_id was ignored: Instagram stories take no location.',
    ]);
    expect(sim.posts(a.id)[0]).toMatchObject({ media_product_type: 'STORY' });
  });

  it('a photo story', async () => {
    const a = account();
    await publish(ctxOf(credentialsOf(a)), photoPost([media.images[0]!], { media_type: 'STORIES' }, ''));
    expect(containerBodies()).toEqual([{ media_type: 'STORIES', image_url: media.access.publicUrl(media.images[0]!.id) }]);
    expect(sim.posts(a.id)[0]!.permalink).toMatch(new RegExp(`/stories/${a.username}/`));
  });

  it('waits while containers process, with the configured interval, and resumes from JSON state', async () => {
    const a = account();
    const step = await ig.publisher!.publish(ctxOf(credentialsOf(a)), videoPost());
    expect(step).toMatchObject({ kind: 'wait', afterMs: 20, state: { phase: 'container', mediaType: 'REELS' } });
    const slow = adapterFor({ pollIntervalMs: undefined });
    const first = await slow.publisher!.publish(ctxOf(credentialsOf(a)), videoPost());
    expect(first).toMatchObject({ kind: 'wait', afterMs: 30_000 });
  });
});

describe('first comment', () => {
  it('comments under the published media', async () => {
    const a = account();
    const ctx = ctxOf(credentialsOf(a));
    const { outcome } = await publish(ctx, photoPost([media.images[0]!]));
    const { commentId, warnings } = await postFirstComment(ig, ctx, { post: outcome, text: 'First! #herald' });
    expect(warnings).toBeUndefined();
    expect(sim.comments(outcome.postId)).toEqual([expect.objectContaining({ id: commentId, text: 'First! #herald' })]);
    expect(sim.requests.at(-1)).toMatchObject({ method: 'POST', path: `/v21.0/${outcome.postId}/comments`, body: { message: 'First! #herald' } });
  });

  it('skips stories and unknown post ids with a warning', async () => {
    const a = account();
    const ctx = ctxOf(credentialsOf(a));
    const { outcome } = await publish(ctx, videoPost({ media_type: 'STORIES' }));
    await expect(postFirstComment(ig, ctx, { post: outcome, text: 'hi' }))
      .resolves.toEqual({ commentId: '', warnings: ['The first comment was skipped: Instagram stories take no comments.'] });
    sim.reset();
    await expect(postFirstComment(ig, ctx, { post: { postId: '', warnings: [] }, text: 'hi' }))
      .resolves.toMatchObject({ commentId: '', warnings: [expect.stringMatching(/not known yet/)] });
    expect(sim.requests).toHaveLength(0);
    expect(sim.comments()).toHaveLength(0);
  });
});

describe('failures', () => {
  it.each([
    ['token_expired', { kind: 'auth_expired', reason: 'token_expired' }],
    ['token_revoked', { kind: 'auth_expired', reason: 'app_removed' }],
    ['rate_limited', { kind: 'rate_limited', retryAfterMs: 120_000 }],
    ['server_error', { kind: 'transient' }],
    ['permission_denied', { kind: 'rejected', code: 'permission_denied' }],
    ['checkpoint', { kind: 'checkpoint' }],
  ] as const)('%s on the first call → %j, nothing created', async (mode, failure) => {
    const a = account();
    sim.fail(mode);
    await expect(publish(ctxOf(credentialsOf(a)), photoPost([media.images[0]!]))).rejects.toMatchObject({ failure });
    expect(sim.containers()).toHaveLength(0);
  });

  it('real token expiry and revocation are auth_expired too', async () => {
    const a = account();
    const creds = credentialsOf(a);
    sim.expireAccessTokens(a.id);
    await expect(publish(ctxOf(creds), photoPost([media.images[0]!]))).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'token_expired' } });
  });

  it('the injected clock dates token expiries and pauses', async () => {
    const at = new Date('2031-03-01T12:00:00Z');
    const clocked = adapterFor({ now: () => at });
    const a = account();
    const renewed = await clocked.refresher!.refresh(credentialsOf(a));
    expect(Date.parse(renewed.expires_at!) - at.getTime()).toBeGreaterThan(59 * 86400_000);
    expect(Date.parse(renewed.expires_at!) - at.getTime()).toBeLessThanOrEqual(61 * 86400_000);
    sim.fail('publish_limit');
    const err = await rejection(publish(ctxOf(renewed), photoPost([media.images[0]!]), clocked));
    expect((err.failure as { until: Date }).until).toEqual(new Date(at.getTime() + 30 * 60_000));
  });

  it('publish_limit at media_publish pauses the account 30 minutes', async () => {
    const a = account();
    sim.fail('publish_limit');
    const err = await rejection(publish(ctxOf(credentialsOf(a)), photoPost([media.images[0]!])));
    expect(err).toMatchObject({ failure: { kind: 'restricted', reason: 'publish_limit' }, upstream: { code: '9/2207042' } });
    const until = (err.failure as { until: Date }).until.getTime();
    expect(until - Date.now()).toBeGreaterThan(29 * 60_000);
    expect(until - Date.now()).toBeLessThanOrEqual(30 * 60_000);
    expect(sim.posts()).toHaveLength(0);
  });

  it.each(['spam_restricted', 'policy_block'] as const)('%s pauses a feed account 24 hours, but only rejects a story', async (mode) => {
    const a = account();
    sim.fail(mode);
    const err = await rejection(publish(ctxOf(credentialsOf(a)), photoPost([media.images[0]!])));
    expect(err.failure).toMatchObject({ kind: 'restricted', reason: 'spam_restricted' });
    expect((err.failure as { until: Date }).until.getTime() - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    sim.fail(mode);
    await expect(publish(ctxOf(credentialsOf(a)), videoPost({ media_type: 'STORIES' })))
      .rejects.toMatchObject({ failure: { kind: 'rejected', code: 'spam_restricted' } });
    expect(sim.posts()).toHaveLength(0);
  });

  it('a used-up publishing quota pauses the account before any container is created', async () => {
    const a = account();
    sim.usePublishingQuota(a.id, 100);
    await expect(publish(ctxOf(credentialsOf(a)), photoPost([media.images[0]!])))
      .rejects.toMatchObject({ failure: { kind: 'restricted', reason: 'publish_limit' } });
    expect(paths()).toEqual(['GET /v21.0/:id/content_publishing_limit']);
  });

  it('a container that ends in ERROR is invalid_content with the subcode meaning', async () => {
    const a = account();
    sim.fail('container_error');
    await expect(publish(ctxOf(credentialsOf(a)), videoPost()))
      .rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'unsupported_video_format' }, upstream: { code: 2207026 } });
    expect(sim.requests.some((r) => r.path.endsWith('/media_publish'))).toBe(false);
  });

  it('media that Meta cannot fetch fails the container', async () => {
    const a = account();
    const broken = { ...media.access, publicUrl: (id: string) => `${media.publicBase}/missing/${id}` };
    await expect(publish(ctxOf(credentialsOf(a), broken), photoPost([media.images[0]!])))
      .rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'media_fetch_failed' } });
    await expect(publish(ctxOf(credentialsOf(a), broken), videoPost()))
      .rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'media_fetch_failed' } });
  });

  it('a timeout is transient with an unknown outcome', async () => {
    const a = account();
    sim.setLatency(300);
    const err = await rejection(publish(ctxOf(credentialsOf(a)), photoPost([media.images[0]!]), adapterFor({ timeoutMs: 100 })));
    expect(err.failure).toEqual({ kind: 'transient' });
    expect(err.message).toMatch(/100 ms.*outcome is unknown/);
  });

  it('error messages never contain the token', async () => {
    const a = account();
    const creds = credentialsOf(a);
    for (const mode of ['token_expired', 'rate_limited', 'server_error', 'checkpoint'] as const) {
      sim.fail(mode);
      const err = await rejection(publish(ctxOf(creds), photoPost([media.images[0]!])));
      expect(err.message).not.toContain(creds.access_token);
    }
  });
});

describe('PNG photos (the spec takes JPG and PNG; Instagram publishes JPEG only)', () => {
  const jpegUrl = async (m: MediaRef) => media.access.publicUrl((await media.access.rendition(m.id, 'image/jpeg')).id);

  it('a PNG photo is published as its JPEG rendition, which the simulator fetches and accepts', async () => {
    const a = account();
    const { outcome } = await publish(ctxOf(credentialsOf(a)), photoPost([media.png], { instagram_alt_text: ['A test card'] }));
    const [body] = containerBodies();
    expect(body).toEqual({ image_url: await jpegUrl(media.png), caption: 'Hello from Herald #launch', alt_text: 'A test card' });
    expect(body!.image_url).not.toBe(media.access.publicUrl(media.png.id));
    expect(sim.posts(a.id)).toEqual([expect.objectContaining({ id: outcome.postId, media_type: 'IMAGE' })]);
  });

  it('in a carousel, in a story and as a reel cover, PNG files go as JPEG and JPEG files as they are', async () => {
    const a = account();
    await publish(ctxOf(credentialsOf(a)), photoPost([media.png, media.images[0]!]));
    expect(containerBodies().slice(0, 2).map((b) => b.image_url)).toEqual([await jpegUrl(media.png), media.access.publicUrl(media.images[0]!.id)]);
    expect(sim.posts(a.id)).toEqual([expect.objectContaining({ media_type: 'CAROUSEL_ALBUM' })]);
    const b = account();
    await publish(ctxOf(credentialsOf(b)), photoPost([media.png], { media_type: 'STORIES' }));
    expect(containerBodies().at(-1)).toEqual({ media_type: 'STORIES', image_url: await jpegUrl(media.png) });
    expect(sim.posts(b.id)).toHaveLength(1);
    const c = account();
    await publish(ctxOf(credentialsOf(c)), videoPost({ cover_image: media.png }));
    expect(containerBodies().at(-1)!.cover_url).toBe(await jpegUrl(media.png));
    expect(sim.posts(c.id)).toHaveLength(1);
  });
});

describe('pre-send validation sends nothing', () => {
  const fake = (over: Partial<MediaRef>, info: Partial<NonNullable<MediaRef['info']>> = {}): MediaRef => ({
    ...media.images[0]!, ...over, info: { ...media.images[0]!.info!, ...info },
  });
  it.each([
    ['a GIF image', () => photoPost([fake({ contentType: 'image/gif' })]), 'unsupported_media_type'],
    ['an image over 8 MB', () => photoPost([fake({ size: 9 * 1024 * 1024 })]), 'media_too_large'],
    ['a 1:2 feed image', () => photoPost([fake({}, { width: 1000, height: 2000 })]), 'invalid_aspect_ratio'],
    ['a caption over 2200 characters', () => photoPost([media.images[0]!], {}, 'é'.repeat(2201)), 'text_too_long'],
    ['31 hashtags', () => photoPost([media.images[0]!], {}, Array.from({ length: 31 }, (_, i) => `#t${i}`).join(' ')), 'too_many_hashtags'],
    ['11 carousel items', () => photoPost(Array.from({ length: 11 }, () => media.images[0]!)), 'too_many_media'],
    ['a single video on the photo endpoint', () => photoPost([media.video]), 'media_invalid'],
    ['a 120 s reel', () => ({ ...videoPost(), media: [{ ...media.video, info: { ...media.video.info!, durationSeconds: 120 } }] }), 'invalid_duration'],
    ['a 2 s video', () => ({ ...videoPost(), media: [media.landscapeVideo] }), 'invalid_duration'],
    ['thumb_offset past the end', () => videoPost({ thumb_offset: 3000 }), 'invalid_thumb_offset'],
    ['a text post', () => ({ kind: 'text', title: 'hi', media: [], settings: {} }) as PublishPost, 'media_required'],
  ])('%s', async (_label, post, code) => {
    const a = account();
    await expect(ig.publisher!.publish(ctxOf(credentialsOf(a)), post())).rejects.toMatchObject({ failure: { kind: 'invalid_content', code } });
    expect(sim.requests).toHaveLength(0);
  });

  it('incomplete credentials are auth_expired without a call', async () => {
    await expect(ig.publisher!.publish(ctxOf({ access_token: 'x' }), photoPost([media.images[0]!])))
      .rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'credentials_missing' } });
    expect(sim.requests).toHaveLength(0);
  });
});

describe('simulator wire format', () => {
  it('answers Graph errors with type, code, subcode and fbtrace_id, and throttling headers', async () => {
    const a = account();
    const creds = credentialsOf(a);
    sim.fail('rate_limited');
    const res = await fetch(`${sim.apiBase}/v21.0/me?fields=username`, { headers: { authorization: `Bearer ${creds.access_token}` } });
    expect(res.status).toBe(400);
    const body = await res.json() as { error: Record<string, unknown> };
    expect(body.error).toMatchObject({ type: 'OAuthException', code: 4, fbtrace_id: expect.any(String) });
    expect(JSON.parse(res.headers.get('x-business-use-case-usage')!)).toEqual({ [a.id]: [expect.objectContaining({ estimated_time_to_regain_access: 2 })] });
  });

  it('refuses a non-JPEG image and an image tag without coordinates at container creation', async () => {
    const a = account();
    const auth = { authorization: `Bearer ${credentialsOf(a).access_token}`, 'content-type': 'application/x-www-form-urlencoded' };
    const png = await fetch(`${sim.apiBase}/v21.0/${a.id}/media`, { method: 'POST', headers: auth, body: new URLSearchParams({ image_url: media.access.publicUrl(media.png.id) }) });
    expect((await png.json() as { error: { error_subcode: number } }).error.error_subcode).toBe(2207005);
    const tag = await fetch(`${sim.apiBase}/v21.0/${a.id}/media`, {
      method: 'POST', headers: auth, body: new URLSearchParams({ image_url: media.access.publicUrl(media.images[0]!.id), user_tags: '[{"username":"x"}]' }),
    });
    expect((await tag.json() as { error: { code: number } }).error.code).toBe(100);
  });

  it('answers the code exchange with user_id as a bare number past 2^53', async () => {
    const a = account();
    const code = sim.issueAuthCode(a.id, { clientId: app.clientId, redirectUri: REDIRECT });
    const res = await fetch(sim.tokenUrl, {
      method: 'POST', body: new URLSearchParams({ client_id: app.clientId, client_secret: app.clientSecret, grant_type: 'authorization_code', redirect_uri: REDIRECT, code }),
    });
    expect(await res.text()).toMatch(new RegExp(`"user_id":${a.appScopedId},`));
  });
});

describe('checkpoint probe', () => {
  const probe = (credentials: PlatformCredentials) => ig.probe!.probe({ credentials });

  it('answers checkpoint while the account stays checkpointed, and resolves once the user completed it', async () => {
    const a = account();
    const other = account();
    const creds = credentialsOf(a);
    sim.checkpointAccount(a.id);
    for (let i = 0; i < 2; i += 1) {
      await expect(probe(creds)).rejects.toMatchObject({ platform: 'instagram', failure: { kind: 'checkpoint' }, upstream: { status: 400, code: '25/2207050' } });
    }
    await expect(publish(ctxOf(creds), photoPost([media.images[0]!]))).rejects.toMatchObject({ failure: { kind: 'checkpoint' } });
    await expect(probe(credentialsOf(other))).resolves.toBeUndefined();
    expect(sim.containers()).toHaveLength(0);

    sim.completeCheckpoint(a.id);
    const before = sim.requests.length;
    await expect(probe(creds)).resolves.toBeUndefined();
    // One cheap read as the account, the token in the header, never in the URL.
    const calls = sim.requests.slice(before);
    expect(calls.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v21.0/me']);
    expect(calls[0]!.query).toEqual({ fields: 'user_id' });
    expect(calls[0]!.headers.authorization).toBe(`Bearer ${creds.access_token}`);
    await publish(ctxOf(creds), photoPost([media.images[0]!]));
    expect(sim.posts(a.id)).toHaveLength(1);
  });

  it('the one-shot checkpoint failure still answers once only', async () => {
    const creds = credentialsOf(account());
    sim.fail('checkpoint');
    await expect(probe(creds)).rejects.toMatchObject({ failure: { kind: 'checkpoint' } });
    await expect(probe(creds)).resolves.toBeUndefined();
  });

  it('a dead token is auth_expired, not a checkpoint', async () => {
    const a = account();
    const creds = credentialsOf(a);
    sim.checkpointAccount(a.id);
    sim.revokeTokens(a.id);
    await expect(probe(creds)).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'app_removed' } });
  });

  it('is set and cleared over HTTP too (POST /__sim/checkpoint), and reset clears it', async () => {
    const a = account();
    const creds = credentialsOf(a);
    const control = (body: unknown) => fetch(`${sim.origin}/__sim/checkpoint`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await control({ account_id: a.id, checkpointed: true })).status).toBe(200);
    expect(sim.state()).toMatchObject({ checkpointed: [a.id] });
    await expect(probe(creds)).rejects.toMatchObject({ failure: { kind: 'checkpoint' } });
    expect((await control({ account_id: a.id, checkpointed: false })).status).toBe(200);
    await expect(probe(creds)).resolves.toBeUndefined();
    expect((await control({ account_id: 'nobody' })).status).toBe(400);
    sim.checkpointAccount(a.id);
    sim.reset();
    await expect(probe(creds)).resolves.toBeUndefined();
  });
});
