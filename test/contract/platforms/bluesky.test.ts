import { HeraldError, PlatformError } from '../../../core/domain/errors';
import { postFirstComment } from '../../support/first-comment';
import { resolveSettings } from '../../../core/domain/settings';
import {
  textLengthOf, type MediaRef, type PlatformAdapter, type PlatformCredentials, type PublishContext, type PublishOutcome, type PublishPost,
} from '../../../core/ports/platform';
import { createBlueskyPlatform, mapBlueskyFailure } from '../../../adapters/platforms/bluesky';
import { startBlueskySimulator, type BlueskySimulator } from '../../../ops/simulators/bluesky';
import { drivePublish, mediaFixtures, textPost, type MediaFixtures , FIXTURE_TIMEOUT_MS } from '../../support/platform-harness';
import { noMedia } from '../../support/media-access';

let sim: BlueskySimulator;
let media: MediaFixtures;
let bluesky: PlatformAdapter;
let handles = 0;

const options = () => ({ apiBase: sim.serviceUrl, videoBase: sim.videoBaseUrl, timeoutMs: 5000, videoPollMs: 20 });

beforeAll(async () => {
  [sim, media] = await Promise.all([startBlueskySimulator({ processingMs: 50 }), mediaFixtures()]);
  bluesky = createBlueskyPlatform(options());
}, FIXTURE_TIMEOUT_MS);
afterAll(async () => {
  await Promise.all([sim?.close(), media?.close()]);
});
beforeEach(() => sim.reset());

async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a rejection');
}

const calls = (nsid: string) => sim.requests.filter((r) => r.path.endsWith(`/xrpc/${nsid}`));
const jwtPayload = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
const bearerOf = (r: { headers: Record<string, unknown> }) => String(r.headers.authorization).replace(/^Bearer /, '');

/** A fresh sim account, connected through the adapter; the connect requests are cleared. */
async function connect(input: { emailConfirmed?: boolean; displayName?: string; avatar?: string } = {}, adapter = bluesky) {
  handles += 1;
  const account = sim.createAccount({ handle: `user${handles}.test`, displayName: `User ${handles}`, ...input });
  const verified = await adapter.credentials!.verify({ identifier: account.handle, app_password: account.appPassword });
  sim.requests.splice(0);
  return { ...account, credentials: verified.credentials, identity: verified.identity };
}

const ctxFor = (credentials: PlatformCredentials, extra: Partial<PublishContext> = {}): PublishContext =>
  ({ credentials, idempotencyKey: 'idem-1', media: media.access, ...extra });

const photoPost = (photos: MediaRef[], settings: Record<string, unknown> = {}, title = 'Photos'): PublishPost =>
  ({ kind: 'photo', title, media: photos, settings });
const videoPost = (video: MediaRef, settings: Record<string, unknown> = {}, title = 'A video'): PublishPost =>
  ({ kind: 'video', title, media: [video], settings });

async function publish(credentials: PlatformCredentials, post: PublishPost, adapter = bluesky): Promise<PublishOutcome> {
  return (await drivePublish(adapter, ctxFor(credentials, post.kind === 'text' ? { media: noMedia } : {}), post, { maxWaitMs: 30 })).outcome;
}

const createRecordBodies = () => calls('com.atproto.repo.createRecord').map((r) => r.body as { repo: string; collection: string; rkey?: string; record: Record<string, any> });

