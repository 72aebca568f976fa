import { createHmac } from 'node:crypto';
import { postFirstComment } from '../../support/first-comment';
import { PlatformError } from '../../../core/domain/errors';
import type { MediaKind } from '../../../core/domain/platforms';
import { resolveSettings } from '../../../core/domain/settings';
import type { MediaAccess, MediaRef, PlatformAdapter, PlatformCredentials, PublishContext, PublishOutcome, PublishPost } from '../../../core/ports/platform';
import {
  createFacebookPlatform, facebookDescriptor, facebookPages, FACEBOOK_SCOPES, type FacebookPlatformOptions,
} from '../../../adapters/platforms/facebook';
import { startFacebookSimulator, FACEBOOK_SIM_REGAIN_MINUTES, type FacebookSimulator } from '../../../ops/simulators/facebook';
import { drivePublish, mediaFixtures, textPost, type MediaFixtures , FIXTURE_TIMEOUT_MS } from '../../support/platform-harness';
import { noMedia } from '../../support/media-access';

const REDIRECT = 'https://herald.example/oauth/facebook/callback';
let sim: FacebookSimulator;
let fx: MediaFixtures;
let fb: PlatformAdapter;

const adapter = (extra: Partial<FacebookPlatformOptions> = {}) => createFacebookPlatform({
  apiBase: sim.baseUrl, videoApiBase: sim.baseUrl, authBase: sim.baseUrl, clientId: sim.app.id, clientSecret: sim.app.secret,
  timeoutMs: 5000, pollIntervalMs: 20, ...extra,
});

beforeAll(async () => {
  [fx, sim] = await Promise.all([mediaFixtures(), startFacebookSimulator({ seed: 'facebook-contract', processingMs: 40 })]);
  fb = adapter();
}, FIXTURE_TIMEOUT_MS);
afterAll(async () => {
  await Promise.all([sim?.close(), fx?.close()]);
});
beforeEach(() => sim.reset());

interface Connected { accountId: string; pages: Array<{ id: string; name: string }>; credentials: PlatformCredentials }

/** A sandbox account connected through the adapter's real code exchange. */
async function connect(name: string, pageNames: string[] = [`${name} Page`], scopes?: string[]): Promise<Connected> {
  const account = sim.createAccount({ name, pages: pageNames });
  const code = sim.issueAuthCode(account.id, { redirectUri: REDIRECT, scopes });
  const { credentials } = await fb.oauth!.exchangeCode({ code, redirectUri: REDIRECT });
  sim.reset();
  return { accountId: account.id, pages: account.pages, credentials };
}

const ctxOf = (c: Connected, media: MediaAccess = fx.access): PublishContext => ({ credentials: c.credentials, idempotencyKey: 'idem-1', media });
const pageToken = (c: Connected, pageId = c.pages[0]!.id) =>
  (JSON.parse(c.credentials.pages!) as Array<{ id: string; token: string }>).find((p) => p.id === pageId)!.token;
const proof = (token: string) => createHmac('sha256', sim.app.secret).update(token).digest('hex');
const calls = () => sim.requests.map((r) => `${r.method} ${r.path}`);
const body = (i: number) => sim.requests[i]!.body as Record<string, string>;

async function publishDone(ctx: PublishContext, post: PublishPost, a = fb): Promise<PublishOutcome> {
  return (await drivePublish(a, ctx, post, { maxWaitMs: 30 })).outcome;
}
const photoPost = (media: MediaRef[], settings: Record<string, unknown> = {}, title = 'Spring menu', description?: string): PublishPost =>
  ({ kind: 'photo', title, ...(description ? { description } : {}), media, settings });
const videoPost = (media: MediaRef[], settings: Record<string, unknown> = {}, title = 'Launch film', description?: string): PublishPost =>
  ({ kind: 'video', title, ...(description ? { description } : {}), media, settings });

