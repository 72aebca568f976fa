import { PlatformError } from '../../../core/domain/errors';
import { postFirstComment } from '../../support/first-comment';
import { resolveSettings } from '../../../core/domain/settings';
import type { MediaRef, PlatformAdapter, PlatformCredentials, PublishContext, PublishPost } from '../../../core/ports/platform';
import { createThreadsPlatform, threadsDescriptor, threadsTextLength, THREADS_SCOPES } from '../../../adapters/platforms/threads';
import { startThreadsSimulator, type ThreadsAccountFixture, type ThreadsSimulator } from '../../../ops/simulators/threads';
import { noMedia } from '../../support/media-access';
import { drivePublish, mediaFixtures, textPost, type MediaFixtures , FIXTURE_TIMEOUT_MS } from '../../support/platform-harness';

let sim: ThreadsSimulator;
let media: MediaFixtures;
let app: { clientId: string; clientSecret: string };
let threads: PlatformAdapter;
const REDIRECT = 'https://herald.example/oauth/threads/callback';

const adapterFor = (extra: Partial<Parameters<typeof createThreadsPlatform>[0]> = {}) => createThreadsPlatform({
  clientId: app.clientId, clientSecret: app.clientSecret, apiBase: sim.apiBase, apiVersion: sim.apiVersion,
  authorizeUrl: sim.authorizeUrl, timeoutMs: 5000, pollIntervalMs: 20, ...extra,
});

beforeAll(async () => {
  [media, sim] = await Promise.all([mediaFixtures(), startThreadsSimulator({ processingMs: 30 })]);
  app = sim.createApp();
  threads = adapterFor();
}, FIXTURE_TIMEOUT_MS);
afterAll(async () => { await Promise.all([sim.close(), media.close()]); });
/** Requests before this index belong to the test's setup. */
let mark = 0;
beforeEach(() => { sim.reset(); mark = 0; });
const recorded = () => sim.requests.slice(mark);

let n = 0;
function account(): ThreadsAccountFixture {
  n += 1;
  return sim.createAccount({ username: `herald_th_${n}`, name: `Herald Threads ${n}` });
}
function credentialsOf(a: ThreadsAccountFixture): PlatformCredentials {
  const { accessToken, expiresAt } = sim.issueToken(a.id, { clientId: app.clientId });
  return { access_token: accessToken, expires_at: expiresAt.toISOString(), threads_user_id: a.id };
}
const ctxOf = (credentials: PlatformCredentials, access = media.access): PublishContext => ({ credentials, idempotencyKey: 'idem-th', media: access });
const photoPost = (files: MediaRef[], settings: Record<string, unknown> = {}, title = 'New on Herald'): PublishPost => ({ kind: 'photo', title, media: files, settings });
const videoPost = (settings: Record<string, unknown> = {}, file = media.landscapeVideo): PublishPost => ({ kind: 'video', title: 'Watch this', media: [file], settings });
const publish = (ctx: PublishContext, post: PublishPost, adapter = threads) => drivePublish(adapter, ctx, post, { maxWaitMs: 100 });
const containerBodies = () => recorded().filter((r) => r.method === 'POST' && r.path.endsWith('/threads')).map((r) => r.body as Record<string, string>);
const paths = () => recorded().map((r) => `${r.method} ${r.path.replace(/\d{10,}/g, ':id')}`);