describe('descriptor and settings', () => {
  const resolve = (fields: Record<string, unknown>, endpoint: 'text' | 'photo' | 'video' = 'photo', mediaCount = 2) =>
    resolveSettings('bluesky', bluesky.descriptor.settings, fields, { endpoint, mediaCount });

  it('declares a credentials network on text, photo and video with the spec limits', () => {
    expect(bluesky.descriptor).toMatchObject({
      id: 'bluesky', connect: 'credentials', endpoints: ['text', 'photo', 'video'],
      limits: { textMaxChars: 300, video: { maxBytes: 300_000_000, maxSeconds: 600 }, photo: { maxBytes: 1_000_000, maxCount: 20 } },
    });
  });

  it('counts text as the publisher does: graphemes (👍🏽 is one)', () => {
    expect(textLengthOf(bluesky.descriptor, '👍🏽'.repeat(300))).toBe(300);
  });

  it('declares the credential fields the connector reads (identifier and app_password, both required)', () => {
    expect(bluesky.descriptor.credentialFields!.fields.map((f) => [f.name, f.type, f.required === true])).toEqual([
      ['identifier', 'string', true],
      ['app_password', 'string', true],
    ]);
  });

  it('applies defaults and folds aliases into the canonical names', () => {
    const r = resolve({
      bluesky_reply_settings: 'mention,followers', bluesky_quote_settings: 'disable_quotes', bluesky_quote_id: 'at://did:plc:abc/app.bsky.feed.post/3l2s5xxv2ze2c',
      bluesky_langs: 'en,pt-BR', bluesky_labels: 'nudity', bluesky_alt_text: 'first||second',
    });
    expect(r.violations).toEqual([]);
    expect(r.values).toEqual({
      bluesky_threadgate: ['mention', 'followers'], bluesky_postgate: 'disable_quotes', bluesky_quote_uri: 'at://did:plc:abc/app.bsky.feed.post/3l2s5xxv2ze2c',
      bluesky_langs: ['en', 'pt-BR'], bluesky_labels: ['nudity'], bluesky_alt_text: 'first||second', bluesky_gallery: false,
    });
    expect(r.consumed).toEqual(expect.arrayContaining(['bluesky_reply_settings', 'bluesky_quote_settings', 'bluesky_quote_id']));
    expect(resolve({}).values).toEqual({ bluesky_gallery: false, bluesky_threadgate: ['everyone'] });
  });

  it.each([
    [{ bluesky_langs: 'en,de,fr,es' }, 'bluesky_langs', /at most 3/],
    [{ bluesky_langs: 'english' }, 'bluesky_langs', /BCP-47/],
    [{ bluesky_labels: 'spoiler' }, 'bluesky_labels', /allowed: porn, sexual, nudity, graphic-media/],
    [{ bluesky_threadgate: 'nobody,mention' }, 'bluesky_threadgate', /cannot be combined/],
    [{ bluesky_threadgate: 'list:https://example.com' }, 'bluesky_threadgate', /allowed/],
    [{ bluesky_postgate: 'maybe' }, 'bluesky_postgate', /disable_quotes/],
    [{ bluesky_quote_uri: 'https://example.com/not-a-post' }, 'bluesky_quote_uri', /post URL/],
    [{ bluesky_alt_text: 'a||b||c' }, 'bluesky_alt_text', /3 texts for 2 photos/],
    [{ bluesky_alt_text: '["a", 1]' }, 'bluesky_alt_text', /JSON array of strings/],
    [{ bluesky_gallery: 'sometimes' }, 'bluesky_gallery', /true or false/],
  ])('%j is a violation of %s', (fields, field, message) => {
    const { violations } = resolve(fields);
    expect(violations).toEqual([expect.objectContaining({ field, message: expect.stringMatching(message) })]);
  });

  it('takes one alt text on a video, and ignores the gallery switch there with a warning', () => {
    expect(resolve({ bluesky_alt_text: 'a||b' }, 'video', 1).violations).toEqual([expect.objectContaining({ field: 'bluesky_alt_text' })]);
    const r = resolve({ bluesky_gallery: 'true', bluesky_threadgate: 'list:at://did:plc:abc/app.bsky.graph.list/3kabc' }, 'video', 1);
    expect(r.violations).toEqual([]);
    expect(r.warnings).toEqual(['bluesky_gallery is not used by bluesky on this endpoint and was ignored.']);
    expect(r.values.bluesky_gallery).toBeUndefined();
  });
});

describe('connect', () => {
  it('creates a session with the app password and reads the profile of the DID', async () => {
    const account = sim.createAccount({ handle: 'alice.test', displayName: 'Alice', avatar: 'https://cdn.example/alice.jpg' });
    const before = Date.now();
    const { identity, credentials } = await bluesky.credentials!.verify({ identifier: '@Alice.test', app_password: account.appPassword });
    expect(identity).toEqual({ platformUserId: account.did, handle: 'alice.test', displayName: 'Alice', avatarUrl: 'https://cdn.example/alice.jpg' });
    expect(Object.keys(credentials).sort()).toEqual(['access_jwt', 'did', 'email_confirmed', 'expires_at', 'handle', 'refresh_jwt', 'service']);
    expect(credentials).toMatchObject({ did: account.did, handle: 'alice.test', service: sim.origin, email_confirmed: 'true' });
    const expiresIn = Date.parse(credentials.expires_at!) - before;
    expect(expiresIn).toBeGreaterThan(2 * 3600_000 - 5000);
    expect(expiresIn).toBeLessThanOrEqual(2 * 3600_000 + 1000);
    expect(JSON.stringify(credentials)).not.toContain(account.appPassword);

    const [session, profile] = sim.requests;
    expect(sim.requests).toHaveLength(2);
    expect(session).toMatchObject({ method: 'POST', path: '/xrpc/com.atproto.server.createSession', body: { identifier: 'alice.test', password: account.appPassword } });
    expect(profile).toMatchObject({ method: 'GET', path: '/xrpc/app.bsky.actor.getProfile', query: { actor: account.did } });
    expect(bearerOf(profile!)).toBe(credentials.access_jwt);
  });

  it('uses the handle as display name when the profile has none', async () => {
    const { identity } = await connect({ displayName: '' });
    expect(identity.displayName).toBe(identity.handle);
    expect(identity.avatarUrl).toBe('');
  });

  it.each([
    [{ identifier: 'alice.test', app_password: 'my-real-password' }, 'app_password'],
    [{ identifier: '', app_password: 'abcd-efgh-ijkl-mnop' }, 'identifier'],
    [{ identifier: 'alice.test' }, 'app_password'],
  ])('refuses %j as invalid_input without calling Bluesky', async (input, field) => {
    const err = await rejection(bluesky.credentials!.verify(input));
    expect(err).toBeInstanceOf(HeraldError);
    expect(err).toMatchObject({ kind: 'invalid_input', details: { field } });
    expect(err.message).not.toContain('my-real-password');
    expect(sim.requests).toHaveLength(0);
  });

  it('maps a wrong app password to auth_expired and a taken-down account to rejected', async () => {
    const account = sim.createAccount({ handle: 'bob.test' });
    await expect(bluesky.credentials!.verify({ identifier: 'bob.test', app_password: 'aaaa-bbbb-cccc-dddd' }))
      .rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'authentication_required' }, upstream: { status: 401, code: 'AuthenticationRequired' } });
    sim.fail('account_takedown');
    await expect(bluesky.credentials!.verify({ identifier: 'bob.test', app_password: account.appPassword }))
      .rejects.toMatchObject({ failure: { kind: 'rejected', code: 'account_takedown' } });
  });

  it('refresh rotates both tokens; the old refresh token stops working', async () => {
    const { credentials } = await connect();
    const renewed = await bluesky.refresher!.refresh(credentials);
    expect(renewed).toMatchObject({ did: credentials.did, handle: credentials.handle, service: credentials.service, email_confirmed: 'true' });
    expect(renewed.access_jwt).not.toBe(credentials.access_jwt);
    expect(renewed.refresh_jwt).not.toBe(credentials.refresh_jwt);
    const [call] = calls('com.atproto.server.refreshSession');
    expect(call).toMatchObject({ method: 'POST' });
    expect(bearerOf(call!)).toBe(credentials.refresh_jwt);

    await expect(bluesky.refresher!.refresh(credentials))
      .rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'token_invalid' }, upstream: { status: 401, code: 'InvalidToken' } });
    await publish(renewed, textPost('after refresh'));
    expect(sim.posts(credentials.did).map((p) => p.value.text)).toEqual(['after refresh']);
  });

  it('an expired refresh token means reconnecting', async () => {
    const { credentials, did } = await connect();
    sim.expireRefreshTokens(did);
    await expect(bluesky.refresher!.refresh(credentials)).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'token_expired' }, upstream: { code: 'ExpiredToken' } });

    // A refresh JWT past its own exp is not even sent.
    const stale = `e30.${Buffer.from(JSON.stringify({ scope: 'com.atproto.refresh', exp: Math.floor(Date.now() / 1000) - 60 })).toString('base64url')}.x`;
    sim.requests.splice(0);
    await expect(bluesky.refresher!.refresh({ ...credentials, refresh_jwt: stale })).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'refresh_token_expired' } });
    expect(sim.requests).toHaveLength(0);
  });
});