describe('descriptor and settings', () => {
  const resolve = (fields: Record<string, unknown>, endpoint: MediaKind, mediaCount = 1) =>
    resolveSettings('facebook', facebookDescriptor.settings, fields, { endpoint, mediaCount });

  it('declares an OAuth network on the three endpoints with the spec limits', () => {
    expect(fb.descriptor).toMatchObject({
      id: 'facebook', connect: 'oauth', endpoints: ['video', 'photo', 'text'],
      limits: { textMaxChars: 63_206, video: { maxSeconds: 240 * 60 }, photo: { maxBytes: 4 * 1024 * 1024 } },
    });
    expect(fb.oauth!.pkce).toBe(false);
  });

  it('applies defaults and converts photo fields (alt text lists, JSON targeting, booleans)', () => {
    const r = resolve({
      facebook_page_id: '123', facebook_alt_text: 'A red door, closed||A blue sky', facebook_targeting: '{"geo_locations":{"countries":["DE"]}}',
      facebook_no_story: 'yes', facebook_place_id: '110', video_state: 'DRAFT',
    }, 'photo', 2);
    expect(r.violations).toEqual([]);
    expect(r.values).toEqual({
      facebook_page_id: '123', facebook_media_type: 'POSTS', facebook_alt_text: ['A red door, closed', 'A blue sky'],
      facebook_targeting: { geo_locations: { countries: ['DE'] } }, facebook_no_story: true, facebook_secret: false, facebook_place_id: '110',
    });
    expect(r.warnings).toEqual(['video_state is not used by facebook on this endpoint and was ignored.']);
    expect(resolve({ facebook_alt_text: '["one","two"]' }, 'photo', 2).values.facebook_alt_text).toEqual(['one', 'two']);
  });

  it('defaults video fields and rejects values outside the allowed sets', () => {
    expect(resolve({}, 'video').values).toEqual({ facebook_media_type: 'POSTS', video_state: 'PUBLISHED' });
    expect(resolve({ video_state: 'LIVE', facebook_media_type: 'CAROUSEL' }, 'video').violations.map((v) => v.field))
      .toEqual(['facebook_media_type', 'video_state']);
    expect(resolve({ facebook_link: 'ftp://x' }, 'text').violations).toEqual([{ field: 'facebook_link', message: 'facebook_link must be an http(s) URL' }]);
  });

  it.each([
    ['a photo story with two photos', { facebook_media_type: 'STORIES' }, 'photo', 2, 'facebook_media_type'],
    ['REELS on the photo endpoint', { facebook_media_type: 'REELS' }, 'photo', 1, 'facebook_media_type'],
    ['facebook_secret with STORIES', { facebook_media_type: 'STORIES', facebook_secret: true }, 'photo', 1, 'facebook_secret'],
    ['a draft story', { facebook_media_type: 'STORIES', video_state: 'DRAFT' }, 'video', 1, 'video_state'],
    ['more alt texts than photos', { facebook_alt_text: ['a', 'b', 'c'] }, 'photo', 2, 'facebook_alt_text'],
    ['targeting that is not an object', { facebook_feed_targeting: '[1,2]' }, 'photo', 1, 'facebook_feed_targeting'],
  ] as const)('cross-field rules: %s is a violation', (_label, fields, endpoint, count, field) => {
    expect(resolve(fields, endpoint, count).violations).toEqual([expect.objectContaining({ field })]);
  });
});

