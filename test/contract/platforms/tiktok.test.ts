import { createHash } from 'node:crypto';
import { postFirstComment } from '../../support/first-comment';
import { PlatformError } from '../../../core/domain/errors';
import type { MediaRef } from '../../../core/domain/media';
import type { MediaKind } from '../../../core/domain/platforms';
import { resolveSettings } from '../../../core/domain/settings';
import type { MediaAccess, PlatformAdapter, PublishContext, PublishPost } from '../../../core/ports/platform';
import { createTikTokPlatform, tiktokDescriptor, type TikTokPlatformOptions } from '../../../adapters/platforms/tiktok';
import { startTikTokSimulator, type TikTokClientFixture, type TikTokSimulator } from '../../../ops/simulators/tiktok';
import { drivePublish, mediaFixtures, type MediaFixtures , FIXTURE_TIMEOUT_MS } from '../../support/platform-harness';

const REDIRECT = 'https://herald.example/connect/tiktok/callback';
const MB = 1024 * 1024;

let sim: TikTokSimulator;
let media: MediaFixtures;
let client: TikTokClientFixture;
let tiktok: PlatformAdapter;
let accountCount = 0;

function adapter(extra: Partial<TikTokPlatformOptions> = {}): PlatformAdapter {
  return createTikTokPlatform({
    clientId: client.clientKey,
    clientSecret: client.clientSecret,
    apiBase: sim.apiBase,
    authBase: sim.authBase,
    businessApiBase: sim.businessApiBase,
    pollIntervalMs: 10,
    postIdPollIntervalMs: 10,
    timeoutMs: 5000,
    ...extra,
  });
}

beforeAll(async () => {
  sim = await startTikTokSimulator({ processingMs: 20 });
  media = await mediaFixtures();
  client = sim.createClient({ redirectUris: [REDIRECT] });
  tiktok = adapter();
}, FIXTURE_TIMEOUT_MS);
afterAll(async () => {
  await sim.close();
  await media.close();
});
beforeEach(() => sim.reset());

async function rejection(p: Promise<unknown>): Promise<PlatformError> {
  try {
    await p;
  } catch (err) {
    return err as PlatformError;
  }
  throw new Error('expected a rejection');
}

/** A sandbox account connected through the adapter's own code exchange, so ctx holds what Herald stores. */
async function connect(capabilities: string[], extra: Omit<Parameters<TikTokSimulator['createAccount']>[0], 'username'> = {}) {
  accountCount += 1;
  const account = sim.createAccount({ username: `creator${accountCount}`, displayName: `Creator ${accountCount}`, capabilities, ...extra });
  const code = sim.issueAuthCode(account.openId, { clientKey: client.clientKey, redirectUri: REDIRECT });
  const { credentials } = await tiktok.oauth!.exchangeCode({ code, redirectUri: REDIRECT });
  sim.requests.splice(0);
  const ctx: PublishContext = { credentials, idempotencyKey: 'idem-1', media: media.access };
  return { account, ctx };
}

function settings(endpoint: MediaKind, fields: Record<string, unknown>, mediaCount: number) {
  const resolved = resolveSettings('tiktok', tiktokDescriptor.settings, fields, { endpoint, mediaCount });
  if (resolved.violations.length) throw new Error(JSON.stringify(resolved.violations));
  return resolved.values;
}
const videoPost = (fields: Record<string, unknown> = {}, title = 'Launch day #herald', video: MediaRef = media.video): PublishPost =>
  ({ kind: 'video', title, media: [video], settings: settings('video', fields, 1) });
const photoPost = (fields: Record<string, unknown> = {}, images: MediaRef[] = media.images.slice(0, 3), title = 'Photo dump'): PublishPost =>
  ({ kind: 'photo', title, media: images, settings: settings('photo', fields, images.length) });
const publish = (ctx: PublishContext, post: PublishPost, via = tiktok) => drivePublish(via, ctx, post, { maxWaitMs: 20 });

const calls = () => sim.requests.map((r) => `${r.method} ${r.path}`);
const bodyOf = (path: string) => sim.requests.find((r) => r.path === path)?.body as Record<string, any>;
async function sha256(access: MediaAccess, id: string) {
  const hash = createHash('sha256');
  for await (const part of access.read(id)) hash.update(part);
  return hash.digest('hex');
}