describe('clock', () => {
  it('a refresh JWT past its exp on the injected clock is refused without asking Bluesky', async () => {
    const { credentials } = await connect();
    const exp = jwtPayload(credentials.refresh_jwt!).exp as number;
    const later = createBlueskyPlatform({ ...options(), now: () => new Date(exp * 1000 + 1000) });
    await expect(later.refresher!.refresh(credentials)).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'refresh_token_expired' } });
    expect(sim.requests).toHaveLength(0);
  });

  it("dates the post record and its gates with the injected clock", async () => {
    const now = new Date('2031-05-01T10:00:00.000Z');
    const clocked = createBlueskyPlatform({ ...options(), now: () => now });
    const { credentials } = await connect({}, clocked);
    await publish(credentials, textPost('dated', { bluesky_threadgate: ['nobody'] }), clocked);
    expect(createRecordBodies().map((b) => [b.collection, b.record.createdAt])).toEqual([
      ['app.bsky.feed.post', now.toISOString()],
      ['app.bsky.feed.threadgate', now.toISOString()],
    ]);
  });

  it('a 429 waits until RateLimit-Reset on the injected clock', () => {
    const now = new Date('2031-05-01T10:00:00.000Z');
    const headers = new Headers({ 'ratelimit-reset': String(now.getTime() / 1000 + 90) });
    const err = mapBlueskyFailure({ kind: 'response', status: 429, headers, body: { error: 'RateLimitExceeded' } }, { timeoutMs: 1, now });
    expect(err.failure).toEqual({ kind: 'rate_limited', retryAfterMs: 90_000 });
  });
});