/** A published post to reply to or quote. */
async function existingPost(a: ThreadsAccountFixture): Promise<string> {
  const { outcome } = await publish(ctxOf(credentialsOf(a), noMedia), textPost('an earlier post'));
  mark = sim.requests.length;
  return outcome.postId;
}

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
  it('declares an OAuth network for video, photos and text with the spec limits', () => {
    expect(threadsDescriptor).toMatchObject({
      id: 'threads', connect: 'oauth', endpoints: ['video', 'photo', 'text'],
      limits: { textMaxChars: 500, video: { maxBytes: 1024 ** 3, maxSeconds: 300 }, photo: { maxBytes: 8 * 1024 ** 2, contentTypes: ['image/jpeg', 'image/png'] } },
    });
  });

  it('counts emojis as their UTF-8 bytes', () => {
    expect(threadsTextLength('hello')).toBe(5);
    expect(threadsTextLength('café')).toBe(4);
    expect(threadsTextLength('😀')).toBe(4);
    expect(threadsTextLength('👍🏽!')).toBe(9);
  });

  const resolve = (fields: Record<string, unknown>, endpoint: 'video' | 'photo' | 'text', mediaCount = 1) =>
    resolveSettings('threads', threadsDescriptor.settings, fields, { endpoint, mediaCount });

  it('accepts valid values on each endpoint', () => {
    expect(resolve({ threads_topic_tag: 'Herald News', threads_reply_control: 'followers', threads_reply_to_id: '123', threads_quote_post_id: '456' }, 'text', 0))
      .toEqual({ values: { threads_topic_tag: 'Herald News', threads_reply_control: 'followers', threads_reply_to_id: '123', threads_quote_post_id: '456' },
        violations: [], warnings: [], consumed: ['threads_topic_tag', 'threads_reply_control', 'threads_reply_to_id', 'threads_quote_post_id'] });
    expect(resolve({ threads_thread_media_layout: '0,2,1', threads_alt_text: 'one||two' }, 'photo', 3).values)
      .toEqual({ threads_thread_media_layout: ['0', '2', '1'], threads_alt_text: ['one', 'two'] });
  });

  it.each([
    [{ threads_topic_tag: 'v1.0' }, 'text', 0],
    [{ threads_topic_tag: 'R&D' }, 'text', 0],
    [{ threads_topic_tag: 'x'.repeat(51) }, 'text', 0],
    [{ threads_topic_tag: '   ' }, 'photo', 1],
    [{ threads_reply_control: 'nobody' }, 'video', 1],
    [{ threads_thread_media_layout: '2,2' }, 'photo', 3],
    [{ threads_thread_media_layout: '21' }, 'photo', 21],
    [{ threads_thread_media_layout: '1,0,1' }, 'photo', 2],
    [{ threads_thread_media_layout: 'two' }, 'photo', 2],
    [{ threads_alt_text: 'x'.repeat(1001) }, 'photo', 1],
    [{ threads_alt_text: 'a||b' }, 'video', 1],
  ] as const)('%j on %s (%i files) is a violation', (fields, endpoint, count) => {
    const { violations } = resolve(fields, endpoint, count);
    expect(violations.map((v) => v.field)).toEqual([Object.keys(fields)[0]]);
  });

  it('ignores the layout and alt text where they do not apply', () => {
    expect(resolve({ threads_thread_media_layout: '1', threads_alt_text: 'x' }, 'text', 0).warnings).toEqual([
      'threads_alt_text is not used by threads on this endpoint and was ignored.',
      'threads_thread_media_layout is not used by threads on this endpoint and was ignored.',
    ]);
  });
});