describe('descriptor and settings', () => {
  it('declares an OAuth network for video and photos with the spec limits', () => {
    expect(tiktok.descriptor).toMatchObject({
      id: 'tiktok', connect: 'oauth', endpoints: ['video', 'photo'],
      limits: {
        textMaxChars: 2200,
        video: { maxBytes: 3 * 1024 * MB, minSeconds: 3, maxSeconds: 600, minShortSidePx: 360, minFps: 23, maxFps: 60,
          containers: ['mov,mp4,m4a,3gp,3g2,mj2', 'matroska,webm'] },
        photo: { maxBytes: 20 * MB, maxCount: 35, contentTypes: ['image/jpeg', 'image/webp'] },
      },
    });
  });

  const resolve = (endpoint: MediaKind, fields: Record<string, unknown>, mediaCount = 1) =>
    resolveSettings('tiktok', tiktokDescriptor.settings, fields, { endpoint, mediaCount });

  it('applies the spec defaults', () => {
    expect(resolve('video', {}).values).toEqual({
      tiktok_upload_to_draft: false, disable_inbox_fallback: false, disable_comment: false, disable_duet: false, disable_stitch: false,
      cover_timestamp: 1000, brand_content_toggle: false, brand_organic_toggle: false, tiktok_is_ai_generated: false,
    });
    expect(resolve('photo', {}, 2).values).toMatchObject({ auto_add_music: false, photo_cover_index: 0, disable_comment: false });
  });

  it('folds aliases into canonical names, the platform-specific one winning', () => {
    expect(resolve('video', { upload_to_draft: 'true', is_ai_generated: 'yes' }).values)
      .toMatchObject({ tiktok_upload_to_draft: true, tiktok_is_ai_generated: true });
    expect(resolve('video', { is_ai_generated: 'true', is_aigc: 'false' }).values.tiktok_is_ai_generated).toBe(false);
    expect(resolve('video', { tiktok_is_ai_generated: 'false', is_aigc: 'true' }).values.tiktok_is_ai_generated).toBe(false);
    expect(resolve('photo', { description: 'About the photos' }).values.tiktok_description).toBe('About the photos');
  });

  it('warns about fields of another endpoint', () => {
    expect(resolve('video', { description: 'ignored for tiktok video', auto_add_music: 'true' }).warnings).toEqual([
      'auto_add_music is not used by tiktok on this endpoint and was ignored.',
      'description is not used by tiktok on this endpoint and was ignored.',
    ]);
    expect(resolve('photo', { disable_duet: 'true', tiktok_music_volume: '10' }, 2).warnings).toHaveLength(2);
  });

  it.each([
    [{ privacy_level: 'EVERYONE' }, 'privacy_level'],
    [{ post_mode: 'DRAFT' }, 'post_mode'],
    [{ tiktok_music_volume: '101' }, 'tiktok_music_volume'],
    [{ tiktok_original_sound_volume: '-1' }, 'tiktok_original_sound_volume'],
    [{ cover_timestamp: '1.5' }, 'cover_timestamp'],
    [{ tiktok_cover_image_url: 'ftp://example.com/c.jpg' }, 'tiktok_cover_image_url'],
  ])('rejects %j', (fields, field) => {
    expect(resolve('video', fields).violations).toEqual([expect.objectContaining({ field })]);
  });

  it('limits the photo description to 4000 characters', () => {
    expect(resolve('photo', { tiktok_description: 'x'.repeat(4001) }, 2).violations).toEqual([expect.objectContaining({ field: 'tiktok_description' })]);
    expect(resolve('photo', { tiktok_description: 'x'.repeat(4000) }, 2).violations).toEqual([]);
  });

  it('requires tiktok_location_name with tiktok_location_id', () => {
    expect(resolve('video', { tiktok_location_id: '110000' }).violations).toEqual([
      { field: 'tiktok_location_name', message: 'tiktok_location_name is required when tiktok_location_id is sent.' },
    ]);
    expect(resolve('video', { tiktok_location_id: '110000', tiktok_location_name: 'Lisbon' }).violations).toEqual([]);
  });

  it('refuses contradictions: direct post plus draft, a track ending before it starts, a cover past the last photo', () => {
    expect(resolve('video', { post_mode: 'DIRECT_POST', tiktok_upload_to_draft: 'true' }).violations)
      .toEqual([expect.objectContaining({ field: 'tiktok_upload_to_draft' })]);
    expect(resolve('video', { post_mode: 'MEDIA_UPLOAD', tiktok_upload_to_draft: 'true' }).violations).toEqual([]);
    expect(resolve('video', { tiktok_music_start: '5000', tiktok_music_end: '5000' }).violations)
      .toEqual([expect.objectContaining({ field: 'tiktok_music_end' })]);
    expect(resolve('photo', { photo_cover_index: '2' }, 2).violations).toEqual([expect.objectContaining({ field: 'photo_cover_index' })]);
    expect(resolve('photo', { photo_cover_index: '1' }, 2).violations).toEqual([]);
  });
});

describe('connect', () => {
  it('builds the authorize URL with the client key, scopes, redirect, state and a PKCE challenge', () => {
    const url = new URL(tiktok.oauth!.authorizeUrl({ state: 'st-1', redirectUri: REDIRECT, codeChallenge: 'abc_DEF-123' }));
    expect(`${url.origin}${url.pathname}`).toBe(`${sim.authBase}/v2/auth/authorize/`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_key: client.clientKey, scope: 'video.publish,video.upload,user.info.basic,user.info.stats,video.list', response_type: 'code',
      redirect_uri: REDIRECT, state: 'st-1', code_challenge: 'abc_DEF-123', code_challenge_method: 'S256',
    });
    const real = createTikTokPlatform({ clientId: 'ck', clientSecret: 's' }).oauth!.authorizeUrl({ state: 's', redirectUri: REDIRECT });
    expect(real.startsWith('https://www.tiktok.com/v2/auth/authorize/?client_key=ck&')).toBe(true);
    expect(real).not.toContain('code_challenge');
  });

  it('runs the approve page, exchanges the code and reads the identity', async () => {
    const account = sim.createAccount({ username: 'herald.fan', displayName: 'Herald Fan', capabilities: ['video_privacy', 'inbox_fallback', 'comments'] });
    const verifier = 'v'.repeat(64);
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const authorize = tiktok.oauth!.authorizeUrl({ state: 'xyz', redirectUri: REDIRECT, codeChallenge: challenge });
    const page = await fetch(authorize);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('@herald.fan');

    const form = new URLSearchParams({ ...Object.fromEntries(new URL(authorize).searchParams), open_id: account.openId, decision: 'approve' });
    const approved = await fetch(`${sim.authBase}/v2/auth/authorize/`, { method: 'POST', body: form, redirect: 'manual' });
    expect(approved.status).toBe(302);
    const back = new URL(approved.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('xyz');
    sim.requests.splice(0);

    const before = Date.now();
    const { identity, credentials } = await tiktok.oauth!.exchangeCode({ code: back.searchParams.get('code')!, redirectUri: REDIRECT, codeVerifier: verifier });
    expect(identity).toEqual({
      platformUserId: account.openId, handle: 'herald.fan', displayName: 'Herald Fan', avatarUrl: account.avatarUrl,
      capabilities: ['video_privacy', 'inbox_fallback', 'comments'],
    });
    expect(credentials).toMatchObject({
      open_id: account.openId, handle: 'herald.fan', union_id: account.unionId, scope: 'video.publish,video.upload,user.info.basic,user.info.stats,video.list',
      capabilities: 'video_privacy,inbox_fallback,comments',
    });
    expect(credentials.access_token).toMatch(/^act\./);
    expect(credentials.refresh_token).toMatch(/^rft\./);
    expect(Date.parse(credentials.expires_at!) - before).toBeGreaterThan(86_000_000);
    expect(Date.parse(credentials.refresh_expires_at!) - before).toBeGreaterThan(31_000_000_000);

    expect(calls()).toEqual(['POST /v2/oauth/token/', 'GET /v2/user/info/']);
    expect(sim.requests[0]!.body).toEqual({
      client_key: client.clientKey, client_secret: client.clientSecret, code: back.searchParams.get('code'),
      grant_type: 'authorization_code', redirect_uri: REDIRECT, code_verifier: verifier,
    });
    expect(sim.requests[1]!.query).toEqual({ fields: 'open_id,union_id,avatar_url,display_name,username' });
    expect(sim.requests[1]!.headers.authorization).toBe(`Bearer ${credentials.access_token}`);
  });

  it('refuses a wrong PKCE verifier, a reused code and a wrong client secret', async () => {
    const account = sim.createAccount({ username: 'pkce.user' });
    const challenge = createHash('sha256').update('right-verifier').digest('base64url');
    const code = sim.issueAuthCode(account.openId, { clientKey: client.clientKey, redirectUri: REDIRECT, codeChallenge: challenge });
    await expect(tiktok.oauth!.exchangeCode({ code, redirectUri: REDIRECT, codeVerifier: 'wrong-verifier' }))
      .rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'invalid_grant' }, upstream: { status: 400, code: 'invalid_grant' } });

    const plain = sim.issueAuthCode(account.openId, { clientKey: client.clientKey, redirectUri: REDIRECT });
    await tiktok.oauth!.exchangeCode({ code: plain, redirectUri: REDIRECT });
    await expect(tiktok.oauth!.exchangeCode({ code: plain, redirectUri: REDIRECT }))
      .rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'invalid_grant' } });

    const another = sim.issueAuthCode(account.openId, { clientKey: client.clientKey, redirectUri: REDIRECT });
    await expect(adapter({ clientSecret: 'not-the-secret' }).oauth!.exchangeCode({ code: another, redirectUri: REDIRECT }))
      .rejects.toMatchObject({ failure: { kind: 'rejected', code: 'invalid_client' }, upstream: { status: 401 } });
  });

  it('answers a denied approval with access_denied on the redirect', async () => {
    const account = sim.createAccount({ username: 'says.no' });
    const authorize = new URL(tiktok.oauth!.authorizeUrl({ state: 's-9', redirectUri: REDIRECT }));
    const form = new URLSearchParams({ ...Object.fromEntries(authorize.searchParams), open_id: account.openId, decision: 'deny' });
    const denied = await fetch(`${sim.authBase}/v2/auth/authorize/`, { method: 'POST', body: form, redirect: 'manual' });
    const back = new URL(denied.headers.get('location')!);
    expect(Object.fromEntries(back.searchParams)).toMatchObject({ error: 'access_denied', state: 's-9' });
  });


  it('computes expires_at of a refreshed token from the injected clock', async () => {
    const clock = new Date('2001-02-03T04:05:06Z');
    const { ctx } = await connect(['video_privacy']);
    const renewed = await adapter({ now: () => clock }).refresher!.refresh(ctx.credentials);
    expect(Date.parse(renewed.refresh_expires_at!)).toBeLessThan(clock.getTime() + 400 * 86400_000);
    const at = Date.parse(renewed.expires_at!);
    expect(at).toBeGreaterThan(clock.getTime());
    expect(at).toBeLessThan(clock.getTime() + 400 * 86400_000);
  });

  it('refresh rotates the refresh token, keeps what TikTok does not resend, and the old token stops working', async () => {
    const { ctx } = await connect(['video_privacy', 'comments']);
    const old = ctx.credentials;
    const renewed = await tiktok.refresher!.refresh(old);
    expect(renewed.refresh_token).not.toBe(old.refresh_token);
    expect(renewed.access_token).not.toBe(old.access_token);
    expect(renewed).toMatchObject({ open_id: old.open_id, handle: old.handle, capabilities: 'video_privacy,comments' });
    expect(sim.requests.map((r) => r.body)).toEqual([{
      client_key: client.clientKey, client_secret: client.clientSecret, grant_type: 'refresh_token', refresh_token: old.refresh_token,
    }]);
    await expect(tiktok.refresher!.refresh(old)).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'invalid_grant' } });
    await expect(tiktok.refresher!.refresh(renewed)).resolves.toMatchObject({ open_id: old.open_id });
  });

  it('a revoked connection cannot refresh', async () => {
    const { account, ctx } = await connect([]);
    sim.revokeTokens(account.openId);
    await expect(tiktok.refresher!.refresh(ctx.credentials)).rejects.toMatchObject({ failure: { kind: 'auth_expired' } });
  });
});