describe('publish text', () => {
  it('creates a post record with link, mention and tag facets at UTF-8 byte offsets, langs and labels', async () => {
    const friend = sim.createAccount({ handle: 'friend.test' });
    const { credentials, did, handle } = await connect();
    const text = 'Héllo 😀 @friend.test see https://example.com/a?b=1. #release (and @nobody.test)';
    const outcome = await publish(credentials, textPost(text, { bluesky_langs: ['en', 'fr'], bluesky_labels: ['graphic-media'], bluesky_threadgate: ['everyone'] }));

    const [body] = createRecordBodies();
    expect(createRecordBodies()).toHaveLength(1);
    const at = (s: string) => ({ byteStart: Buffer.byteLength(text.slice(0, text.indexOf(s))), byteEnd: Buffer.byteLength(text.slice(0, text.indexOf(s) + s.length)) });
    expect(body).toEqual({
      repo: did,
      collection: 'app.bsky.feed.post',
      record: {
        $type: 'app.bsky.feed.post',
        text,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        facets: [
          { index: at('@friend.test'), features: [{ $type: 'app.bsky.richtext.facet#mention', did: friend.did }] },
          { index: at('https://example.com/a?b=1'), features: [{ $type: 'app.bsky.richtext.facet#link', uri: 'https://example.com/a?b=1' }] },
          { index: at('#release'), features: [{ $type: 'app.bsky.richtext.facet#tag', tag: 'release' }] },
        ],
        langs: ['en', 'fr'],
        labels: { $type: 'com.atproto.label.defs#selfLabels', values: [{ val: 'graphic-media' }] },
      },
    });
    expect(calls('com.atproto.identity.resolveHandle').map((r) => r.query.handle)).toEqual(['friend.test', 'nobody.test']);

    const [stored] = sim.posts(did);
    expect(outcome).toEqual({
      postId: stored!.uri,
      url: `https://bsky.app/profile/${handle}/post/${stored!.rkey}`,
      warnings: [],
      extra: { cid: stored!.cid },
    });
    expect(stored!.rkey).toMatch(/^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/);
    expect(stored!.cid).toMatch(/^bafyrei[a-z2-7]{52}$/);
    expect(sim.records('app.bsky.feed.threadgate')).toHaveLength(0);
  });

  it('adds a threadgate and a postgate under the post rkey', async () => {
    const { credentials, did } = await connect();
    const list = `at://${did}/app.bsky.graph.list/3kaaaaaaaaaaa`;
    const outcome = await publish(credentials, textPost('gated', { bluesky_threadgate: ['mention', 'following', 'followers', `list:${list}`], bluesky_postgate: 'disable_quotes' }));
    const rkey = outcome.postId.split('/').pop();
    const [, gate, postgate] = createRecordBodies();
    expect(gate).toEqual({
      repo: did, collection: 'app.bsky.feed.threadgate', rkey,
      record: {
        $type: 'app.bsky.feed.threadgate', post: outcome.postId, createdAt: expect.any(String),
        allow: [
          { $type: 'app.bsky.feed.threadgate#mentionRule' }, { $type: 'app.bsky.feed.threadgate#followingRule' },
          { $type: 'app.bsky.feed.threadgate#followerRule' }, { $type: 'app.bsky.feed.threadgate#listRule', list },
        ],
      },
    });
    expect(postgate).toEqual({
      repo: did, collection: 'app.bsky.feed.postgate', rkey,
      record: { $type: 'app.bsky.feed.postgate', post: outcome.postId, createdAt: expect.any(String), embeddingRules: [{ $type: 'app.bsky.feed.postgate#disableRule' }] },
    });
    expect(sim.records(undefined, did).map((r) => r.collection)).toEqual(['app.bsky.feed.post', 'app.bsky.feed.threadgate', 'app.bsky.feed.postgate']);
  });

  it('nobody may reply: an empty allow list; postgate "true" also disables quotes', async () => {
    const { credentials } = await connect();
    await publish(credentials, textPost('closed', { bluesky_threadgate: ['nobody'], bluesky_postgate: 'true' }));
    const [, gate, postgate] = createRecordBodies();
    expect(gate!.record.allow).toEqual([]);
    expect(postgate!.collection).toBe('app.bsky.feed.postgate');
  });

  it('a gate that fails after the post exists becomes a warning, not a failed (and retried) publish', async () => {
    const { credentials, did } = await connect();
    const failing: typeof fetch = async (url, init) => {
      if (typeof init?.body === 'string' && init.body.includes('app.bsky.feed.threadgate')) sim.fail('server_error');
      return fetch(url, init);
    };
    const outcome = await publish(credentials, textPost('hello', { bluesky_threadgate: ['nobody'] }), createBlueskyPlatform({ ...options(), fetch: failing }));
    expect(outcome.warnings).toEqual([expect.stringMatching(/bluesky_threadgate.*not applied.*HTTP 500/)]);
    expect(sim.posts(did)).toHaveLength(1);
  });

  it('quotes a post given by its bsky.app URL, resolved to uri and cid with getRecord', async () => {
    const author = await connect();
    const quoted = await publish(author.credentials, textPost('quote me'));
    const { credentials } = await connect();
    sim.requests.splice(0);
    await publish(credentials, textPost('look', { bluesky_quote_uri: quoted.url }));
    expect(calls('com.atproto.repo.getRecord')[0]!.query).toEqual({ repo: author.handle, collection: 'app.bsky.feed.post', rkey: quoted.postId.split('/').pop() });
    expect(createRecordBodies()[0]!.record.embed).toEqual({ $type: 'app.bsky.embed.record', record: { uri: quoted.postId, cid: quoted.extra!.cid } });
  });

  it('a quote of a missing post is invalid_content before anything is created', async () => {
    const { credentials, did } = await connect();
    await expect(publish(credentials, textPost('look', { bluesky_quote_uri: `at://${did}/app.bsky.feed.post/3kaaaaaaaaaaa` })))
      .rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'record_not_found' }, upstream: { status: 400 } });
    expect(calls('com.atproto.repo.createRecord')).toHaveLength(0);
  });

  it('counts graphemes: 300 emoji with skin tones pass, 301 are refused without sending', async () => {
    const { credentials, did } = await connect();
    await publish(credentials, textPost('👍🏽'.repeat(300)));
    expect(sim.posts(did)).toHaveLength(1);
    sim.requests.splice(0);
    const err = await rejection(publish(credentials, textPost('👍🏽'.repeat(301))));
    expect(err).toMatchObject({ failure: { kind: 'invalid_content', code: 'text_too_long' } });
    expect(err.message).toMatch(/300 characters; this text has 301/);
    await expect(publish(credentials, textPost('  '))).rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'text_empty' } });
    expect(sim.requests).toHaveLength(0);
  });
});