describe('connect', () => {
  it('builds the authorize URL with client id, scopes, redirect and state (no PKCE)', () => {
    expect(threads.oauth!.pkce).toBe(false);
    const url = new URL(threads.oauth!.authorizeUrl({ state: 'st-9', redirectUri: REDIRECT }));
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: app.clientId, redirect_uri: REDIRECT, response_type: 'code', state: 'st-9', scope: 'threads_basic,threads_content_publish,threads_manage_replies,threads_read_replies,threads_manage_insights',
    });
    expect(createThreadsPlatform({ clientId: 'c', clientSecret: 's' }).oauth!.authorizeUrl({ state: 's', redirectUri: REDIRECT }))
      .toMatch(/^https:\/\/threads\.net\/oauth\/authorize\?/);
  });

  it('approve page → code → short-lived token → long-lived token → identity', async () => {
    const a = sim.createAccount({ username: 'herald.news', name: 'Herald News', profilePictureUrl: 'https://cdn.example/th.jpg' });
    const page = await fetch(threads.oauth!.authorizeUrl({ state: 'abc', redirectUri: REDIRECT }));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('@herald.news');
    const approve = await fetch(`${sim.origin}/oauth/authorize`, {
      method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: app.clientId, redirect_uri: REDIRECT, scope: THREADS_SCOPES.join(','), state: 'abc', account_id: a.id, decision: 'allow' }),
    });
    const back = new URL(approve.headers.get('location')!);
    expect(back.searchParams.get('state')).toBe('abc');
    sim.reset();

    const { identity, credentials } = await threads.oauth!.exchangeCode({ code: back.searchParams.get('code')!, redirectUri: REDIRECT });
    expect(identity).toEqual({ platformUserId: a.id, handle: 'herald.news', displayName: 'Herald News', avatarUrl: 'https://cdn.example/th.jpg' });
    expect(credentials.threads_user_id).toBe(a.id);
    expect(sim.tokenInfo(credentials.access_token!)).toMatchObject({ accountId: a.id, kind: 'long', scopes: [...THREADS_SCOPES] });
    expect(Date.parse(credentials.expires_at!) - Date.now()).toBeGreaterThan(59 * 86400_000);
    expect(paths()).toEqual(['POST /oauth/access_token', 'GET /access_token', 'GET /v1.0/me']);
    expect(sim.requests[0]!.body).toEqual({ client_id: app.clientId, client_secret: app.clientSecret, grant_type: 'authorization_code', redirect_uri: REDIRECT, code: back.searchParams.get('code') });
    expect(sim.requests[1]!.query).toMatchObject({ grant_type: 'th_exchange_token', client_secret: app.clientSecret });
    expect(sim.requests[2]!.query).toEqual({ fields: 'id,username,name,threads_profile_picture_url' });
  });

  it('refuses a used code and a wrong redirect_uri as OAuth refusals', async () => {
    const a = account();
    const code = sim.issueAuthCode(a.id, { clientId: app.clientId, redirectUri: REDIRECT });
    await expect(threads.oauth!.exchangeCode({ code, redirectUri: 'https://other.example/cb' }))
      .rejects.toMatchObject({ failure: { kind: 'rejected', code: 'oauth_rejected' }, upstream: { code: '100/36008' } });
    await threads.oauth!.exchangeCode({ code, redirectUri: REDIRECT });
    await expect(threads.oauth!.exchangeCode({ code, redirectUri: REDIRECT }))
      .rejects.toMatchObject({ failure: { kind: 'rejected', code: 'oauth_rejected' }, upstream: { code: '100/36009' } });
    const wrongSecret = createThreadsPlatform({ clientId: app.clientId, clientSecret: 'nope', apiBase: sim.apiBase });
    const fresh = sim.issueAuthCode(a.id, { clientId: app.clientId, redirectUri: REDIRECT });
    await expect(wrongSecret.oauth!.exchangeCode({ code: fresh, redirectUri: REDIRECT })).rejects.toMatchObject({ failure: { kind: 'rejected', code: 'oauth_rejected' } });
  });

  it('refresh renews the token; the old one stops working', async () => {
    const a = account();
    const old = credentialsOf(a);
    const renewed = await threads.refresher!.refresh(old);
    expect(renewed.access_token).not.toBe(old.access_token);
    expect(renewed.threads_user_id).toBe(a.id);
    expect(sim.requests.at(-1)).toMatchObject({ path: '/refresh_access_token', query: { grant_type: 'th_refresh_token', access_token: old.access_token } });
    await expect(threads.refresher!.refresh(old)).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'app_removed' } });
    await expect(publish(ctxOf(old, noMedia), textPost('old token'))).rejects.toMatchObject({ failure: { kind: 'auth_expired' } });
    await publish(ctxOf(renewed, noMedia), textPost('new token'));
  });

  it('the injected clock dates token expiries and the start of processing', async () => {
    const at = new Date('2031-03-01T12:00:00Z');
    const clocked = adapterFor({ now: () => at });
    const a = account();
    const renewed = await clocked.refresher!.refresh(credentialsOf(a));
    expect(Date.parse(renewed.expires_at!) - at.getTime()).toBeGreaterThan(59 * 86400_000);
    expect(Date.parse(renewed.expires_at!) - at.getTime()).toBeLessThanOrEqual(61 * 86400_000);
    const step = await clocked.publisher!.publish(ctxOf(renewed), photoPost([media.images[0]!]));
    expect(step).toMatchObject({ kind: 'wait', state: { startedAt: at.getTime() } });
  });

  it('refresh of an expired token is auth_expired', async () => {
    const a = account();
    const creds = credentialsOf(a);
    sim.expireAccessTokens(a.id);
    await expect(threads.refresher!.refresh(creds)).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'token_expired' } });
  });
});