describe('publish video', () => {
  it('direct-posts with FILE_UPLOAD, mapping every setting the connection allows', async () => {
    const { account, ctx } = await connect(['video_privacy', 'inbox_fallback', 'cover_timestamp', 'comments']);
    const { outcome } = await publish(ctx, videoPost({
      privacy_level: 'MUTUAL_FOLLOW_FRIENDS', disable_comment: 'true', disable_duet: 'true', disable_stitch: 'false',
      cover_timestamp: '2500', brand_content_toggle: 'true', brand_organic_toggle: 'false', is_aigc: 'true',
      tiktok_music_id: '7001', tiktok_location_id: '110000', tiktok_location_name: 'Lisbon',
    }));

    expect(calls().slice(0, 4)).toEqual([
      'POST /v2/post/publish/creator_info/query/', 'POST /v2/post/publish/video/init/', 'PUT /upload/video/', 'POST /v2/post/publish/status/fetch/',
    ]);
    expect(bodyOf('/v2/post/publish/video/init/')).toEqual({
      post_info: {
        title: 'Launch day #herald', privacy_level: 'MUTUAL_FOLLOW_FRIENDS', disable_comment: true, disable_duet: true, disable_stitch: false,
        brand_content_toggle: true, brand_organic_toggle: false, is_aigc: true, video_cover_timestamp_ms: 2500,
      },
      source_info: { source: 'FILE_UPLOAD', video_size: media.video.size, chunk_size: media.video.size, total_chunk_count: 1 },
    });
    const put = sim.requests.find((r) => r.method === 'PUT')!;
    expect(put.headers['content-range']).toBe(`bytes 0-${media.video.size - 1}/${media.video.size}`);
    expect(put.headers['content-type']).toBe('video/mp4');
    expect(put.headers.authorization).toBeUndefined();

    const [post] = sim.posts(account.openId);
    expect(post).toMatchObject({ state: 'published', mediaType: 'VIDEO', mediaSha256: [await sha256(media.access, media.video.id)] });
    expect(post!.id).toMatch(/^7\d{18}$/);
    expect(outcome).toEqual({
      postId: post!.id,
      url: `https://www.tiktok.com/@${account.username}/video/${post!.id}`,
      warnings: [
        'tiktok_music_id was ignored: this TikTok connection lacks the "music" capability (reconnect the account to get it).',
        'tiktok_location_id, tiktok_location_name was ignored: this TikTok connection lacks the "location" capability (reconnect the account to get it).',
      ],
      extra: { publish_id: post!.publishId, fallback_to_inbox: false },
    });
    expect(post!.publishId).toMatch(/^v_pub_file~/);
  });

  it('sends music, location and the cover image where the connection has them; privacy falls back to the account default', async () => {
    const { ctx } = await connect(['music', 'location', 'cover_image', 'draft'], { privacyLevelOptions: ['FOLLOWER_OF_CREATOR', 'SELF_ONLY'] });
    const { outcome } = await publish(ctx, videoPost({
      privacy_level: 'SELF_ONLY', tiktok_music_id: '7001', tiktok_music_start: '1000', tiktok_music_end: '9000',
      tiktok_location_id: '110000', tiktok_location_name: 'Lisbon', tiktok_cover_image_url: 'https://cdn.example/cover.jpg',
      tiktok_cover_image: media.images[0], cover_timestamp: '1500',
    }));
    expect(bodyOf('/v2/post/publish/video/init/').post_info).toEqual({
      title: 'Launch day #herald', privacy_level: 'FOLLOWER_OF_CREATOR', disable_comment: false, disable_duet: false, disable_stitch: false,
      brand_content_toggle: false, brand_organic_toggle: false, is_aigc: false,
      cover_image_url: 'https://cdn.example/cover.jpg', music_id: '7001', music_volume: 50, original_sound_volume: 50,
      music_start_ms: 1000, music_end_ms: 9000, location_id: '110000', location_name: 'Lisbon',
    });
    expect(outcome.warnings).toEqual([
      'privacy_level was ignored: this TikTok connection lacks the "video_privacy" capability (reconnect the account to get it).',
      'tiktok_cover_image was ignored: tiktok_cover_image_url wins.',
      'cover_timestamp was ignored: a cover image wins.',
    ]);
  });

  it('sends an uploaded cover image as its public URL', async () => {
    const { ctx } = await connect(['cover_image']);
    await publish(ctx, videoPost({ tiktok_cover_image: media.png, tiktok_music_volume: '20' }));
    expect(bodyOf('/v2/post/publish/video/init/').post_info).toMatchObject({ cover_image_url: media.access.publicUrl(media.png.id) });
    expect(bodyOf('/v2/post/publish/video/init/').post_info).not.toHaveProperty('video_cover_timestamp_ms');
  });

  it('uploads a large video in ordered chunks, the last one taking the trailing bytes', async () => {
    const { account, ctx } = await connect([]);
    const head: Buffer[] = [];
    for await (const part of media.access.read(media.video.id)) head.push(Buffer.from(part));
    const bytes = Buffer.concat([...head, Buffer.alloc(11 * MB - media.video.size, 7)]);
    const big: MediaRef = { ...media.video, id: 'big-video', size: bytes.length };
    const access: MediaAccess = {
      async *read(_id, range) { yield bytes.subarray(range?.start ?? 0, range?.end ?? bytes.length); },
      publicUrl: () => { throw new Error('not pulled'); },
      rendition: media.access.rendition,
    };
    await publish({ ...ctx, media: access }, videoPost({}, 'big one', big), adapter({ chunkSizeBytes: 5 * MB }));

    expect(bodyOf('/v2/post/publish/video/init/').source_info).toEqual({ source: 'FILE_UPLOAD', video_size: 11 * MB, chunk_size: 5 * MB, total_chunk_count: 2 });
    expect(sim.requests.filter((r) => r.method === 'PUT').map((r) => [r.headers['content-range'], (r.body as { size: number }).size])).toEqual([
      [`bytes 0-${5 * MB - 1}/${11 * MB}`, 5 * MB],
      [`bytes ${5 * MB}-${11 * MB - 1}/${11 * MB}`, 6 * MB],
    ]);
    expect(sim.posts(account.openId)[0]!.mediaSha256).toEqual([createHash('sha256').update(bytes).digest('hex')]);
  });

  it('PULL_FROM_URL hands TikTok the public URL, which the simulator downloads', async () => {
    const { account, ctx } = await connect([]);
    const { outcome } = await publish(ctx, videoPost(), adapter({ videoSource: 'PULL_FROM_URL' }));
    expect(bodyOf('/v2/post/publish/video/init/').source_info).toEqual({ source: 'PULL_FROM_URL', video_url: media.access.publicUrl(media.video.id) });
    expect(calls()).not.toContain('PUT /upload/video/');
    const [post] = sim.posts(account.openId);
    expect(post!.mediaSha256).toEqual([await sha256(media.access, media.video.id)]);
    expect(outcome.extra).toMatchObject({ publish_id: expect.stringMatching(/^v_pub_url~/) });
  });

  it('a pull URL that does not answer fails the post with video_pull_failed', async () => {
    const { ctx } = await connect([]);
    const dead: MediaAccess = { ...media.access, publicUrl: () => 'http://127.0.0.1:9/media/gone' };
    await expect(publish({ ...ctx, media: dead }, videoPost(), adapter({ videoSource: 'PULL_FROM_URL' })))
      .rejects.toMatchObject({ failure: { kind: 'rejected', code: 'video_pull_failed' } });
  });

  it('a draft (MEDIA_UPLOAD) works on any connection, goes through inbox/video/init and carries no metadata', async () => {
    const { account, ctx } = await connect(['video_privacy']);
    const { outcome } = await publish(ctx, videoPost({ post_mode: 'MEDIA_UPLOAD', privacy_level: 'SELF_ONLY', disable_duet: 'true' }));
    expect(calls().slice(0, 2)).toEqual(['POST /v2/post/publish/inbox/video/init/', 'PUT /upload/video/']);
    expect(bodyOf('/v2/post/publish/inbox/video/init/')).toEqual({
      source_info: { source: 'FILE_UPLOAD', video_size: media.video.size, chunk_size: media.video.size, total_chunk_count: 1 },
    });
    expect(sim.posts(account.openId)).toEqual([expect.objectContaining({ state: 'inbox', postInfo: {} })]);
    expect(outcome.postId).toMatch(/^v_inbox_file~/);
    expect(outcome.url).toBeUndefined();
    expect(outcome.extra).toEqual({ publish_id: outcome.postId, fallback_to_inbox: false });
    expect(outcome.warnings).toEqual([
      'TikTok drafts carry no post settings: title, privacy_level, disable_duet not sent; the user completes the post in the TikTok app.',
      expect.stringMatching(/^Sent to the TikTok inbox as a draft/),
    ]);
  });

  it('refuses a privacy level the account does not offer, listing the available ones, before uploading', async () => {
    const { ctx } = await connect(['video_privacy'], { privacyLevelOptions: ['FOLLOWER_OF_CREATOR', 'SELF_ONLY'] });
    const err = await rejection(publish(ctx, videoPost({ privacy_level: 'PUBLIC_TO_EVERYONE' })));
    expect(err).toMatchObject({ failure: { kind: 'invalid_content', code: 'tiktok_privacy_unavailable' } });
    expect(err.message).toContain('available: FOLLOWER_OF_CREATOR, SELF_ONLY');
    expect(calls()).toEqual(['POST /v2/post/publish/creator_info/query/']);
  });

  it('refuses a video longer than the account may post, before uploading', async () => {
    const { ctx } = await connect([], { maxVideoPostDurationSec: 2 });
    await expect(publish(ctx, videoPost())).rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'video_duration' } });
    expect(calls()).toEqual(['POST /v2/post/publish/creator_info/query/']);
  });

  it('keeps interactions off when the creator turned them off in TikTok', async () => {
    const { ctx } = await connect([], { commentDisabled: true, stitchDisabled: true });
    await publish(ctx, videoPost());
    expect(bodyOf('/v2/post/publish/video/init/').post_info).toMatchObject({ disable_comment: true, disable_duet: false, disable_stitch: true });
  });

  it('waits for the post id after PUBLISH_COMPLETE, then settles for the publish id with a warning', async () => {
    const { ctx } = await connect([]);
    sim.setPostIdDelay(60_000);
    const { outcome, steps } = await publish(ctx, videoPost(), adapter({ postIdPolls: 3 }));
    expect(outcome.postId).toMatch(/^v_pub_file~/);
    expect(outcome.postId).toBe(outcome.extra!.publish_id);
    expect(outcome.url).toBeUndefined();
    expect(outcome.warnings).toEqual([expect.stringContaining('had not released its id after 3 checks')]);
    expect(steps).toBeGreaterThanOrEqual(5);
  });

  it('gets the post id once TikTok releases it', async () => {
    const { account, ctx } = await connect([]);
    sim.setPostIdDelay(80);
    const { outcome } = await publish(ctx, videoPost(), adapter({ postIdPolls: 100 }));
    expect(outcome.postId).toBe(sim.posts(account.openId)[0]!.id);
  });
});