describe('publish photos', () => {
  it('uploads each image as a blob and embeds them with alt text and aspect ratio', async () => {
    const { credentials, did } = await connect();
    const photos = media.images.slice(0, 2);
    const outcome = await publish(credentials, photoPost(photos, { bluesky_alt_text: 'A blue square||', bluesky_langs: ['en'] }, 'Two photos'));
    const uploads = calls('com.atproto.repo.uploadBlob');
    expect(uploads.map((u) => ({ type: u.headers['content-type'], body: u.body }))).toEqual(photos.map((p) => ({ type: 'image/jpeg', body: { contentType: 'image/jpeg', size: p.size } })));
    const blobs = sim.blobs(did);
    const [body] = createRecordBodies();
    expect(body!.record).toMatchObject({ text: 'Two photos', langs: ['en'] });
    expect(body!.record.embed).toEqual({
      $type: 'app.bsky.embed.images',
      images: blobs.map((b, i) => ({
        image: { $type: 'blob', ref: { $link: b.cid }, mimeType: 'image/jpeg', size: photos[i]!.size },
        alt: i === 0 ? 'A blue square' : '',
        aspectRatio: { width: 1080, height: 1350 },
      })),
    });
    expect(outcome.warnings).toEqual([]);
  });

  it('keeps 4 images per post and warns about the dropped ones', async () => {
    const { credentials, did } = await connect();
    const outcome = await publish(credentials, photoPost(media.images));
    expect(calls('com.atproto.repo.uploadBlob')).toHaveLength(4);
    expect(sim.posts(did)[0]!.value.embed).toMatchObject({ images: { length: 4 } });
    expect(outcome.warnings).toEqual([expect.stringMatching(/4 images per post.*last 2 were dropped/)]);
  });

  it('a gallery posts a thread of 4-image posts; the first comment replies to its last post', async () => {
    const { credentials, did } = await connect();
    const outcome = await publish(credentials, photoPost(media.images, { bluesky_gallery: true, bluesky_postgate: 'disable_quotes' }));
    const [root, second] = sim.posts(did);
    expect(root!.value.embed).toMatchObject({ images: { length: 4 } });
    expect(second!.value).toMatchObject({ text: '', embed: { images: { length: 2 } }, reply: { root: { uri: root!.uri, cid: root!.cid }, parent: { uri: root!.uri, cid: root!.cid } } });
    expect(outcome.extra).toEqual({ cid: root!.cid, thread: [root, second].map((p) => ({ uri: p!.uri, cid: p!.cid, url: expect.stringContaining(p!.rkey) })) });
    expect(sim.records('app.bsky.feed.postgate', did).map((r) => r.rkey)).toEqual([root!.rkey, second!.rkey]);

    const comment = await postFirstComment(bluesky, ctxFor(credentials), { post: outcome, text: 'More in the thread' });
    const [reply] = sim.comments(did).filter((c) => c.value.text === 'More in the thread');
    expect(comment).toEqual({ commentId: reply!.uri });
    expect(reply!.value.reply).toEqual({ root: { uri: root!.uri, cid: root!.cid }, parent: { uri: second!.uri, cid: second!.cid } });
  });

  it('images with a quote become recordWithMedia', async () => {
    const author = await connect();
    const quoted = await publish(author.credentials, textPost('original'));
    const { credentials } = await connect();
    await publish(credentials, photoPost([media.png], { bluesky_quote_uri: quoted.postId }));
    expect(createRecordBodies()[0]!.record.embed).toEqual({
      $type: 'app.bsky.embed.recordWithMedia',
      record: { $type: 'app.bsky.embed.record', record: { uri: quoted.postId, cid: quoted.extra!.cid } },
      media: { $type: 'app.bsky.embed.images', images: [expect.objectContaining({ image: expect.objectContaining({ mimeType: 'image/png' }), aspectRatio: { width: 800, height: 800 } })] },
    });
  });

  it.each([
    ['an image over 1 MB', () => [{ ...media.images[0]!, size: 1_000_001 }], 'media_too_large', /1 MB.*photo 1 has 1000001 bytes/],
    ['a video among the photos', () => [media.images[0]!, media.video], 'media_type_unsupported', /photo 2 is video\/mp4/],
    ['no photo at all', () => [], 'media_missing', /at least one image/],
  ])('refuses %s before sending anything', async (_label, photos, code, message) => {
    const { credentials } = await connect();
    const err = await rejection(publish(credentials, photoPost(photos())));
    expect(err).toMatchObject({ failure: { kind: 'invalid_content', code } });
    expect(err.message).toMatch(message);
    expect(sim.requests).toHaveLength(0);
  });
});