describe('publish', () => {
  it('a text post with topic, reply control and quote, published in one step', async () => {
    const a = account();
    const quoted = await existingPost(a);
    const { outcome, steps } = await publish(ctxOf(credentialsOf(a), noMedia), textPost('Hello Threads 👋', {
      threads_topic_tag: 'Herald', threads_reply_control: 'followers', threads_quote_post_id: quoted,
    }));
    expect(steps).toBe(1);
    expect(containerBodies()).toEqual([{ media_type: 'TEXT', text: 'Hello Threads 👋', topic_tag: 'Herald', reply_control: 'followers_only', quote_post_id: quoted }]);
    const post = sim.posts(a.id).find((p) => p.id === outcome.postId)!;
    expect(post).toMatchObject({ media_type: 'TEXT_POST', text: 'Hello Threads 👋', topicTag: 'Herald', replyControl: 'followers_only', quotePostId: quoted });
    expect(outcome).toEqual({ postId: post.id, url: post.permalink, warnings: [] });
    expect(paths()).toEqual([
      'GET /v1.0/:id/threads_publishing_limit', 'POST /v1.0/:id/threads', 'GET /v1.0/:id', 'POST /v1.0/:id/threads_publish', 'GET /v1.0/:id',
    ]);
    expect(recorded()[0]!.query).toEqual({ fields: 'quota_usage,config,reply_quota_usage,reply_config' });
    expect(recorded()[3]!.body).toEqual({ creation_id: sim.containers().at(-1)!.id });
  });

  it('threads_reply_to_id publishes the post as a reply', async () => {
    const a = account();
    const parent = await existingPost(a);
    const { outcome } = await publish(ctxOf(credentialsOf(a), noMedia), textPost('a reply', { threads_reply_to_id: parent }));
    expect(containerBodies()[0]).toMatchObject({ reply_to_id: parent });
    expect(sim.replies(parent).map((p) => p.id)).toEqual([outcome.postId]);
  });

  it('an image with alt text waits for processing, then publishes', async () => {
    const a = account();
    const { outcome, steps } = await publish(ctxOf(credentialsOf(a)), photoPost([media.png], { threads_alt_text: ['A test card'], threads_topic_tag: 'Design' }));
    expect(steps).toBeGreaterThan(1);
    expect(containerBodies()).toEqual([{ media_type: 'IMAGE', image_url: media.access.publicUrl(media.png.id), alt_text: 'A test card', text: 'New on Herald', topic_tag: 'Design' }]);
    expect(sim.posts(a.id)[0]).toMatchObject({ id: outcome.postId, media_type: 'IMAGE' });
  });

  it('a video from the video endpoint', async () => {
    const a = account();
    await publish(ctxOf(credentialsOf(a)), videoPost({ threads_alt_text: ['A moving test card'], threads_reply_control: 'mentioned_only' }));
    expect(containerBodies()).toEqual([{
      media_type: 'VIDEO', video_url: media.access.publicUrl(media.landscapeVideo.id), alt_text: 'A moving test card', text: 'Watch this', reply_control: 'mentioned_only',
    }]);
    expect(sim.posts(a.id)[0]!.media_type).toBe('VIDEO');
  });

  it('a mixed carousel: children, then the parent with the text', async () => {
    const a = account();
    const files = [media.images[0]!, media.video, media.png];
    const { outcome } = await publish(ctxOf(credentialsOf(a)), photoPost(files, { threads_alt_text: ['one', 'two', 'three'], threads_topic_tag: 'Carousel' }));
    const bodies = containerBodies();
    expect(bodies.slice(0, 3)).toEqual([
      { media_type: 'IMAGE', image_url: media.access.publicUrl(files[0]!.id), alt_text: 'one', is_carousel_item: 'true' },
      { media_type: 'VIDEO', video_url: media.access.publicUrl(files[1]!.id), alt_text: 'two', is_carousel_item: 'true' },
      { media_type: 'IMAGE', image_url: media.access.publicUrl(files[2]!.id), alt_text: 'three', is_carousel_item: 'true' },
    ]);
    const childIds = sim.containers().filter((c) => c.isCarouselItem).map((c) => c.id);
    expect(bodies[3]).toEqual({ media_type: 'CAROUSEL', text: 'New on Herald', topic_tag: 'Carousel', children: childIds.join(',') });
    const post = sim.posts(a.id)[0]!;
    expect(post).toMatchObject({ id: outcome.postId, media_type: 'CAROUSEL_ALBUM' });
    expect(post.children.map((c) => c.mediaType)).toEqual(['IMAGE', 'VIDEO', 'IMAGE']);
  });

  it('more than 20 files become a thread of carousels, each a reply to the one before', async () => {
    const a = account();
    const files = Array.from({ length: 22 }, (_, i) => media.images[i % media.images.length]!);
    const { outcome } = await publish(ctxOf(credentialsOf(a)), photoPost(files, { threads_reply_control: 'accounts_you_follow' }));
    const published = sim.posts(a.id);
    expect(published.map((p) => [p.media_type, p.children.length])).toEqual([['CAROUSEL_ALBUM', 20], ['CAROUSEL_ALBUM', 2]]);
    expect(published[1]!.replyToId).toBe(published[0]!.id);
    expect(published[0]).toMatchObject({ text: 'New on Herald', replyControl: 'accounts_you_follow' });
    expect(published[1]!.text).toBeUndefined();
    expect(outcome).toMatchObject({ postId: published[0]!.id, url: published[0]!.permalink, extra: { thread_post_ids: published.map((p) => p.id) } });
    expect(outcome.warnings).toEqual(['Threads received 22 files as a thread of 2 posts, each a reply to the one before.']);
  });

  it('threads_thread_media_layout "0,2,1": a text root, a carousel reply, a single-image reply', async () => {
    const a = account();
    const files = [media.images[0]!, media.images[1]!, media.images[2]!];
    const { outcome } = await publish(ctxOf(credentialsOf(a)), photoPost(files, { threads_thread_media_layout: ['0', '2', '1'], threads_topic_tag: 'Thread' }));
    const [root, second, third] = sim.posts(a.id);
    expect([root!.media_type, second!.media_type, third!.media_type]).toEqual(['TEXT_POST', 'CAROUSEL_ALBUM', 'IMAGE']);
    expect(root).toMatchObject({ text: 'New on Herald', topicTag: 'Thread' });
    expect(second!.replyToId).toBe(root!.id);
    expect(third!.replyToId).toBe(second!.id);
    expect(third!.params.image_url).toBe(media.access.publicUrl(files[2]!.id));
    expect(outcome.extra).toEqual({ thread_post_ids: [root!.id, second!.id, third!.id] });
  });
});