describe('publish photos', () => {
  it('direct-posts the public URLs of the photos with every photo setting', async () => {
    const { account, ctx } = await connect(['photo_privacy', 'video_privacy']);
    const images = media.images.slice(0, 3);
    const { outcome } = await publish(ctx, photoPost({
      privacy_level: 'SELF_ONLY', disable_comment: 'true', auto_add_music: 'true', photo_cover_index: '1',
      description: 'Three colours', brand_organic_toggle: 'true', is_ai_generated: 'true',
    }, images));
    expect(calls().slice(0, 3)).toEqual(['POST /v2/post/publish/creator_info/query/', 'POST /v2/post/publish/content/init/', 'POST /v2/post/publish/status/fetch/']);
    expect(bodyOf('/v2/post/publish/content/init/')).toEqual({
      media_type: 'PHOTO',
      post_mode: 'DIRECT_POST',
      post_info: {
        title: 'Photo dump', description: 'Three colours', privacy_level: 'SELF_ONLY', disable_comment: true, auto_add_music: true,
        brand_content_toggle: false, brand_organic_toggle: true, is_aigc: true,
      },
      source_info: { source: 'PULL_FROM_URL', photo_cover_index: 1, photo_images: images.map((i) => media.access.publicUrl(i.id)) },
    });
    const [post] = sim.posts(account.openId);
    expect(post).toMatchObject({ mediaType: 'PHOTO', photoCoverIndex: 1, mediaSha256: await Promise.all(images.map((i) => sha256(media.access, i.id))) });
    expect(outcome).toMatchObject({ postId: post!.id, url: `https://www.tiktok.com/@${account.username}/photo/${post!.id}`, warnings: [] });
    expect(outcome.extra!.publish_id).toMatch(/^p_pub_url~/);
  });

  it('sends PUBLIC_TO_EVERYONE without photo_privacy, and warns that privacy_level was ignored', async () => {
    const { ctx } = await connect(['music'], {});
    const { outcome } = await publish(ctx, photoPost({ privacy_level: 'SELF_ONLY', tiktok_music_id: '42' }));
    expect(bodyOf('/v2/post/publish/content/init/').post_info).toMatchObject({ privacy_level: 'PUBLIC_TO_EVERYONE', music_id: '42' });
    expect(outcome.warnings).toEqual([expect.stringContaining('privacy_level was ignored')]);
  });

  it('sends a photo draft with title and description only', async () => {
    const { account, ctx } = await connect([]);
    const { outcome } = await publish(ctx, photoPost({ upload_to_draft: 'true', tiktok_description: 'later', disable_comment: 'true' }, media.images.slice(0, 2)));
    expect(calls()[0]).toBe('POST /v2/post/publish/content/init/');
    expect(bodyOf('/v2/post/publish/content/init/')).toMatchObject({
      post_mode: 'MEDIA_UPLOAD', post_info: { title: 'Photo dump', description: 'later', auto_add_music: false },
    });
    expect(outcome.postId).toMatch(/^p_inbox_url~/);
    expect(outcome.warnings[0]).toContain('disable_comment not sent');
    expect(sim.posts(account.openId)[0]!.state).toBe('inbox');
  });
});