describe('publish video', () => {
  it('checks limits, uploads to the video service with a PDS service token, waits for the job, then posts', async () => {
    const { credentials, did, handle } = await connect();
    const start = Date.now();
    const { outcome, steps } = await drivePublish(bluesky, ctxFor(credentials), videoPost(media.video, { bluesky_alt_text: 'Test pattern', bluesky_labels: ['nudity'] }), { maxWaitMs: 30 });
    expect(steps).toBeGreaterThan(1);

    expect(sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /xrpc/com.atproto.server.getServiceAuth',
      'GET /video/xrpc/app.bsky.video.getUploadLimits',
      'GET /xrpc/com.atproto.server.getServiceAuth',
      'POST /video/xrpc/app.bsky.video.uploadVideo',
      ...Array(steps - 1).fill('GET /video/xrpc/app.bsky.video.getJobStatus'),
      'POST /xrpc/com.atproto.repo.createRecord',
    ]);
    const [limitsAuth, uploadAuth] = calls('com.atproto.server.getServiceAuth');
    expect(limitsAuth!.query).toMatchObject({ aud: 'did:web:video.bsky.app', lxm: 'app.bsky.video.getUploadLimits' });
    const pdsDid = `did:web:${encodeURIComponent(new URL(sim.origin).host)}`;
    expect(uploadAuth!.query).toMatchObject({ aud: pdsDid, lxm: 'com.atproto.repo.uploadBlob' });
    const exp = Number(uploadAuth!.query.exp);
    expect(exp * 1000 - start).toBeGreaterThan(29 * 60_000);
    expect(exp * 1000 - start).toBeLessThanOrEqual(30 * 60_000 + 5000);

    const [upload] = calls('app.bsky.video.uploadVideo');
    expect(upload!.query).toEqual({ did, name: expect.stringMatching(/^[0-9a-f]{16}\.mp4$/) });
    expect(upload!.headers['content-type']).toBe('video/mp4');
    expect(upload!.body).toEqual({ contentType: 'video/mp4', size: media.video.size });
    expect(jwtPayload(bearerOf(upload!))).toMatchObject({ iss: did, aud: pdsDid, lxm: 'com.atproto.repo.uploadBlob' });
    expect(calls('app.bsky.video.getJobStatus').every((r) => r.headers.authorization === undefined)).toBe(true);

    const [job] = sim.videoJobs();
    expect(job).toMatchObject({ state: 'JOB_STATE_COMPLETED', size: media.video.size });
    expect(createRecordBodies()[0]!.record).toMatchObject({
      text: 'A video',
      labels: { values: [{ val: 'nudity' }] },
      embed: {
        $type: 'app.bsky.embed.video',
        video: { $type: 'blob', ref: { $link: job!.blobCid }, mimeType: 'video/mp4', size: media.video.size },
        alt: 'Test pattern',
        aspectRatio: { width: 720, height: 1280 },
      },
    });
    expect(outcome.url).toBe(`https://bsky.app/profile/${handle}/post/${sim.posts(did)[0]!.rkey}`);
  });

  it('the first step hands back a JSON state with the job id, and resume polls it', async () => {
    const { credentials } = await connect();
    const step = await bluesky.publisher!.publish(ctxFor(credentials), videoPost(media.landscapeVideo));
    expect(step).toEqual({ kind: 'wait', afterMs: 20, state: { phase: 'video_processing', jobId: sim.videoJobs()[0]!.jobId, quote: null, startedAt: expect.any(String) } });
    await expect(bluesky.publisher!.resume!(ctxFor(credentials), videoPost(media.landscapeVideo), { phase: 'nonsense' }))
      .rejects.toMatchObject({ failure: { kind: 'rejected', code: 'invalid_state' } });
  });

  it('sending the same video again reuses the job the service reports as already_exists', async () => {
    const { credentials, did } = await connect();
    await publish(credentials, videoPost(media.landscapeVideo));
    await publish(credentials, videoPost(media.landscapeVideo, {}, 'again'));
    expect(sim.videoJobs()).toHaveLength(1);
    expect(sim.posts(did).map((p) => p.value.text)).toEqual(['A video', 'again']);
  });

  it('an account stored without a confirmed email is checked with getSession and refused unconfirmed_email', async () => {
    const { credentials, did } = await connect({ emailConfirmed: false });
    expect(credentials.email_confirmed).toBe('false');
    await expect(publish(credentials, videoPost(media.video))).rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'unconfirmed_email' } });
    expect(sim.requests.map((r) => r.path)).toEqual(['/xrpc/com.atproto.server.getSession']);

    sim.setEmailConfirmed(did, true);
    sim.requests.splice(0);
    await publish(credentials, videoPost(media.video));
    expect(calls('com.atproto.server.getSession')).toHaveLength(1);
    expect(sim.posts(did)).toHaveLength(1);
  });

  it.each([
    ['unconfirmed_email', { kind: 'invalid_content', code: 'unconfirmed_email' }, 1],
    ['video_daily_limit', { kind: 'rate_limited', retryAfterMs: 3_600_000 }, 0],
    ['video_processing_failed', { kind: 'invalid_content', code: 'video_rejected' }, 1],
  ] as const)('the video service verdict %s maps to %j', async (mode, failure, uploads) => {
    const { credentials, did } = await connect();
    sim.fail(mode);
    await expect(publish(credentials, videoPost(media.video))).rejects.toMatchObject({ failure });
    expect(calls('app.bsky.video.uploadVideo')).toHaveLength(uploads);
    expect(sim.posts(did)).toHaveLength(0);
  });

  it.each([
    ['longer than 10 minutes', () => ({ ...media.video, info: { ...media.video.info!, durationSeconds: 601 } }), 'video_too_long'],
    ['over 300 MB', () => ({ ...media.video, size: 300_000_001 }), 'media_too_large'],
    ['of an unsupported type', () => ({ ...media.video, contentType: 'video/x-msvideo' }), 'media_type_unsupported'],
  ])('refuses a video %s before sending anything', async (_label, video, code) => {
    const { credentials } = await connect();
    await expect(publish(credentials, videoPost(video()))).rejects.toMatchObject({ failure: { kind: 'invalid_content', code } });
    expect(sim.requests).toHaveLength(0);
  });
});