describe('first comment', () => {
  it('replies to the last post of the thread', async () => {
    const a = account();
    const ctx = ctxOf(credentialsOf(a));
    const { outcome } = await publish(ctx, photoPost([media.images[0]!, media.images[1]!], { threads_thread_media_layout: ['1', '1'] }));
    const last = (outcome.extra!.thread_post_ids as string[])[1]!;
    const { commentId } = await postFirstComment(threads, ctx, { post: outcome, text: 'Links in the replies 👇' });
    expect(sim.replies(last)).toEqual([expect.objectContaining({ id: commentId, text: 'Links in the replies 👇', media_type: 'TEXT_POST' })]);
    expect(containerBodies().at(-1)).toEqual({ media_type: 'TEXT', text: 'Links in the replies 👇', reply_to_id: last });
  });

  it('replies to a single post, and skips an unknown post id with a warning', async () => {
    const a = account();
    const ctx = ctxOf(credentialsOf(a), noMedia);
    const { outcome } = await publish(ctx, textPost('root'));
    await postFirstComment(threads, ctx, { post: outcome, text: 'first' });
    expect(sim.replies(outcome.postId).map((p) => p.text)).toEqual(['first']);
    sim.reset();
    await expect(postFirstComment(threads, ctx, { post: { postId: '', warnings: [] }, text: 'x' }))
      .resolves.toEqual({ commentId: '', warnings: ['The first comment was skipped: the Threads post id is not known yet.'] });
    expect(sim.requests).toHaveLength(0);
  });
});

describe('comments without the read-replies permission', () => {
  it('lists only the account\'s own replies, partial with a warning; with it, every reply', async () => {
    const a = account();
    const ctx = ctxOf(credentialsOf(a), noMedia); // threads_basic, threads_content_publish, threads_manage_replies
    const { outcome } = await publish(ctx, textPost('ask me anything'));
    const fan = sim.seedComment({ postId: outcome.postId, text: 'what is new?' });
    const mine = await threads.comments!.create(ctx, { post: { id: outcome.postId }, text: 'our answer', replyTo: { id: fan.id, post: { id: outcome.postId } } });
    const partial = await threads.comments!.list!(ctx, { id: outcome.postId });
    expect(partial).toEqual({
      items: [expect.objectContaining({ ref: expect.objectContaining({ id: mine.comment!.id }), text: 'our answer', parentId: fan.id, isOwner: true })],
      partial: true,
      warnings: ['Only replies made by this account are listed: the Threads connection lacks the threads_read_replies permission (reconnect the account to grant it).'],
    });
    const { accessToken } = sim.issueToken(a.id, { clientId: app.clientId, scopes: ['threads_basic', 'threads_content_publish', 'threads_manage_replies', 'threads_read_replies'] });
    const full = await threads.comments!.list!({ credentials: { access_token: accessToken, threads_user_id: a.id } }, { id: outcome.postId });
    expect(full.partial).toBeUndefined();
    expect(full.items.map((c) => c.text)).toEqual(['what is new?', 'our answer']);
  });
});