describe('active-user cap', () => {
  it('falls back to an inbox draft on a connection with inbox_fallback', async () => {
    const { ctx } = await connect(['video_privacy', 'inbox_fallback']);
    sim.fail('reached_active_user_cap');
    const { outcome } = await publish(ctx, videoPost());
    expect(calls().slice(0, 4)).toEqual([
      'POST /v2/post/publish/creator_info/query/', 'POST /v2/post/publish/video/init/', 'POST /v2/post/publish/inbox/video/init/', 'PUT /upload/video/',
    ]);
    expect(outcome.postId).toMatch(/^v_inbox_file/);
    expect(outcome.extra).toEqual({ publish_id: outcome.postId, fallback_to_inbox: true });
    expect(outcome.warnings[0]).toContain('active-user cap');
  });

  it('falls back for photos too, when the client really is at its cap', async () => {
    const capped = sim.createClient({ redirectUris: [REDIRECT], activeUserCap: 1 });
    const via = adapter({ clientId: capped.clientKey, clientSecret: capped.clientSecret });
    const connectTo = (name: string) => {
      const account = sim.createAccount({ username: name, capabilities: ['inbox_fallback'] });
      const tokens = sim.issueTokens(account.openId, { clientKey: capped.clientKey });
      return { ...ctxBase(), credentials: { access_token: tokens.access_token, open_id: account.openId, handle: name, capabilities: 'inbox_fallback' } };
    };
    await publish(connectTo('first.user'), photoPost(), via);
    const { outcome } = await publish(connectTo('second.user'), photoPost(), via);
    expect(outcome.extra).toMatchObject({ fallback_to_inbox: true, publish_id: expect.stringMatching(/^p_inbox_url~/) });
  });

  it.each([
    ['disable_inbox_fallback is set', ['inbox_fallback'], { disable_inbox_fallback: 'true' }],
    ['the connection lacks inbox_fallback', ['music'], {}],
  ])('answers reached_active_user_cap when %s', async (_label, caps, fields) => {
    const { ctx } = await connect(caps);
    sim.fail('reached_active_user_cap');
    await expect(publish(ctx, videoPost(fields))).rejects.toMatchObject({ failure: { kind: 'rejected', code: 'reached_active_user_cap' } });
    expect(calls().filter((c) => c.includes('/init/'))).toEqual(['POST /v2/post/publish/video/init/']);
  });
});