describe('first comment', () => {
  it('is a reply whose root and parent are the post', async () => {
    const { credentials, did } = await connect();
    const outcome = await publish(credentials, textPost('Main post'));
    sim.requests.splice(0);
    const comment = await postFirstComment(bluesky, ctxFor(credentials), { post: outcome, text: 'First! https://example.com' });
    const [reply] = sim.comments(did);
    expect(comment).toEqual({ commentId: reply!.uri });
    const [body] = createRecordBodies();
    expect(body!.record).toMatchObject({
      text: 'First! https://example.com',
      reply: { root: { uri: outcome.postId, cid: outcome.extra!.cid }, parent: { uri: outcome.postId, cid: outcome.extra!.cid } },
      facets: [{ features: [{ uri: 'https://example.com' }] }],
    });
  });

  it('looks the cid up when the outcome lacks it, and skips with a warning when the post id is unknown', async () => {
    const { credentials, did } = await connect();
    const outcome = await publish(credentials, textPost('Main post'));
    await postFirstComment(bluesky, ctxFor(credentials), { post: { postId: outcome.postId, warnings: [] }, text: 'hi' });
    expect(sim.comments(did)[0]!.value.reply).toMatchObject({ root: { cid: outcome.extra!.cid } });

    sim.requests.splice(0);
    expect(await postFirstComment(bluesky, ctxFor(credentials), { post: { postId: '', warnings: [] }, text: 'hi' }))
      .toEqual({ commentId: '', warnings: [expect.stringMatching(/skipped.*not known yet/)] });
    expect(sim.requests).toHaveLength(0);
  });
});

describe('failure modes', () => {
  it.each([
    ['expired_token', { kind: 'auth_expired', reason: 'token_expired' }, { status: 400, code: 'ExpiredToken' }],
    ['invalid_token', { kind: 'auth_expired', reason: 'token_invalid' }, { status: 401, code: 'InvalidToken' }],
    ['auth_required', { kind: 'auth_expired', reason: 'authentication_required' }, { status: 401, code: 'AuthenticationRequired' }],
    ['server_error', { kind: 'transient' }, { status: 500 }],
    ['upstream_failure', { kind: 'transient' }, { status: 502 }],
    ['invalid_request', { kind: 'invalid_content' }, { status: 400, code: 'InvalidRequest' }],
  ] as const)('%s → %j, nothing stored', async (mode, failure, upstream) => {
    const { credentials, did } = await connect();
    sim.fail(mode);
    await expect(publish(credentials, textPost('hello'))).rejects.toMatchObject({ failure, upstream });
    expect(sim.posts(did)).toHaveLength(0);
  });

  it('rate_limited → rate_limited until the ratelimit-reset epoch', async () => {
    const { credentials } = await connect();
    sim.fail('rate_limited');
    const err = await rejection(publish(credentials, textPost('hello')));
    expect(err).toMatchObject({ failure: { kind: 'rate_limited' }, upstream: { status: 429, code: 'RateLimitExceeded' } });
    const { retryAfterMs } = (err as PlatformError).failure as { retryAfterMs: number };
    expect(retryAfterMs).toBeGreaterThan(28_000);
    expect(retryAfterMs).toBeLessThanOrEqual(30_000);
  });

  it('blob_too_large on the post record → invalid_content media_too_large', async () => {
    const { credentials, did } = await connect();
    sim.fail('blob_too_large');
    await expect(publish(credentials, photoPost([media.png]))).rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'media_too_large' }, upstream: { code: 'BlobTooLarge' } });
    expect(sim.posts(did)).toHaveLength(0);
  });

  it('expired and revoked sessions on the server side → auth_expired', async () => {
    const a = await connect();
    sim.expireAccessTokens(a.did);
    await expect(publish(a.credentials, textPost('x'))).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'token_expired' } });
    const b = await connect();
    sim.revokeTokens(b.did);
    await expect(publish(b.credentials, textPost('x'))).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'token_invalid' } });
    await expect(bluesky.refresher!.refresh(b.credentials)).rejects.toMatchObject({ failure: { kind: 'auth_expired' } });
  });

  it('a timeout is transient with an unknown outcome', async () => {
    const { credentials } = await connect();
    sim.setLatency(300);
    const err = await rejection(publish(credentials, textPost('slow'), createBlueskyPlatform({ ...options(), timeoutMs: 100 })));
    expect(err).toMatchObject({ failure: { kind: 'transient' } });
    expect(err.message).toMatch(/100 ms.*outcome is unknown/);
    expect(err.message).not.toContain(credentials.access_jwt);
  });

  it('maps the remaining shapes in one place', () => {
    const res = (status: number, body: unknown) => ({ kind: 'response' as const, status, headers: new Headers(), body });
    expect(mapBlueskyFailure(res(413, {}), { timeoutMs: 1, now: new Date() }).failure).toEqual({ kind: 'invalid_content', code: 'media_too_large' });
    expect(mapBlueskyFailure(res(400, { error: 'AuthFactorTokenRequired' }), { timeoutMs: 1, now: new Date() }).failure).toEqual({ kind: 'rejected', code: 'auth_factor_required' });
    expect(mapBlueskyFailure(res(503, 'html'), { timeoutMs: 1, now: new Date() }).failure).toEqual({ kind: 'transient' });
    expect(mapBlueskyFailure({ kind: 'video_job', failureCode: 'pds_upload_failure' }, { timeoutMs: 1, now: new Date() }).failure).toEqual({ kind: 'transient' });
    expect(mapBlueskyFailure({ kind: 'video_stalled', jobId: 'j', waitedMs: 1 }, { timeoutMs: 1, now: new Date() }).failure).toEqual({ kind: 'transient' });
    expect(mapBlueskyFailure({ kind: 'upload_limits', limits: { canUpload: false, remainingDailyVideos: 3, remainingDailyBytes: 10, error: 'uploads_forbidden' }, videoBytes: 5 }, { timeoutMs: 1, now: new Date() }).failure)
      .toEqual({ kind: 'rejected', code: 'video_upload_not_allowed' });
  });
});