describe('failures', () => {
  it.each([
    ['token_expired', { kind: 'auth_expired', reason: 'token_expired' }],
    ['token_revoked', { kind: 'auth_expired', reason: 'app_removed' }],
    ['checkpoint', { kind: 'checkpoint' }],
    ['rate_limited', { kind: 'rate_limited', retryAfterMs: 180_000 }],
    ['server_error', { kind: 'transient' }],
    ['permission_denied', { kind: 'rejected', code: 'permission_denied' }],
  ] as const)('%s → %j, nothing published', async (mode, failure) => {
    const a = account();
    sim.fail(mode);
    await expect(publish(ctxOf(credentialsOf(a), noMedia), textPost('hi'))).rejects.toMatchObject({ failure });
    expect(sim.posts()).toHaveLength(0);
  });

  it('publish_limit at threads_publish is rate_limited for an hour', async () => {
    const a = account();
    sim.fail('publish_limit');
    await expect(publish(ctxOf(credentialsOf(a), noMedia), textPost('hi'))).rejects.toMatchObject({ failure: { kind: 'rate_limited', retryAfterMs: 3600_000 }, upstream: { code: 9 } });
    expect(sim.containers()).toHaveLength(1);
    expect(sim.posts()).toHaveLength(0);
  });

  it('a used-up post quota stops the publish before any container; a used-up reply quota stops threads only', async () => {
    const a = account();
    sim.usePublishingQuota(a.id, { posts: 250 });
    await expect(publish(ctxOf(credentialsOf(a), noMedia), textPost('hi'))).rejects.toMatchObject({ failure: { kind: 'rate_limited', retryAfterMs: 3600_000 } });
    expect(paths()).toEqual(['GET /v1.0/:id/threads_publishing_limit']);

    const b = account();
    sim.usePublishingQuota(b.id, { replies: 1000 });
    await expect(publish(ctxOf(credentialsOf(b)), photoPost([media.images[0]!, media.images[1]!], { threads_thread_media_layout: ['1', '1'] })))
      .rejects.toMatchObject({ failure: { kind: 'rate_limited' } });
    await publish(ctxOf(credentialsOf(b)), photoPost([media.images[0]!]));
    expect(sim.posts(b.id)).toHaveLength(1);
  });

  it('a container that ends in ERROR is invalid_content named after error_message', async () => {
    const a = account();
    sim.fail('container_error');
    await expect(publish(ctxOf(credentialsOf(a)), videoPost())).rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'failed_processing_video' } });
    expect(sim.requests.some((r) => r.path.endsWith('/threads_publish'))).toBe(false);
  });

  it('a video Meta cannot fetch fails with FAILED_DOWNLOADING_VIDEO', async () => {
    const a = account();
    const broken = { ...media.access, publicUrl: (id: string) => `${media.publicBase}/gone/${id}` };
    await expect(publish(ctxOf(credentialsOf(a), broken), videoPost())).rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'failed_downloading_video' } });
  });

  it('a reply to a post that does not exist is rejected as not_found', async () => {
    const a = account();
    await expect(publish(ctxOf(credentialsOf(a), noMedia), textPost('reply', { threads_reply_to_id: '999' })))
      .rejects.toMatchObject({ failure: { kind: 'rejected', code: 'not_found' }, upstream: { code: '100/33' } });
  });

  it('a timeout is transient with an unknown outcome, and messages never carry the token', async () => {
    const a = account();
    const creds = credentialsOf(a);
    sim.setLatency(300);
    const err = await rejection(publish(ctxOf(creds, noMedia), textPost('slow'), adapterFor({ timeoutMs: 100 })));
    expect(err.failure).toEqual({ kind: 'transient' });
    expect(err.message).toMatch(/100 ms.*outcome is unknown/);
    sim.setLatency(0);
    sim.fail('token_expired');
    expect((await rejection(publish(ctxOf(creds, noMedia), textPost('x')))).message).not.toContain(creds.access_token);
  });
});