const ctxBase = () => ({ idempotencyKey: 'idem-1', media: media.access });

describe('first comment', () => {
  it('comments on the published post through the API for Business', async () => {
    const { account, ctx } = await connect(['video_privacy', 'comments']);
    const { outcome } = await publish(ctx, videoPost());
    sim.requests.splice(0);
    const result = await postFirstComment(tiktok, ctx, { post: outcome, text: 'First! Links in bio 🎬' });
    expect(sim.comments(outcome.postId)).toEqual([expect.objectContaining({ id: result.commentId, text: 'First! Links in bio 🎬', openId: account.openId })]);
    expect(result.commentId).toMatch(/^7\d{18}$/);
    expect(calls()).toEqual(['POST /open_api/v1.3/business/comment/create/']);
    expect(sim.requests[0]!.headers['access-token']).toBe(ctx.credentials.access_token);
    expect(sim.requests[0]!.body).toEqual({ business_id: account.openId, video_id: outcome.postId, text: 'First! Links in bio 🎬' });
  });

  it('skips with a warning, sending nothing, without the comments capability or a post id', async () => {
    const { ctx } = await connect(['video_privacy']);
    const published = { postId: '7300000000000000001', warnings: [], extra: { publish_id: 'v_pub_file~v2-1.1' } };
    await expect(postFirstComment(tiktok, ctx, { post: published, text: 'hi' }))
      .resolves.toEqual({ commentId: '', warnings: [expect.stringContaining('lacks the "comments" capability')] });
    const { ctx: withComments } = await connect(['comments']);
    const pending = { postId: 'v_pub_file~v2-1.2', warnings: [], extra: { publish_id: 'v_pub_file~v2-1.2' } };
    await expect(postFirstComment(tiktok, withComments, { post: pending, text: 'hi' }))
      .resolves.toEqual({ commentId: '', warnings: [expect.stringContaining('has not released the post id')] });
    expect(sim.requests).toHaveLength(0);
  });

  it('maps a refused comment (expired token) to auth_expired', async () => {
    const { account, ctx } = await connect(['comments']);
    const { outcome } = await publish(ctx, videoPost());
    sim.expireAccessTokens(account.openId);
    await expect(postFirstComment(tiktok, ctx, { post: outcome, text: 'late' }))
      .rejects.toMatchObject({ failure: { kind: 'auth_expired' }, upstream: { code: 40105 } });
  });
});

describe('failures', () => {
  const NOW = new Date('2030-01-01T00:00:00Z');
  const HOUR = 3_600_000;

  it.each([
    ['access_token_invalid', { kind: 'auth_expired', reason: 'access_token_invalid' }],
    ['scope_not_authorized', { kind: 'auth_expired', reason: 'scope_not_authorized' }],
    ['rate_limit_exceeded', { kind: 'rate_limited', retryAfterMs: 30_000 }],
    ['internal_error', { kind: 'transient' }],
    ['bad_gateway', { kind: 'transient' }],
    ['spam_risk_too_many_posts', { kind: 'restricted', reason: 'spam_risk_too_many_posts', until: new Date(NOW.getTime() + HOUR) }],
    ['spam_risk_user_banned_from_posting', { kind: 'restricted', reason: 'spam_risk_user_banned_from_posting', until: new Date(NOW.getTime() + 168 * HOUR) }],
    ['spam_risk_text', { kind: 'rejected', code: 'spam_risk_text' }],
    ['spam_risk_too_many_pending_share', { kind: 'rejected', code: 'spam_risk_too_many_pending_share' }],
    ['spam_risk', { kind: 'rejected', code: 'spam_risk' }],
    ['privacy_level_option_mismatch', { kind: 'invalid_content', code: 'tiktok_privacy_unavailable' }],
    ['url_ownership_unverified', { kind: 'rejected', code: 'url_ownership_unverified' }],
    ['unaudited_client_can_only_post_to_private_accounts', { kind: 'rejected', code: 'unaudited_client_can_only_post_to_private_accounts' }],
    ['job_file_format_check_failed', { kind: 'invalid_content', code: 'file_format_check_failed' }],
    ['job_internal', { kind: 'transient' }],
    ['job_auth_removed', { kind: 'auth_expired', reason: 'auth_removed' }],
  ] as const)('%s → %j', async (mode, failure) => {
    const { ctx } = await connect([]);
    sim.fail(mode);
    const err = await rejection(publish(ctx, videoPost(), adapter({ now: () => NOW })));
    expect(err).toBeInstanceOf(PlatformError);
    expect(err.failure).toEqual(failure);
    expect(err.message).not.toContain(ctx.credentials.access_token!);
    expect(sim.posts()).toHaveLength(0);
  });

  it('an expired token, a revoked one and a missing scope are auth_expired', async () => {
    const { account, ctx } = await connect([]);
    sim.expireAccessTokens(account.openId);
    await expect(publish(ctx, videoPost())).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'access_token_invalid' }, upstream: { status: 401 } });
    const { account: other, ctx: revoked } = await connect([]);
    sim.revokeTokens(other.openId);
    await expect(publish(revoked, photoPost())).rejects.toMatchObject({ failure: { kind: 'auth_expired' } });
    const narrow = sim.issueTokens(account.openId, { clientKey: client.clientKey, scope: 'user.info.basic,video.upload' });
    await expect(publish({ ...ctx, credentials: { ...ctx.credentials, access_token: narrow.access_token } }, videoPost()))
      .rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'scope_not_authorized' } });
  });

  it('an unaudited client may only post SELF_ONLY', async () => {
    const unaudited = sim.createClient({ audited: false });
    const account = sim.createAccount({ username: 'private.one', capabilities: ['video_privacy'] });
    const tokens = sim.issueTokens(account.openId, { clientKey: unaudited.clientKey });
    const ctx = { ...ctxBase(), credentials: { access_token: tokens.access_token, open_id: account.openId, capabilities: 'video_privacy' } };
    const via = adapter({ clientId: unaudited.clientKey, clientSecret: unaudited.clientSecret });
    await expect(publish(ctx, videoPost(), via)).rejects.toMatchObject({ failure: { kind: 'rejected', code: 'unaudited_client_can_only_post_to_private_accounts' } });
    const { outcome } = await publish(ctx, videoPost({ privacy_level: 'SELF_ONLY' }), via);
    const [post] = sim.posts(account.openId);
    expect(post).toMatchObject({ state: 'published', postInfo: { privacy_level: 'SELF_ONLY' } });
    expect(outcome).toMatchObject({ postId: post!.id, extra: { publish_id: post!.publishId } });
  });

  it('a timeout is transient with an unknown outcome', async () => {
    const { ctx } = await connect([]);
    sim.setLatency(300);
    const err = await rejection(publish(ctx, videoPost(), adapter({ timeoutMs: 80 })));
    expect(err).toMatchObject({ failure: { kind: 'transient' } });
    expect(err.message).toMatch(/80 ms.*outcome is unknown/);
  });

  it.each([
    ['text posts', { kind: 'text', title: 'hi', media: [], settings: {} }, { kind: 'unsupported' }],
    ['a 2 s video', () => videoPost({}, 'short', media.landscapeVideo), { kind: 'invalid_content', code: 'video_duration' }],
    ['a 2201-character title', () => videoPost({}, 'é'.repeat(2201)), { kind: 'invalid_content', code: 'text_too_long' }],
    ['two videos', () => ({ ...videoPost(), media: [media.video, media.video] }), { kind: 'invalid_content', code: 'media_count' }],
    ['a cover timestamp past the end', () => videoPost({ cover_timestamp: '4000' }), { kind: 'invalid_content', code: 'cover_timestamp_out_of_range' }],
    ['a PNG photo', () => photoPost({}, [media.images[0]!, media.png]), { kind: 'invalid_content', code: 'photo_format' }],
    ['a 91-character photo title', () => photoPost({}, media.images.slice(0, 1), 'x'.repeat(91)), { kind: 'invalid_content', code: 'text_too_long' }],
    ['36 photos', () => photoPost({}, Array.from({ length: 36 }, () => media.images[0]!)), { kind: 'invalid_content', code: 'media_count' }],
  ])('refuses %s before sending anything', async (_label, post, failure) => {
    const { ctx } = await connect(['video_privacy', 'cover_timestamp']);
    const built = typeof post === 'function' ? post() : (post as PublishPost);
    await expect(tiktok.publisher!.publish(ctx, built)).rejects.toMatchObject({ failure });
    expect(sim.requests).toHaveLength(0);
  });
});