describe('simulator wire format', () => {
  const post = (token: string, record: Record<string, unknown>, repo: string) => fetch(`${sim.serviceUrl}/xrpc/com.atproto.repo.createRecord`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ repo, collection: 'app.bsky.feed.post', record: { text: 'x', createdAt: new Date().toISOString(), ...record } }),
  });

  it('validates post records like the lexicon: 301 graphemes, an image blob over 1 MB, an unknown blob', async () => {
    const { credentials, did } = await connect();
    const long = await post(credentials.access_jwt!, { text: 'a'.repeat(301) }, did);
    expect(long.status).toBe(400);
    expect(await long.json()).toEqual({ error: 'InvalidRequest', message: 'Invalid app.bsky.feed.post record: Record/text must not be longer than 300 graphemes' });

    const big = Buffer.concat([Buffer.from('ffd8ffe0', 'hex'), Buffer.alloc(1_200_000, 7)]);
    const uploaded = await fetch(`${sim.serviceUrl}/xrpc/com.atproto.repo.uploadBlob`, { method: 'POST', headers: { 'content-type': 'image/jpeg', authorization: `Bearer ${credentials.access_jwt}` }, body: big });
    const { blob } = (await uploaded.json()) as { blob: Record<string, unknown> };
    expect(blob).toMatchObject({ $type: 'blob', mimeType: 'image/jpeg', size: big.length, ref: { $link: expect.stringMatching(/^bafkrei/) } });
    const tooLarge = await post(credentials.access_jwt!, { embed: { $type: 'app.bsky.embed.images', images: [{ image: blob, alt: '' }] } }, did);
    expect(tooLarge.status).toBe(400);
    expect(await tooLarge.json()).toMatchObject({ error: 'BlobTooLarge' });
    const missing = await post(credentials.access_jwt!, { embed: { $type: 'app.bsky.embed.images', images: [{ image: { ...blob, ref: { $link: `bafkrei${'a'.repeat(52)}` } }, alt: '' }] } }, did);
    expect(await missing.json()).toMatchObject({ error: 'BlobNotFound' });
    expect(sim.posts(did)).toHaveLength(0);
  });

  it('answers a 429 with ratelimit headers, and refuses a video upload token for the wrong audience', async () => {
    const { credentials, did } = await connect();
    sim.fail('rate_limited');
    const limited = await fetch(`${sim.serviceUrl}/xrpc/com.atproto.server.getSession`, { headers: { authorization: `Bearer ${credentials.access_jwt}` } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(limited.headers.get('ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);

    const auth = await fetch(`${sim.serviceUrl}/xrpc/com.atproto.server.getServiceAuth?aud=did:web:elsewhere.example&lxm=com.atproto.repo.uploadBlob`, { headers: { authorization: `Bearer ${credentials.access_jwt}` } });
    const { token } = (await auth.json()) as { token: string };
    const upload = await fetch(`${sim.videoBaseUrl}/xrpc/app.bsky.video.uploadVideo?did=${did}&name=a.mp4`, { method: 'POST', headers: { 'content-type': 'video/mp4', authorization: `Bearer ${token}` }, body: Buffer.from('not really') });
    expect(upload.status).toBe(401);
    expect(await upload.json()).toMatchObject({ error: 'InvalidToken' });
  });

  it('hands out the same DIDs and app passwords for the same seed', async () => {
    const [a, b] = await Promise.all([startBlueskySimulator({ seed: 'fixed' }), startBlueskySimulator({ seed: 'fixed' })]);
    try {
      const x = a.createAccount({ handle: 'same.test' });
      const y = b.createAccount({ handle: 'same.test' });
      expect(x).toEqual(y);
      expect(x.did).toMatch(/^did:plc:[a-z2-7]{24}$/);
      expect(x.appPassword).toMatch(/^[a-z0-9]{4}(-[a-z0-9]{4}){3}$/);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