describe('connect', () => {
  it('builds the login dialog URL with the client id, scopes, redirect and state', () => {
    const url = new URL(fb.oauth!.authorizeUrl({ state: 'st-1', redirectUri: REDIRECT }));
    expect(`${url.origin}${url.pathname}`).toBe(`${sim.baseUrl}/dialog/oauth`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: sim.app.id, redirect_uri: REDIRECT, state: 'st-1', response_type: 'code', scope: FACEBOOK_SCOPES.join(','),
    });
    expect(FACEBOOK_SCOPES).toEqual(['pages_show_list', 'pages_read_engagement', 'pages_manage_posts', 'pages_manage_engagement', 'publish_video', 'read_insights', 'pages_read_user_content']);
  });

  it('goes through the dialog, exchanges the code for a long-lived token and reads identity and pages', async () => {
    const account = sim.createAccount({ name: 'Ada Bakery', pages: ['Ada Bakery', 'Ada Catering'], pictureUrl: 'https://cdn.example/ada.jpg' });
    const page = await fetch(fb.oauth!.authorizeUrl({ state: 'st-2', redirectUri: REDIRECT }));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Ada Bakery');
    const form = new URLSearchParams({ client_id: sim.app.id, redirect_uri: REDIRECT, state: 'st-2', scope: FACEBOOK_SCOPES.join(','), account_id: account.id, decision: 'approve' });
    const approved = await fetch(`${sim.baseUrl}/dialog/oauth`, { method: 'POST', body: form, redirect: 'manual' });
    expect(approved.status).toBe(302);
    const back = new URL(approved.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('st-2');
    sim.reset();

    const { identity, credentials } = await fb.oauth!.exchangeCode({ code: back.searchParams.get('code')!, redirectUri: REDIRECT });
    expect(identity).toEqual({ platformUserId: account.id, handle: 'Ada Bakery', displayName: 'Ada Bakery', avatarUrl: 'https://cdn.example/ada.jpg' });
    expect(Object.keys(credentials).sort()).toEqual(['expires_at', 'pages', 'user_access_token', 'user_id']);
    expect(credentials.user_id).toBe(account.id);
    expect(Date.parse(credentials.expires_at!) - Date.now()).toBeGreaterThan(59 * 86400_000);
    expect(JSON.parse(credentials.pages!)).toEqual(account.pages.map((p) => ({ id: p.id, name: p.name, token: expect.stringMatching(/^EAA/) })));

    expect(calls()).toEqual(['GET /v21.0/oauth/access_token', 'GET /v21.0/oauth/access_token', 'GET /v21.0/me', 'GET /v21.0/me/accounts']);
    const [codeGrant, exchange, me, accounts] = sim.requests;
    expect(codeGrant!.query).toEqual({ client_id: sim.app.id, client_secret: sim.app.secret, redirect_uri: REDIRECT, code: back.searchParams.get('code') });
    expect(exchange!.query).toMatchObject({ grant_type: 'fb_exchange_token', client_id: sim.app.id, client_secret: sim.app.secret });
    expect(exchange!.query.fb_exchange_token).not.toBe(credentials.user_access_token);
    expect(me!.query).toEqual({ fields: 'id,name,picture', appsecret_proof: proof(credentials.user_access_token!) });
    expect(me!.headers.authorization).toBe(`Bearer ${credentials.user_access_token}`);
    expect(accounts!.query).toMatchObject({ fields: 'id,name,access_token', limit: '100' });
  });

  it('sends the user back with error=access_denied when the dialog is cancelled', async () => {
    const form = new URLSearchParams({ client_id: sim.app.id, redirect_uri: REDIRECT, state: 'st-3', decision: 'cancel' });
    const res = await fetch(`${sim.baseUrl}/dialog/oauth`, { method: 'POST', body: form, redirect: 'manual' });
    const back = new URL(res.headers.get('location')!);
    expect(Object.fromEntries(back.searchParams)).toMatchObject({ error: 'access_denied', error_reason: 'user_denied', state: 'st-3' });
  });

  it('refuses a used code or another redirect URI as auth_expired', async () => {
    const account = sim.createAccount({ name: 'Reuse', pages: ['Reuse Page'] });
    const code = sim.issueAuthCode(account.id, { redirectUri: REDIRECT });
    await fb.oauth!.exchangeCode({ code, redirectUri: REDIRECT });
    await expect(fb.oauth!.exchangeCode({ code, redirectUri: REDIRECT }))
      .rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'authorization_code_invalid' }, upstream: { code: '100/36009' } });
    const other = sim.issueAuthCode(account.id, { redirectUri: REDIRECT });
    await expect(fb.oauth!.exchangeCode({ code: other, redirectUri: 'https://elsewhere.example/cb' }))
      .rejects.toMatchObject({ failure: { kind: 'auth_expired' }, upstream: { code: '100/36008' } });
  });

  it('refuses a login without pages: personal profiles cannot be posted to', async () => {
    const account = sim.createAccount({ name: 'No Pages' });
    await expect(fb.oauth!.exchangeCode({ code: sim.issueAuthCode(account.id, { redirectUri: REDIRECT }), redirectUri: REDIRECT }))
      .rejects.toMatchObject({ failure: { kind: 'rejected', code: 'facebook_no_pages' } });
  });

  it('refresh re-exchanges the user token and re-reads the pages', async () => {
    const c = await connect('Refresher');
    const added = sim.addPage(c.accountId, 'Second Page');
    const renewed = await fb.refresher!.refresh(c.credentials);
    expect(renewed.user_access_token).not.toBe(c.credentials.user_access_token);
    expect(Date.parse(renewed.expires_at!)).toBeGreaterThan(Date.now() + 59 * 86400_000);
    expect(facebookPages(renewed)).toEqual([{ page_id: c.pages[0]!.id, page_name: 'Refresher Page' }, { page_id: added.id, page_name: 'Second Page' }]);
    expect(sim.requests[0]!.query).toMatchObject({ grant_type: 'fb_exchange_token', fb_exchange_token: c.credentials.user_access_token });
  });

  it('refresh keeps the non-expiring page tokens when only the user token expired', async () => {
    const c = await connect('Idle');
    sim.expireAccessTokens(c.accountId);
    const renewed = await fb.refresher!.refresh(c.credentials);
    expect(renewed.expires_at).toBeUndefined();
    expect(renewed.pages).toBe(c.credentials.pages);
    const outcome = await publishDone(ctxOf({ ...c, credentials: renewed }, noMedia), textPost('Still here after 60 days'));
    expect(outcome.postId).toMatch(new RegExp(`^${c.pages[0]!.id}_`));
  });

  it('refresh after the user removed the app is auth_expired', async () => {
    const c = await connect('Revoker');
    sim.revokeTokens(c.accountId);
    await expect(fb.refresher!.refresh(c.credentials)).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'app_deauthorized' } });
  });
});

describe('page choice', () => {
  it('several pages and none chosen: facebook_page_required naming the pages, nothing sent', async () => {
    const c = await connect('Multi', ['North Shop', 'South Shop']);
    const err = await fb.publisher!.publish(ctxOf(c, noMedia), textPost('hello')).catch((e: unknown) => e as PlatformError);
    expect(err).toMatchObject({ failure: { kind: 'rejected', code: 'facebook_page_required' } });
    expect((err as Error).message).toContain(`North Shop (${c.pages[0]!.id})`);
    expect((err as Error).message).toContain('South Shop');
    expect(facebookPages(c.credentials)).toEqual(c.pages.map((p) => ({ page_id: p.id, page_name: p.name })));
    // The failed target's result carries the spec's available_pages.
    expect((err as PlatformError).resultFields).toEqual({ available_pages: c.pages.map((p) => ({ page_id: p.id, page_name: p.name })) });
    expect(sim.requests).toHaveLength(0);
  });

  it('facebook_page_id picks the page and its token', async () => {
    const c = await connect('Picker', ['First', 'Second']);
    const second = c.pages[1]!.id;
    const outcome = await publishDone(ctxOf(c, noMedia), textPost('To the second page', { facebook_page_id: second }));
    expect(sim.posts(second)).toHaveLength(1);
    expect(sim.requests[0]).toMatchObject({ path: `/v21.0/${second}/feed`, headers: { authorization: `Bearer ${pageToken(c, second)}` } });
    expect(outcome.extra).toMatchObject({ page_id: second, page_name: 'Second' });
  });

  it('a page that is not connected is invalid_content, nothing sent', async () => {
    const c = await connect('Stranger');
    await expect(fb.publisher!.publish(ctxOf(c, noMedia), textPost('x', { facebook_page_id: '999' })))
      .rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'facebook_page_not_connected' } });
    expect(sim.requests).toHaveLength(0);
  });
});