describe('pre-send validation sends nothing', () => {
  it.each([
    ['501 characters', () => textPost('x'.repeat(501)), 'text_too_long'],
    ['126 emojis (504 bytes)', () => textPost('😀'.repeat(126)), 'text_too_long'],
    ['an empty text post', () => textPost('  '), 'text_empty'],
    ['a GIF', () => photoPost([{ ...media.png, contentType: 'image/gif' }]), 'unsupported_media_type'],
    ['a 6-minute video', () => videoPost({}, { ...media.video, info: { ...media.video.info!, durationSeconds: 360 } }), 'invalid_duration'],
    ['photos without files', () => photoPost([]), 'media_required'],
    ['a layout that does not fit', () => photoPost([media.images[0]!, media.images[1]!], { threads_thread_media_layout: ['3'] }), 'invalid_layout'],
    ['a text-only root without text', () => photoPost([media.images[0]!], { threads_thread_media_layout: ['0', '1'] }, ''), 'text_empty'],
  ])('%s', async (_label, post, code) => {
    const a = account();
    await expect(threads.publisher!.publish(ctxOf(credentialsOf(a)), post())).rejects.toMatchObject({ failure: { kind: 'invalid_content', code } });
    expect(sim.requests).toHaveLength(0);
  });

  it('exactly 500 characters with emojis counted as bytes is accepted', async () => {
    const a = account();
    await publish(ctxOf(credentialsOf(a), noMedia), textPost(`${'😀'.repeat(100)}${'x'.repeat(100)}`));
    expect(sim.posts(a.id)).toHaveLength(1);
  });
});

describe('simulator wire format', () => {
  it('answers container status with error_message, and refuses over-long text by its own count', async () => {
    const a = account();
    const auth = { authorization: `Bearer ${credentialsOf(a).access_token}`, 'content-type': 'application/x-www-form-urlencoded' };
    const long = await fetch(`${sim.apiBase}/v1.0/${a.id}/threads`, { method: 'POST', headers: auth, body: new URLSearchParams({ media_type: 'TEXT', text: '😀'.repeat(126) }) });
    expect(long.status).toBe(400);
    expect((await long.json() as { error: { code: number } }).error.code).toBe(100);
    const created = await fetch(`${sim.apiBase}/v1.0/${a.id}/threads`, { method: 'POST', headers: auth, body: new URLSearchParams({ media_type: 'VIDEO', video_url: `${media.publicBase}/nope` }) });
    const { id } = await created.json() as { id: string };
    await new Promise((r) => setTimeout(r, 80));
    const status = await fetch(`${sim.apiBase}/v1.0/${id}?fields=status,error_message`, { headers: auth });
    expect(await status.json()).toEqual({ status: 'ERROR', error_message: 'FAILED_DOWNLOADING_VIDEO' });
  });
});

describe('checkpoint probe', () => {
  const probe = (credentials: PlatformCredentials) => threads.probe!.probe({ credentials });

  it('answers checkpoint while the user stays checkpointed, and resolves once the user completed it', async () => {
    const a = account();
    const other = account();
    const creds = credentialsOf(a);
    sim.checkpointAccount(a.id);
    for (let i = 0; i < 2; i += 1) {
      await expect(probe(creds)).rejects.toMatchObject({ platform: 'threads', failure: { kind: 'checkpoint' }, upstream: { status: 400, code: '190/459' } });
    }
    await expect(publish(ctxOf(creds, noMedia), textPost('hi'))).rejects.toMatchObject({ failure: { kind: 'checkpoint' } });
    await expect(probe(credentialsOf(other))).resolves.toBeUndefined();
    expect(sim.posts()).toHaveLength(0);

    sim.completeCheckpoint(a.id);
    mark = sim.requests.length;
    await expect(probe(creds)).resolves.toBeUndefined();
    // One cheap read as the account, the token in the header, never in the URL.
    expect(paths()).toEqual(['GET /v1.0/me']);
    expect(recorded()[0]!.query).toEqual({ fields: 'id' });
    expect(recorded()[0]!.headers.authorization).toBe(`Bearer ${creds.access_token}`);
    await publish(ctxOf(creds, noMedia), textPost('back again'));
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
    sim.expireAccessTokens(a.id);
    await expect(probe(creds)).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'token_expired' } });
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