describe('simulator wire format', () => {
  it('writes post ids as bare 19-digit JSON numbers, which the adapter keeps exact', async () => {
    const { account, ctx } = await connect([]);
    const { outcome } = await publish(ctx, videoPost());
    const res = await fetch(`${sim.apiBase}/v2/post/publish/status/fetch/`, {
      method: 'POST', headers: { authorization: `Bearer ${ctx.credentials.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ publish_id: outcome.extra!.publish_id }),
    });
    const raw = await res.text();
    expect(raw).toContain(`"publicaly_available_post_id":[${sim.posts(account.openId)[0]!.id}]`);
    expect(outcome.postId).toBe(sim.posts(account.openId)[0]!.id);
  });

  it('enforces the chunk rules, the chunk order and the capability-gated fields', async () => {
    const { account, ctx } = await connect([]);
    const auth = { authorization: `Bearer ${ctx.credentials.access_token}`, 'content-type': 'application/json' };
    const init = (body: unknown) => fetch(`${sim.apiBase}/v2/post/publish/video/init/`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
    const postInfo = { title: 't', privacy_level: 'SELF_ONLY' };

    const badChunks = await init({ post_info: postInfo, source_info: { source: 'FILE_UPLOAD', video_size: 11 * MB, chunk_size: MB, total_chunk_count: 11 } });
    expect(badChunks.status).toBe(400);
    expect(await badChunks.json()).toMatchObject({ error: { code: 'invalid_params', message: 'source_info.chunk_size must be 5-64 MB' } });

    const gated = await init({ post_info: { ...postInfo, music_id: '1' }, source_info: { source: 'PULL_FROM_URL', video_url: 'https://x.example/v.mp4' } });
    expect(await gated.json()).toMatchObject({ error: { code: 'invalid_params', message: 'post_info.music_id is not available for this connection' } });

    const ok = await init({ post_info: postInfo, source_info: { source: 'FILE_UPLOAD', video_size: 11 * MB, chunk_size: 5 * MB, total_chunk_count: 2 } });
    const { data } = (await ok.json()) as { data: { upload_url: string } };
    const outOfOrder = await fetch(data.upload_url, {
      method: 'PUT', headers: { 'content-type': 'video/mp4', 'content-range': `bytes ${5 * MB}-${11 * MB - 1}/${11 * MB}` }, body: Buffer.alloc(6 * MB),
    });
    expect(outOfOrder.status).toBe(416);
    expect(sim.publishJobs(account.openId)[0]).toMatchObject({ status: 'PROCESSING_UPLOAD', chunksReceived: 0 });
  });

  it('answers the rate limit with retry headers, and the seventh init in a minute for real', async () => {
    const { ctx } = await connect([]);
    const init = () => fetch(`${sim.apiBase}/v2/post/publish/inbox/video/init/`, {
      method: 'POST', headers: { authorization: `Bearer ${ctx.credentials.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ source_info: { source: 'PULL_FROM_URL', video_url: media.access.publicUrl(media.video.id) } }),
    });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await init()).status);
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    // Five drafts pending is TikTok's backlog cap; the seventh call is past the per-minute limit.
    expect(statuses[5]).toBe(403);
    const limited = await init();
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('30');
    expect(await limited.json()).toMatchObject({ error: { code: 'rate_limit_exceeded' } });
  });

  it('keeps a failure queued for an init until an init comes, and exposes it in the state', async () => {
    const res = await fetch(`${sim.origin}/__sim/failures`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode: 'spam_risk_text' }),
    });
    expect(res.status).toBe(200);
    const { ctx } = await connect([]);
    expect(sim.state()).toMatchObject({ deferredFailures: ['spam_risk_text'] });
    await expect(publish(ctx, videoPost())).rejects.toMatchObject({ failure: { kind: 'rejected', code: 'spam_risk_text' } });
  });

  it('refuses capability lists that mix the exclusive groups', () => {
    expect(() => sim.createAccount({ username: 'mixed', capabilities: ['video_privacy', 'music'] })).toThrow(/mutually exclusive/);
  });
});