describe('publish', () => {
  let single: Connected;
  beforeAll(async () => { single = await connect('Solo Cafe'); });
  const pageId = () => single.pages[0]!.id;

  it('text: /feed with message and link, then reads the permalink', async () => {
    const outcome = await publishDone(ctxOf(single, noMedia), textPost('Open late tonight', { facebook_link: 'https://cafe.example/hours' }));
    const [post] = sim.posts(pageId());
    expect(post).toMatchObject({ message: 'Open late tonight', link: 'https://cafe.example/hours', published: true, kind: 'status' });
    expect(outcome).toEqual({
      postId: post!.id, url: `https://www.facebook.com/${pageId()}/posts/${post!.id.split('_')[1]}`, warnings: [],
      extra: { page_id: pageId(), page_name: 'Solo Cafe Page' },
    });
    expect(calls()).toEqual([`POST /v21.0/${pageId()}/feed`, `GET /v21.0/${post!.id}`]);
    expect(body(0)).toEqual({ message: 'Open late tonight', link: 'https://cafe.example/hours', appsecret_proof: proof(pageToken(single)) });
    expect(sim.requests[0]!.headers.authorization).toBe(`Bearer ${pageToken(single)}`);
    expect(sim.requests[1]!.query.fields).toBe('permalink_url');
  });

  it('text: facebook_title overrides the title; over-long or empty text is refused before sending', async () => {
    await publishDone(ctxOf(single, noMedia), textPost('generic', { facebook_title: 'Facebook only' }));
    expect(sim.posts()[0]!.message).toBe('Facebook only');
    sim.reset();
    await expect(fb.publisher!.publish(ctxOf(single, noMedia), textPost('x'.repeat(63_207))))
      .rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'text_too_long' } });
    await expect(fb.publisher!.publish(ctxOf(single, noMedia), textPost('  ')))
      .rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'text_empty' } });
    expect(sim.requests).toHaveLength(0);
  });

  it('text: the same status twice in a row is a duplicate (506)', async () => {
    await publishDone(ctxOf(single, noMedia), textPost('Same words'));
    await expect(publishDone(ctxOf(single, noMedia), textPost('Same words')))
      .rejects.toMatchObject({ failure: { kind: 'rejected', code: 'duplicate_post' }, upstream: { code: 506 } });
  });

  it('one photo: /photos with url, caption and every photo setting; Facebook fetches the file', async () => {
    const outcome = await publishDone(ctxOf(single), photoPost([fx.images[0]!], {
      facebook_alt_text: ['Croissants on a tray'], facebook_place_id: '1100', facebook_targeting: { geo_locations: { countries: ['FR'] } },
      facebook_feed_targeting: { age_min: 21 },
    }, 'Spring menu', 'Now with pistachio'));
    expect(body(0)).toEqual({
      url: fx.access.publicUrl(fx.images[0]!.id), alt_text_custom: 'Croissants on a tray', place: '1100',
      targeting: '{"geo_locations":{"countries":["FR"]}}', feed_targeting: '{"age_min":21}', caption: 'Spring menu\n\nNow with pistachio',
      published: 'true', appsecret_proof: proof(pageToken(single)),
    });
    const [photo] = sim.photos();
    expect(photo).toMatchObject({ source: 'url', contentType: 'image/jpeg', size: fx.images[0]!.size, published: true, altText: 'Croissants on a tray' });
    expect(outcome).toMatchObject({ postId: photo!.postId, url: expect.stringContaining(`/${pageId()}/posts/`), extra: { photo_ids: [photo!.id] } });
  });

  it('several photos: unpublished uploads with their alt texts, then one /feed post carrying the caption', async () => {
    const media = fx.images.slice(0, 3);
    const outcome = await publishDone(ctxOf(single), photoPost(media, { facebook_alt_text: ['one', 'two'], facebook_no_story: true }, 'Three views'));
    expect(calls().slice(0, 4)).toEqual([...media.map(() => `POST /v21.0/${pageId()}/photos`), `POST /v21.0/${pageId()}/feed`]);
    media.forEach((m, i) => expect(body(i)).toEqual({
      url: fx.access.publicUrl(m.id), published: 'false', appsecret_proof: expect.any(String), ...(i < 2 ? { alt_text_custom: ['one', 'two'][i] } : {}),
    }));
    const ids = sim.photos().map((p) => p.id);
    expect(body(3)).toMatchObject({ message: 'Three views', 'attached_media[0]': `{"media_fbid":"${ids[0]}"}`, 'attached_media[2]': `{"media_fbid":"${ids[2]}"}` });
    expect(sim.posts()).toEqual([expect.objectContaining({ id: outcome.postId, attachedMedia: ids, message: 'Three views' })]);
    expect(sim.photos().every((p) => p.caption === undefined)).toBe(true);
    expect(outcome.warnings).toEqual(['facebook_no_story applies to single photos; it was ignored for a multi-photo post.']);
  });

  it('facebook_secret uploads an unpublished photo and the first comment is skipped', async () => {
    const outcome = await publishDone(ctxOf(single), photoPost([fx.png], { facebook_secret: true }));
    expect(body(0)).toMatchObject({ published: 'false' });
    expect(sim.posts()).toHaveLength(0);
    expect(outcome).toMatchObject({ postId: sim.photos()[0]!.id, extra: { published: false } });
    expect(outcome.url).toBeUndefined();
    const comment = await postFirstComment(fb, ctxOf(single), { post: outcome, text: 'hi' });
    expect(comment.warnings).toEqual([expect.stringContaining('unpublished')]);
    expect(sim.comments()).toHaveLength(0);
  });

  it('photo story: unpublished upload then /photo_stories; title and other fields ignored with warnings', async () => {
    const outcome = await publishDone(ctxOf(single), photoPost([fx.images[1]!], { facebook_media_type: 'STORIES', facebook_place_id: '7' }));
    expect(calls()).toEqual([`POST /v21.0/${pageId()}/photos`, `POST /v21.0/${pageId()}/photo_stories`]);
    expect(body(0)).toMatchObject({ published: 'false' });
    expect(body(0).caption).toBeUndefined();
    expect(body(1)).toMatchObject({ photo_id: sim.photos()[0]!.id });
    expect(outcome).toMatchObject({ postId: sim.stories()[0]!.postId, extra: { media_type: 'STORIES' } });
    expect(outcome.warnings).toEqual(['facebook_title and description are ignored for Facebook stories.', 'facebook_place_id is ignored for Facebook stories.']);
  });

  it.each([
    ['a video on the photo endpoint', () => [fx.video], 'unsupported_media'],
    ['a WebP image', () => [{ ...fx.images[0]!, contentType: 'image/webp' }], 'unsupported_media'],
    ['a photo over 4 MB', () => [{ ...fx.images[0]!, size: 5 * 1024 * 1024 }], 'media_too_large'],
    ['no photo', () => [], 'media_missing'],
  ] as const)('refuses %s before sending anything', async (_label, media, code) => {
    await expect(fb.publisher!.publish(ctxOf(single), photoPost(media())))
      .rejects.toMatchObject({ failure: { kind: 'invalid_content', code } });
    expect(sim.requests).toHaveLength(0);
  });

  it('a photo URL Facebook cannot fetch is invalid_content (324)', async () => {
    const broken: MediaAccess = { ...fx.access, publicUrl: (id) => `${fx.publicBase}/media/${id.replace(/./g, '0')}` };
    await expect(publishDone(ctxOf(single, broken), photoPost([fx.images[0]!])))
      .rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'media_fetch_failed' }, upstream: { code: 324 } });
  });

  it('video: /videos with file_url, title and description, then polls status until ready', async () => {
    const { outcome, steps } = await drivePublish(fb, ctxOf(single), videoPost([fx.video], { facebook_title: 'FB cut', facebook_description: 'Behind the counter' }), { maxWaitMs: 30 });
    const [video] = sim.videos();
    expect(body(0)).toEqual({
      file_url: fx.access.publicUrl(fx.video.id), title: 'FB cut', description: 'Behind the counter', published: 'true', appsecret_proof: proof(pageToken(single)),
    });
    expect(video).toMatchObject({ source: 'file_url', size: fx.video.size, published: true, kind: 'video' });
    expect(steps).toBeGreaterThanOrEqual(2);
    expect(calls().slice(1).every((c) => c === `GET /v21.0/${video!.id}`)).toBe(true);
    expect(sim.requests[1]!.query.fields).toBe('status,permalink_url');
    expect(outcome).toEqual({
      postId: video!.id, url: `https://www.facebook.com/${pageId()}/videos/${video!.id}/`, warnings: [],
      extra: { page_id: pageId(), page_name: 'Solo Cafe Page', media_type: 'POSTS' },
    });
  });

  it('video: video_state DRAFT uploads unpublished', async () => {
    const outcome = await publishDone(ctxOf(single), videoPost([fx.video], { video_state: 'DRAFT' }, 'Draft', 'Not yet'));
    expect(body(0)).toMatchObject({ published: 'false', title: 'Draft', description: 'Not yet' });
    expect(outcome.extra).toMatchObject({ published: false });
  });

  it('video above resumableThresholdBytes: Resumable Upload API session, bytes, then the handle', async () => {
    const resumable = adapter({ resumableThresholdBytes: 1 });
    const outcome = await publishDone(ctxOf(single), videoPost([fx.landscapeVideo]), resumable);
    const user = single.credentials.user_access_token!;
    expect(calls().slice(0, 3)).toEqual([`POST /v21.0/${sim.app.id}/uploads`, expect.stringMatching(/^POST \/v21\.0\/upload:/), `POST /v21.0/${pageId()}/videos`]);
    expect(body(0)).toMatchObject({ file_name: 'landscape.mp4', file_length: String(fx.landscapeVideo.size), file_type: 'video/mp4', appsecret_proof: proof(user) });
    expect(sim.requests[0]!.headers.authorization).toBe(`Bearer ${user}`);
    expect(sim.requests[1]).toMatchObject({ query: { appsecret_proof: proof(user) }, headers: { authorization: `OAuth ${user}`, file_offset: '0' } });
    expect(sim.requests[1]!.body).toEqual({ contentType: 'application/octet-stream', size: fx.landscapeVideo.size });
    const [session] = sim.uploadSessions();
    expect(body(2)).toMatchObject({ fbuploader_video_file_chunk: session!.handle, title: 'Launch film', published: 'true' });
    expect(sim.videos()[0]).toMatchObject({ source: 'resumable', size: fx.landscapeVideo.size });
    expect(outcome.postId).toBe(sim.videos()[0]!.id);
  });

  it('video story: start, bytes to the upload URL, finish, poll; title ignored with a warning', async () => {
    const outcome = await publishDone(ctxOf(single), videoPost([fx.video], { facebook_media_type: 'STORIES' }));
    const [video] = sim.videos();
    expect(calls().slice(0, 3)).toEqual([`POST /v21.0/${pageId()}/video_stories`, `POST /video-upload/v21.0/${video!.id}`, `POST /v21.0/${pageId()}/video_stories`]);
    expect(body(0)).toMatchObject({ upload_phase: 'start' });
    expect(sim.requests[1]!.headers).toMatchObject({ authorization: `OAuth ${pageToken(single)}`, offset: '0', file_size: String(fx.video.size) });
    expect(sim.requests[1]!.body).toEqual({ contentType: 'application/octet-stream', size: fx.video.size });
    expect(body(2)).toMatchObject({ upload_phase: 'finish', video_id: video!.id });
    expect(outcome).toMatchObject({ postId: sim.stories()[0]!.postId, warnings: ['facebook_title and facebook_description are ignored for Facebook stories.'] });
    expect(outcome.url).toBeUndefined();
  });

  it('reel: the same session with video_state, title and description on finish', async () => {
    const outcome = await publishDone(ctxOf(single), videoPost([fx.video], { facebook_media_type: 'REELS', video_state: 'DRAFT' }, 'Reel title', 'Reel caption'));
    const video = sim.videos()[0]!;
    expect(body(2)).toMatchObject({ upload_phase: 'finish', video_id: video.id, video_state: 'DRAFT', title: 'Reel title', description: 'Reel caption' });
    expect(video).toMatchObject({ kind: 'reel', published: false, videoState: 'DRAFT' });
    expect(outcome).toMatchObject({ postId: video.id, url: `https://www.facebook.com/reel/${video.id}/` });
  });

  it.each([
    ['a 2 s video as a story (3-60 s)', () => videoPost([fx.landscapeVideo], { facebook_media_type: 'STORIES' }), 'video_duration'],
    ['a video over 240 minutes', () => videoPost([{ ...fx.video, info: { ...fx.video.info!, durationSeconds: 240 * 60 + 1 } }]), 'video_duration'],
    ['two videos', () => videoPost([fx.video, fx.landscapeVideo]), 'too_many_media'],
    ['an image on the video endpoint', () => videoPost([fx.images[0]!]), 'unsupported_media'],
  ] as const)('refuses %s before sending anything', async (_label, post, code) => {
    await expect(fb.publisher!.publish(ctxOf(single), post())).rejects.toMatchObject({ failure: { kind: 'invalid_content', code } });
    expect(sim.requests).toHaveLength(0);
  });

  it('a video whose processing fails is invalid_content', async () => {
    sim.fail('video_processing_error');
    await expect(publishDone(ctxOf(single), videoPost([fx.video])))
      .rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'video_processing_failed' } });
  });

  it('a failed status read waits again instead of failing the upload', async () => {
    const first = await fb.publisher!.publish(ctxOf(single), videoPost([fx.video]));
    if (first.kind !== 'wait') throw new Error('a video waits for processing');
    sim.fail('server_error');
    const second = await fb.publisher!.resume!(ctxOf(single), videoPost([fx.video]), first.state);
    expect(second).toMatchObject({ kind: 'wait', state: { poll_failures: 1 } });
    await new Promise((r) => setTimeout(r, 60));
    const third = await fb.publisher!.resume!(ctxOf(single), videoPost([fx.video]), JSON.parse(JSON.stringify((second as { state: object }).state)));
    expect(third).toMatchObject({ kind: 'done', outcome: { postId: sim.videos()[0]!.id } });
    expect(sim.videos()).toHaveLength(1);
  });
});

describe('post analytics of videos and reels (issue 29 g)', () => {
  // A video's id names no Page ({page_id}_{post_id} is photo and text posts' form): the Page comes
  // from the upload's result, the only connected Page, or the video's owner.
  const metricsOf = (id: string) => {
    const v = sim.analytics.videoInsights(sim.videos().find((x) => x.id === id)!);
    return { values: { impressions: v.impressions, reach: v.reach, likes: v.likes, comments: v.comments, shares: v.shares, engagement: v.likes! + v.comments! + v.shares! } };
  };

  it('a video on the only Page: video_insights with its token, by the bare video id', async () => {
    const c = await connect('Video Solo');
    const outcome = await publishDone(ctxOf(c), videoPost([fx.video]));
    sim.requests.length = 0;
    expect(await fb.analytics!.post(ctxOf(c), { post: { id: outcome.postId } })).toEqual(metricsOf(outcome.postId));
    expect(calls()).toEqual([`GET /v21.0/${outcome.postId}`, `GET /v21.0/${outcome.postId}/video_insights`]);
    expect(sim.requests[0]!.headers.authorization).toBe(`Bearer ${pageToken(c)}`);
  });

  it('a video on the second of two Pages: the page_id the upload stored, else the video\'s owner', async () => {
    const c = await connect('Video Multi', ['First', 'Second']);
    const second = c.pages[1]!.id;
    const outcome = await publishDone(ctxOf(c), videoPost([fx.video], { facebook_page_id: second }));
    const expected = metricsOf(outcome.postId);
    sim.requests.length = 0;
    expect(await fb.analytics!.post(ctxOf(c), { post: { id: outcome.postId, extra: outcome.extra! } })).toEqual(expected);
    expect(sim.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${pageToken(c, second)}`, `Bearer ${pageToken(c, second)}`]);
    sim.requests.length = 0;
    expect(await fb.analytics!.post(ctxOf(c), { post: { id: outcome.postId } })).toEqual(expected);
    expect(calls()[0]).toBe(`GET /v21.0/${outcome.postId}`);
    expect(sim.requests[0]!.query.fields).toBe('from');
  });

  it('a reel: the reel metrics (plays for impressions), known by the stored media type or by its permalink', async () => {
    const c = await connect('Reel Solo');
    const outcome = await publishDone(ctxOf(c), videoPost([fx.video], { facebook_media_type: 'REELS' }));
    const v = sim.analytics.videoInsights(sim.videos().find((x) => x.id === outcome.postId)!);
    const expected = { values: { impressions: v.plays, reach: v.reach, likes: v.likes, comments: v.comments, shares: v.shares, engagement: v.likes! + v.comments! + v.shares! } };
    expect(await fb.analytics!.post(ctxOf(c), { post: { id: outcome.postId, extra: outcome.extra! } })).toEqual(expected);
    expect(await fb.analytics!.post(ctxOf(c), { post: { id: outcome.postId } })).toEqual(expected);
  });

  it('the simulator answers a video as Graph does: no insights edge, no shares field', async () => {
    const c = await connect('Video Graph');
    const outcome = await publishDone(ctxOf(c), videoPost([fx.video]));
    const graphGet = (path: string, query: Record<string, string>) => fetch(`${sim.baseUrl}/v21.0/${path}?${new URLSearchParams({ ...query, appsecret_proof: proof(pageToken(c)) })}`, { headers: { authorization: `Bearer ${pageToken(c)}` } });
    const insights = await graphGet(`${outcome.postId}/insights`, { metric: 'post_impressions' });
    expect([insights.status, ((await insights.json()) as { error: { code: number } }).error.code]).toEqual([400, 100]);
    expect((await graphGet(outcome.postId, { fields: 'shares' })).status).toBe(400);
    expect((await graphGet(`${outcome.postId}/video_insights`, { metric: 'blue_reels_play_count' })).status).toBe(400);
  });
});

describe('first comment', () => {
  let c: Connected;
  beforeAll(async () => { c = await connect('Commenter'); });

  it('comments under a text post with the page token', async () => {
    const post = await publishDone(ctxOf(c, noMedia), textPost('Comment below'));
    const { commentId } = await postFirstComment(fb, ctxOf(c, noMedia), { post, text: 'First!' });
    expect(sim.comments(post.postId)).toEqual([expect.objectContaining({ id: commentId, message: 'First!' })]);
    expect(sim.requests.at(-1)).toMatchObject({ method: 'POST', path: `/v21.0/${post.postId}/comments`, headers: { authorization: `Bearer ${pageToken(c)}` } });
  });

  it('comments under a video by its video id', async () => {
    const post = await publishDone(ctxOf(c), videoPost([fx.video]));
    await postFirstComment(fb, ctxOf(c), { post, text: 'Watch to the end' });
    expect(sim.comments(post.postId)).toHaveLength(1);
  });

  it('returns warnings instead of failing when the post id is unknown or the post is a story', async () => {
    const unknown = await postFirstComment(fb, ctxOf(c), { post: { postId: '', warnings: [] }, text: 'x' });
    const story = await postFirstComment(fb, ctxOf(c), { post: { postId: '1', warnings: [], extra: { media_type: 'STORIES' } }, text: 'x' });
    expect([unknown.warnings, story.warnings]).toEqual([[expect.stringContaining('not known yet')], [expect.stringContaining('stories')]]);
    expect(sim.requests).toHaveLength(0);
  });
});

describe('failure mapping', () => {
  let single: Connected;
  let multi: Connected;
  beforeAll(async () => {
    single = await connect('Failing Solo');
    multi = await connect('Failing Multi', ['Page A', 'Page B']);
  });
  const post = (c: Connected, text: string) => publishDone(ctxOf(c, noMedia), textPost(text, c === multi ? { facebook_page_id: c.pages[0]!.id } : {}));
  const hour = 3600_000;

  it.each([
    ['token_expired', { kind: 'auth_expired', reason: 'token_expired' }],
    ['token_revoked', { kind: 'auth_expired', reason: 'password_changed' }],
    ['checkpoint', { kind: 'checkpoint' }],
    ['rate_limited', { kind: 'rate_limited', retryAfterMs: FACEBOOK_SIM_REGAIN_MINUTES * 60_000 }],
    ['app_rate_limited', { kind: 'rate_limited', retryAfterMs: 60_000 }],
    ['duplicate_post', { kind: 'rejected', code: 'duplicate_post' }],
    ['permission_denied', { kind: 'rejected', code: 'permission' }],
    ['server_error', { kind: 'transient' }],
    ['bad_gateway', { kind: 'transient' }],
  ] as const)('%s → %o', async (mode, failure) => {
    sim.fail(mode);
    await expect(post(single, `mode ${mode}`)).rejects.toMatchObject({ failure });
    expect(sim.posts()).toHaveLength(0);
  });

  it('the injected clock dates token expiries, pauses and the processing deadline', async () => {
    const at = new Date('2031-03-01T12:00:00Z');
    const clocked = adapter({ now: () => at, processingTimeoutMs: 60_000 });
    const renewed = await clocked.refresher!.refresh(single.credentials);
    expect(Date.parse(renewed.expires_at!) - at.getTime()).toBeGreaterThan(59 * 86400_000);
    expect(Date.parse(renewed.expires_at!) - at.getTime()).toBeLessThanOrEqual(61 * 86400_000);
    sim.fail('posting_too_fast');
    const err = (await publishDone(ctxOf(single, noMedia), textPost('clocked'), clocked).catch((e: unknown) => e)) as PlatformError;
    expect((err.failure as { until: Date }).until).toEqual(new Date(at.getTime() + hour));
    const step = await clocked.publisher!.publish(ctxOf(single), videoPost([fx.video]));
    expect(step).toMatchObject({ kind: 'wait', state: { started_at: at.getTime() } });
  });

  it.each([
    ['posting_too_fast', 'rate_limited', hour],
    ['identity_confirmation', 'identity_confirmation', 24 * hour],
  ] as const)('%s on a single-page login pauses the account (restricted %s)', async (mode, reason, pause) => {
    sim.fail(mode);
    const err = (await post(single, `solo ${mode}`).catch((e: unknown) => e)) as PlatformError;
    expect(err.failure).toMatchObject({ kind: 'restricted', reason });
    const until = (err.failure as { until: Date }).until.getTime();
    expect(Math.abs(until - (Date.now() + pause))).toBeLessThan(5000);
  });

  it('the same verdicts on a multi-page login do not pause the account', async () => {
    sim.fail('posting_too_fast');
    await expect(post(multi, 'multi fast')).rejects.toMatchObject({ failure: { kind: 'rate_limited', retryAfterMs: hour } });
    sim.fail('identity_confirmation');
    await expect(post(multi, 'multi identity')).rejects.toMatchObject({ failure: { kind: 'rejected', code: 'identity_confirmation' } });
  });

  it('revoked tokens (real state) are auth_expired', async () => {
    const c = await connect('Gone');
    sim.revokeTokens(c.accountId);
    await expect(post(c, 'after revoke')).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'app_deauthorized' } });
  });

  it('a login without pages_manage_posts is refused with a permission error', async () => {
    const c = await connect('Reader', ['Read Only'], ['pages_show_list', 'pages_read_engagement']);
    await expect(post(c, 'no permission')).rejects.toMatchObject({ failure: { kind: 'rejected', code: 'permission' }, upstream: { code: 200 } });
  });

  it('a timeout is transient with an unknown outcome, and messages never carry tokens', async () => {
    sim.setLatency(400);
    const err = (await publishDone(ctxOf(single, noMedia), textPost('slow'), adapter({ timeoutMs: 100 })).catch((e: unknown) => e)) as PlatformError;
    expect(err.failure).toEqual({ kind: 'transient' });
    expect(err.message).toMatch(/100 ms.*outcome is unknown/);
    expect(err.message).not.toContain(pageToken(single));
  });
});