describe('media library and helpers', () => {
  it('a connection without the grant the helpers need answers tiktok_reconnect_required before any call', async () => {
    const { ctx } = await connect([]);
    const old = { ...ctx.credentials, scope: 'user.info.basic,video.upload' };
    for (const call of [() => tiktok.lookups!.read!({ credentials: old }, 'settings'), () => tiktok.lookups!.list({ credentials: old }, 'music_trending'),
      () => tiktok.lookups!.list({ credentials: old }, 'locations', { query: 'paris' })]) {
      await expect(call()).rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'tiktok_reconnect_required' } });
    }
    expect(calls()).toEqual([]);
  });

  it('lists videos only with the video.list scope: an older grant is auth_expired (scope_not_authorized)', async () => {
    const account = sim.createAccount({ username: 'nolist', displayName: 'No List', capabilities: [] });
    const code = sim.issueAuthCode(account.openId, { clientKey: client.clientKey, redirectUri: REDIRECT, scope: 'user.info.basic,video.publish,video.upload' });
    const { credentials } = await tiktok.oauth!.exchangeCode({ code, redirectUri: REDIRECT });
    await expect(tiktok.mediaLibrary!.list({ credentials }, { limit: 5 })).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'scope_not_authorized' } });
  });

  it('asks for at most 20 videos with TikTok\'s millisecond cursor, and refuses a cursor it did not hand out', async () => {
    const account = sim.createAccount({ username: 'lister', displayName: 'Lister', capabilities: [] });
    const code = sim.issueAuthCode(account.openId, { clientKey: client.clientKey, redirectUri: REDIRECT, scope: 'user.info.basic,video.publish,video.upload,video.list' });
    const ctx = { credentials: (await tiktok.oauth!.exchangeCode({ code, redirectUri: REDIRECT })).credentials };
    sim.requests.splice(0);
    await expect(tiktok.mediaLibrary!.list(ctx, { limit: 20, cursor: 'abc' })).rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'invalid_cursor' } });
    await tiktok.mediaLibrary!.list(ctx, { limit: 20, cursor: '1700000000000' });
    expect(bodyOf('/v2/video/list/')).toEqual({ max_count: 20, cursor: 1700000000000 });
    expect(sim.requests.find((r) => r.path === '/v2/video/list/')!.query.fields).toBe('id,create_time,cover_image_url,share_url,title,video_description');
  });
});

describe('comments over API for Business', () => {
  const setup = async () => {
    const { account, ctx } = await connect(['video_privacy', 'comments']);
    const { outcome } = await publish(ctx, videoPost());
    const post = { id: outcome.postId };
    return { account, ctx, post, fan: sim.seedComment({ postId: outcome.postId, text: 'Great video', authorName: 'a.fan' }).id };
  };

  it('speaks the documented calls: GET list with business_id and max_count, hide/pin by video, like without it', async () => {
    const { account, ctx, post, fan } = await setup();
    sim.requests.splice(0);
    const page = await tiktok.comments!.list!(ctx, post, { limit: 100 });
    expect(page.items).toEqual([expect.objectContaining({ ref: { id: fan, post }, text: 'Great video', authorName: 'a.fan', hidden: false, isOwner: false })]);
    await tiktok.comments!.act!(ctx, { action: 'hide', comment: { id: fan, post }, post });
    await tiktok.comments!.act!(ctx, { action: 'like', comment: { id: fan, post }, post });
    expect(calls()).toEqual(['GET /open_api/v1.3/business/comment/list/', 'POST /open_api/v1.3/business/comment/hide/', 'POST /open_api/v1.3/business/comment/like/']);
    expect(sim.requests[0]!.query).toEqual({ business_id: account.openId, video_id: post.id, max_count: '30' });
    expect(sim.requests[1]!.body).toEqual({ business_id: account.openId, comment_id: fan, action: 'HIDE', video_id: post.id });
    expect(sim.requests[2]!.body).toEqual({ business_id: account.openId, comment_id: fan, action: 'LIKE' });
    expect(sim.comments(post.id)[0]).toMatchObject({ hidden: true, liked: true });
  });

  it('lists a comment written through the API only after the listing delay (TikTok: ~10 s, the default)', async () => {
    const { ctx, post, fan } = await setup();
    const created = await tiktok.comments!.create(ctx, { post, text: 'Thanks!' });
    expect((await tiktok.comments!.list!(ctx, post, {})).items.map((c) => c.ref.id)).toEqual([fan]);
    sim.setCommentListingDelay(0);
    expect((await tiktok.comments!.list!(ctx, post, {})).items.map((c) => c.ref.id)).toEqual([fan, created.comment!.id]);
  });

  it('refuses what TikTok refuses: deleting or hiding across ownership, replying to a reply, pinning a reply', async () => {
    const { ctx, post, fan } = await setup();
    sim.setCommentListingDelay(0);
    const own = (await tiktok.comments!.create(ctx, { post, text: 'Ours' })).comment!;
    const reply = (await tiktok.comments!.create(ctx, { post, text: 'A reply', replyTo: { id: fan, post } })).comment!;
    expect(await rejection(tiktok.comments!.remove!(ctx, { id: fan, post }))).toMatchObject({ failure: { kind: 'rejected', code: 'not_owner' } });
    expect(await rejection(tiktok.comments!.act!(ctx, { action: 'hide', comment: { id: own.id, post }, post }))).toMatchObject({ failure: { kind: 'invalid_content', code: 'invalid_params' } });
    expect(await rejection(tiktok.comments!.create(ctx, { post, text: 'Deeper', replyTo: { id: reply.id, post } }))).toMatchObject({ failure: { kind: 'invalid_content' } });
    expect(await rejection(tiktok.comments!.act!(ctx, { action: 'pin', comment: { id: reply.id, post }, post }))).toMatchObject({ message: expect.stringContaining('Only top-level comments can be pinned.') });
    expect((await tiktok.comments!.list!(ctx, post, { parent: { id: fan, post } })).items.map((c) => c.ref.id)).toEqual([reply.id]);
    await tiktok.comments!.remove!(ctx, { id: own.id, post });
    expect(sim.comments(post.id).map((c) => c.id)).toEqual([fan, reply.id]);
  });
});
