import { createHash, randomBytes } from 'node:crypto';
import { postFirstComment } from '../../support/first-comment';
import { PlatformError } from '../../../core/domain/errors';
import type { MediaRef } from '../../../core/domain/media';
import { resolveSettings } from '../../../core/domain/settings';
import type { MediaKind } from '../../../core/domain/platforms';
import type { PlatformAdapter, PlatformCredentials, PublishContext, PublishPost } from '../../../core/ports/platform';
import {
  createXPlatform, splitIntoThread, stripLinks, xDescriptor, xWeightedLength, X_SCOPES, type XPlatformOptions,
} from '../../../adapters/platforms/x';
import { startXSimulator, X_SIM_DAILY_LIMIT_RESET_SECONDS, type XSimAccount, type XSimulator } from '../../../ops/simulators/x';
import { drivePublish, mediaFixtures, textPost, type MediaFixtures , FIXTURE_TIMEOUT_MS } from '../../support/platform-harness';

const REDIRECT = 'https://herald.example/oauth/x/callback';

let sim: XSimulator;
let fixtures: MediaFixtures;
let client: { clientId: string; clientSecret: string | null };
let x: PlatformAdapter;
let account: XSimAccount;

const adapter = (extra: Partial<XPlatformOptions> = {}) => createXPlatform({
  apiBase: sim.origin, authBase: sim.origin, clientId: client.clientId, clientSecret: client.clientSecret!, timeoutMs: 5000, chunkBytes: 16 * 1024, ...extra,
});

beforeAll(async () => {
  sim = await startXSimulator({ seed: 'x-contract', processingMs: 50 });
  fixtures = await mediaFixtures();
  client = sim.createClient({ name: 'Herald', redirectUris: [REDIRECT] });
  account = sim.createAccount({ username: 'herald_dev', name: 'Herald Dev' });
  x = adapter();
}, FIXTURE_TIMEOUT_MS);
afterAll(async () => {
  await sim.close();
  await fixtures.close();
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

function credentialsFor(who: XSimAccount = account): PlatformCredentials {
  const t = sim.issueTokens(who.id, { clientId: client.clientId });
  return { access_token: t.accessToken, refresh_token: t.refreshToken, expires_at: t.expiresAt.toISOString(), scope: X_SCOPES.join(' '), user_id: who.id, username: who.username };
}
const ctxFor = (credentials = credentialsFor()): PublishContext => ({ credentials, idempotencyKey: 'acct:req:x', media: fixtures.access });
const post = (kind: MediaKind, title: string, media: MediaRef[], settings: Record<string, unknown> = {}): PublishPost => ({ kind, title, media, settings });
const tweetBodies = () => sim.requests.filter((r) => r.method === 'POST' && r.path === '/2/tweets').map((r) => r.body as Record<string, unknown>);
const resolve = (endpoint: MediaKind, fields: Record<string, unknown>, mediaCount = 0) =>
  resolveSettings('x', xDescriptor.settings, fields, { endpoint, mediaCount });
const paragraph = (word: string, n: number) => Array.from({ length: n }, () => word).join(' ');

describe('descriptor and settings', () => {
  it('declares an OAuth network on all three endpoints with the spec limits', () => {
    expect(xDescriptor).toMatchObject({
      id: 'x', connect: 'oauth', endpoints: ['video', 'photo', 'text'],
      limits: {
        textMaxChars: 25_000,
        video: { maxBytes: 8 * 1024 ** 3, maxSeconds: 1200, containers: ['mov,mp4,m4a,3gp,3g2,mj2'] },
        photo: { contentTypes: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] },
      },
    });
  });

  it('applies the defaults and reads every field', () => {
    const r = resolve('photo', {
      x_long_text_as_post: 'true', x_thread_image_layout: '2,0,2', reply_settings: 'mentionedUsers', geo_place_id: 'df51dec6f4ee2b2c',
      nullcast: '1', made_with_ai: 'yes', for_super_followers_only: 'false', community_id: '1146654567674912769', share_with_followers: 'true',
      direct_message_deep_link: 'https://x.com/messages/compose?recipient_id=2244994945', tagged_user_ids: '12,34', reply_to_id: '1346889436626259968',
      exclude_reply_user_ids: ['56'], x_alt_text: 'A red door, open||Two cats, asleep', x_paid_partnership: true,
    }, 4);
    expect(r.violations).toEqual([]);
    expect(r.values).toEqual({
      x_long_text_as_post: true, x_thread_image_layout: ['2', '0', '2'], reply_settings: 'mentionedUsers', geo_place_id: 'df51dec6f4ee2b2c',
      nullcast: true, made_with_ai: true, for_super_followers_only: false, community_id: '1146654567674912769', share_with_followers: true,
      direct_message_deep_link: 'https://x.com/messages/compose?recipient_id=2244994945', tagged_user_ids: ['12', '34'], reply_to_id: '1346889436626259968',
      exclude_reply_user_ids: ['56'], x_alt_text: ['A red door, open', 'Two cats, asleep'], x_paid_partnership: true,
    });
    expect(resolve('text', {}).values).toEqual({
      x_long_text_as_post: false, nullcast: false, made_with_ai: false, for_super_followers_only: false, share_with_followers: false, x_paid_partnership: false,
    });
  });

  it('folds is_ai_generated into made_with_ai, and made_with_ai wins when both are sent', () => {
    expect(resolve('video', { is_ai_generated: 'true' }).values.made_with_ai).toBe(true);
    expect(resolve('video', { is_ai_generated: 'true', made_with_ai: 'false' }).values.made_with_ai).toBe(false);
  });

  it('ignores photo-only fields on other endpoints with a warning', () => {
    const r = resolve('video', { x_thread_image_layout: '1', x_alt_text: 'a' }, 1);
    expect(r.values).not.toHaveProperty('x_thread_image_layout');
    expect(r.warnings).toEqual([
      'x_thread_image_layout is not used by x on this endpoint and was ignored.',
      'x_alt_text is not used by x on this endpoint and was ignored.',
    ]);
  });

  it.each([
    ['reply_settings outside its values', 'text', { reply_settings: 'everyone' }, 0, 'reply_settings'],
    ['more than 10 tagged users', 'photo', { tagged_user_ids: Array.from({ length: 11 }, (_, i) => String(i + 1)) }, 1, 'tagged_user_ids'],
    ['exclude_reply_user_ids without reply_to_id', 'text', { exclude_reply_user_ids: '12' }, 0, 'exclude_reply_user_ids'],
    ['quote_tweet_id with media', 'photo', { quote_tweet_id: '1346889436626259968' }, 1, 'quote_tweet_id'],
    ['share_with_followers without community_id', 'text', { share_with_followers: 'true' }, 0, 'share_with_followers'],
    ['a layout that does not add up to the images', 'photo', { x_thread_image_layout: '2,2' }, 3, 'x_thread_image_layout'],
    ['a layout item above 4', 'photo', { x_thread_image_layout: '5' }, 5, 'x_thread_image_layout'],
    ['an alt text over 1000 characters', 'photo', { x_alt_text: ['ok', 'a'.repeat(1001)] }, 2, 'x_alt_text'],
    ['more alt texts than images', 'photo', { x_alt_text: 'a||b' }, 1, 'x_alt_text'],
    ['a non-numeric reply_to_id', 'text', { reply_to_id: 'https://x.com/a/status/1' }, 0, 'reply_to_id'],
    ['a DM link to another site', 'text', { direct_message_deep_link: 'https://example.com/messages/compose?x=1' }, 0, 'direct_message_deep_link'],
  ] as const)('reports %s', (_label, endpoint, fields, mediaCount, field) => {
    const r = resolve(endpoint, fields, mediaCount);
    expect(r.violations.map((v) => v.field)).toEqual([field]);
  });

  it('accepts what the rules allow: exclusions with a reply target, quotes on text, a 2,0,2 layout', () => {
    expect(resolve('text', { exclude_reply_user_ids: '12', reply_to_id: '34', quote_tweet_id: '56' }).violations).toEqual([]);
    expect(resolve('photo', { x_thread_image_layout: '2,0,2' }, 4).violations).toEqual([]);
  });
});

describe('text rules', () => {
  it('counts like X: links 23, CJK and emoji 2', () => {
    expect(xWeightedLength('a'.repeat(280))).toBe(280);
    expect(xWeightedLength('日本語')).toBe(6);
    expect(xWeightedLength('👍🏽 ok')).toBe(5);
    expect(xWeightedLength('see https://example.com/a/very/long/path/that/goes/on.')).toBe(4 + 23 + 1);
  });

  it('groups paragraphs up to 280 and splits a long one by line, then by word', () => {
    const a = paragraph('alpha', 20); // 119
    const b = paragraph('bravo', 20); // 119
    const c = paragraph('charlie', 20); // 159
    expect(splitIntoThread(`${a}\n\n${b}\n\n\n${c}`)).toEqual([`${a}\n\n${b}`, c]);
    const lines = [paragraph('line', 40), paragraph('next', 40), paragraph('last', 10)]; // 199, 199, 49
    expect(splitIntoThread(lines.join('\n'))).toEqual([lines[0], `${lines[1]}\n${lines[2]}`]);
    const words = paragraph('word', 100); // 499, one line
    const parts = splitIntoThread(words);
    expect(parts).toEqual([paragraph('word', 56), paragraph('word', 44)]);
  });

  it('strips links and drops lines that held only a link', () => {
    expect(stripLinks('Read it (see https://example.com/post) now\nhttps://x.com/a\nbye www.example.org, example.io!'))
      .toEqual({ text: 'Read it (see) now\nbye,!', removed: 4 });
    expect(stripLinks('mail me at me@example.com or node.js').removed).toBe(0);
  });
});

describe('connect', () => {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');

  it('builds the authorize URL with the client, scopes, redirect, state and an S256 challenge', () => {
    const url = new URL(x.oauth!.authorizeUrl({ state: 'st-1', redirectUri: REDIRECT, codeChallenge: challenge }));
    expect(`${url.origin}${url.pathname}`).toBe(`${sim.origin}/i/oauth2/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code', client_id: client.clientId, redirect_uri: REDIRECT, scope: 'tweet.read tweet.write users.read media.write offline.access',
      state: 'st-1', code_challenge: challenge, code_challenge_method: 'S256',
    });
    expect(x.oauth!.pkce).toBe(true);
    expect(() => x.oauth!.authorizeUrl({ state: 's', redirectUri: REDIRECT })).toThrow(/PKCE/);
  });

  it('goes through the approve page, exchanges the code with Basic auth and PKCE, and reads the identity', async () => {
    const authorize = x.oauth!.authorizeUrl({ state: 'st-2', redirectUri: REDIRECT, codeChallenge: challenge });
    const page = await fetch(authorize);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('@herald_dev');
    const form = new URLSearchParams({ ...Object.fromEntries(new URL(authorize).searchParams), account_id: account.id, decision: 'allow' });
    const approved = await fetch(`${sim.origin}/i/oauth2/authorize`, { method: 'POST', body: form, redirect: 'manual' });
    expect(approved.status).toBe(302);
    const callback = new URL(approved.headers.get('location')!);
    expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT);
    expect(callback.searchParams.get('state')).toBe('st-2');

    const before = Date.now();
    const connected = await x.oauth!.exchangeCode({ code: callback.searchParams.get('code')!, redirectUri: REDIRECT, codeVerifier: verifier });
    expect(connected.identity).toEqual({
      platformUserId: account.id, handle: 'herald_dev', displayName: 'Herald Dev', avatarUrl: account.profileImageUrl,
    });
    expect(Object.keys(connected.credentials).sort()).toEqual(['access_token', 'expires_at', 'refresh_token', 'scope', 'user_id', 'username']);
    expect(connected.credentials).toMatchObject({ user_id: account.id, username: 'herald_dev', scope: 'tweet.read tweet.write users.read media.write offline.access' });
    const expiresIn = Date.parse(connected.credentials.expires_at!) - before;
    expect(expiresIn).toBeGreaterThan(7190_000);
    expect(expiresIn).toBeLessThanOrEqual(7201_000);

    const token = sim.requests.find((r) => r.path === '/2/oauth2/token')!;
    expect(token.headers.authorization).toBe(`Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`);
    expect(token.body).toEqual({
      grant_type: 'authorization_code', code: callback.searchParams.get('code'), redirect_uri: REDIRECT, code_verifier: verifier, client_id: client.clientId,
    });
    const me = sim.requests.find((r) => r.path === '/2/users/me')!;
    expect(me.query).toEqual({ 'user.fields': 'profile_image_url,username,name' });
    expect(me.headers.authorization).toBe(`Bearer ${connected.credentials.access_token}`);
  });

  it('sends the user back with access_denied when they cancel', async () => {
    const authorize = x.oauth!.authorizeUrl({ state: 'st-3', redirectUri: REDIRECT, codeChallenge: challenge });
    const form = new URLSearchParams({ ...Object.fromEntries(new URL(authorize).searchParams), account_id: account.id, decision: 'deny' });
    const res = await fetch(`${sim.origin}/i/oauth2/authorize`, { method: 'POST', body: form, redirect: 'manual' });
    expect(Object.fromEntries(new URL(res.headers.get('location')!).searchParams)).toEqual({ state: 'st-3', error: 'access_denied' });
  });

  it('refuses a wrong verifier and a reused code', async () => {
    const code = sim.issueAuthCode(account.id, { clientId: client.clientId, redirectUri: REDIRECT, codeChallenge: challenge });
    await expect(x.oauth!.exchangeCode({ code, redirectUri: REDIRECT, codeVerifier: 'not-the-verifier' }))
      .rejects.toMatchObject({ failure: { kind: 'rejected', code: 'oauth_code_rejected' }, upstream: { status: 400, code: 'invalid_request' } });
    const fresh = sim.issueAuthCode(account.id, { clientId: client.clientId, redirectUri: REDIRECT, codeChallenge: challenge });
    await x.oauth!.exchangeCode({ code: fresh, redirectUri: REDIRECT, codeVerifier: verifier });
    await expect(x.oauth!.exchangeCode({ code: fresh, redirectUri: REDIRECT, codeVerifier: verifier }))
      .rejects.toMatchObject({ failure: { kind: 'rejected', code: 'oauth_code_rejected' } });
  });

  it('refuses a wrong client secret as a client problem, not an account problem', async () => {
    const wrong = adapter({ clientSecret: 'nope' });
    const code = sim.issueAuthCode(account.id, { clientId: client.clientId, redirectUri: REDIRECT, codeChallenge: challenge });
    await expect(wrong.oauth!.exchangeCode({ code, redirectUri: REDIRECT, codeVerifier: verifier }))
      .rejects.toMatchObject({ failure: { kind: 'rejected', code: 'oauth_client_rejected' }, upstream: { status: 401 } });
  });


  it('computes expires_at of a refreshed token from the injected clock', async () => {
    const clock = new Date('2001-02-03T04:05:06Z');
    const renewed = await adapter({ now: () => clock }).refresher!.refresh(credentialsFor());
    const at = Date.parse(renewed.expires_at!);
    expect(at).toBeGreaterThan(clock.getTime());
    expect(at).toBeLessThan(clock.getTime() + 400 * 86400_000);
  });

  it('refresh rotates the refresh token: the new pair works, the old refresh token does not', async () => {
    const old = credentialsFor();
    const renewed = await x.refresher!.refresh(old);
    expect(renewed.access_token).not.toBe(old.access_token);
    expect(renewed.refresh_token).not.toBe(old.refresh_token);
    expect(renewed).toMatchObject({ user_id: account.id, username: 'herald_dev' });
    expect(Date.parse(renewed.expires_at!)).toBeGreaterThan(Date.now() + 7100_000);
    expect(sim.requests.at(-1)!.body).toEqual({ grant_type: 'refresh_token', refresh_token: old.refresh_token, client_id: client.clientId });

    await expect(x.refresher!.refresh(old)).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'refresh_token_invalid' } });
    const { outcome } = await drivePublish(x, ctxFor(renewed), textPost('posted with the renewed token'));
    expect(sim.tweets().map((t) => t.id)).toEqual([outcome.postId]);
    await x.refresher!.refresh(renewed);
  });

  it('refresh after the user revoked the app is auth_expired', async () => {
    const creds = credentialsFor();
    sim.revokeTokens(account.id);
    await expect(x.refresher!.refresh(creds)).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'refresh_token_invalid' } });
    await expect(x.refresher!.refresh({ ...creds, refresh_token: '' })).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'refresh_token_missing' } });
  });
});

describe('publish text', () => {
  it('posts one tweet and returns its id, URL and thread ids', async () => {
    const { outcome, steps } = await drivePublish(x, ctxFor(), textPost('Hello from Herald'));
    const [tweet] = sim.tweets();
    expect(steps).toBe(1);
    expect(outcome).toEqual({ postId: tweet!.id, url: `https://x.com/herald_dev/status/${tweet!.id}`, warnings: [], extra: { post_ids: [tweet!.id] } });
    expect(tweetBodies()).toEqual([{ text: 'Hello from Herald' }]);
    expect(sim.requests[0]!.headers.authorization).toMatch(/^Bearer /);
  });

  it('maps every setting onto the create request', async () => {
    const other = sim.createAccount({ username: 'someone' });
    const target = sim.createTweet(other.id, 'the post we answer');
    const community = sim.createCommunity('Herald users');
    const settings = {
      reply_to_id: target, exclude_reply_user_ids: ['2244994945'], reply_settings: 'following', geo_place_id: 'df51dec6f4ee2b2c', nullcast: true,
      made_with_ai: true, for_super_followers_only: true, community_id: community, share_with_followers: true,
      direct_message_deep_link: 'https://x.com/messages/compose?recipient_id=2244994945', x_paid_partnership: true, x_long_text_as_post: false,
    };
    await drivePublish(x, ctxFor(), textPost('Every field at once', settings));
    expect(tweetBodies()).toEqual([{
      text: 'Every field at once',
      reply: { in_reply_to_tweet_id: target, exclude_reply_user_ids: ['2244994945'] },
      community_id: community, share_with_followers: true, geo: { place_id: 'df51dec6f4ee2b2c' },
      direct_message_deep_link: 'https://x.com/messages/compose?recipient_id=2244994945',
      reply_settings: 'following', for_super_followers_only: true, nullcast: true, made_with_ai: true, paid_partnership: true,
    }]);
    expect(sim.replies(target)).toHaveLength(1);
  });

  it('quotes a post with quote_tweet_id and sends nothing for false flags', async () => {
    const quoted = sim.createTweet(account.id, 'an earlier post');
    await drivePublish(x, ctxFor(), textPost('Quoting myself', { quote_tweet_id: quoted, nullcast: false, made_with_ai: false }));
    expect(tweetBodies()).toEqual([{ text: 'Quoting myself', quote_tweet_id: quoted }]);
    expect(sim.tweets().at(-1)).toMatchObject({ quote_tweet_id: quoted });
  });

  it('posts a long text as a thread, each tweet replying to the one before', async () => {
    const parts = [paragraph('alpha', 40), paragraph('bravo', 40), paragraph('charlie', 30)];
    const { outcome } = await drivePublish(x, ctxFor(), textPost(parts.join('\n\n'), { reply_settings: 'verified', community_id: sim.createCommunity('c') }));
    const thread = sim.tweets();
    expect(thread.map((t) => t.text)).toEqual(parts);
    expect(thread.map((t) => t.in_reply_to_tweet_id)).toEqual([undefined, thread[0]!.id, thread[1]!.id]);
    expect(outcome).toMatchObject({ postId: thread[0]!.id, extra: { post_ids: thread.map((t) => t.id) } });
    const bodies = tweetBodies();
    expect(bodies[0]).toHaveProperty('community_id');
    expect(bodies.slice(1).map((b) => Object.keys(b).sort())).toEqual([['reply', 'reply_settings', 'text'], ['reply', 'reply_settings', 'text']]);
  });

  it('x_long_text_as_post posts the whole text as one post (Premium), which X refuses on other accounts', async () => {
    const premium = sim.createAccount({ username: 'premium_poster', premium: true });
    const long = paragraph('longer', 90);
    await drivePublish(x, ctxFor(credentialsFor(premium)), textPost(long, { x_long_text_as_post: true }));
    expect(sim.tweets(premium.id).map((t) => t.text)).toEqual([long]);
    await expect(drivePublish(x, ctxFor(), textPost(`${long}!`, { x_long_text_as_post: true })))
      .rejects.toMatchObject({ failure: { kind: 'invalid_content' }, upstream: { status: 400 } });
  });

  it('strips links with a warning by default, and keeps them when the adapter is told to', async () => {
    const { outcome } = await drivePublish(x, ctxFor(), textPost('New release https://example.com/notes out now'));
    expect(tweetBodies()).toEqual([{ text: 'New release out now' }]);
    expect(outcome.warnings).toEqual(['1 link(s) were removed from the X post text: X shows links only on accounts with the link add-on.']);
    const keeping = await drivePublish(adapter({ keepLinks: true }), ctxFor(), textPost('Kept https://example.com/notes'));
    expect(tweetBodies()[1]).toEqual({ text: 'Kept https://example.com/notes' });
    expect(keeping.outcome.warnings).toEqual([]);
  });

  it.each([
    ['a text that is only links', textPost('https://example.com'), 'text_empty'],
    ['an empty text', textPost('   '), 'text_empty'],
    ['a single post over 25000', textPost('a'.repeat(25_001), { x_long_text_as_post: true }), 'text_too_long'],
    ['broken settings', textPost('hi', { exclude_reply_user_ids: ['1'] }), 'invalid_settings'],
  ])('refuses %s before sending anything', async (_label, p, code) => {
    const err = await rejection(x.publisher!.publish(ctxFor(), p));
    expect(err).toBeInstanceOf(PlatformError);
    expect(err.failure).toEqual({ kind: 'invalid_content', code });
    expect(sim.requests).toHaveLength(0);
  });
});

describe('publish photos', () => {
  it('uploads each image (initialize, append, finalize, alt text) and posts them with the settings', async () => {
    const [a, b] = fixtures.images;
    const settings = { x_alt_text: ['A blue square', 'Another, darker'], tagged_user_ids: ['2244994945'], made_with_ai: true, x_paid_partnership: true };
    const { outcome } = await drivePublish(x, ctxFor(), post('photo', 'Two squares', [a!, b!], settings));

    const uploads = sim.media();
    expect(uploads.map((m) => ({ type: m.mediaType, category: m.category, total: m.totalBytes, state: m.state, alt: m.altText }))).toEqual([
      { type: 'image/jpeg', category: 'tweet_image', total: a!.size, state: 'succeeded', alt: 'A blue square' },
      { type: 'image/jpeg', category: 'tweet_image', total: b!.size, state: 'succeeded', alt: 'Another, darker' },
    ]);
    const calls = sim.requests.map((r) => `${r.method} ${r.path.replace(/\d{10,}/, ':id')}`);
    expect(calls).toEqual([
      'POST /2/media/upload/initialize', 'POST /2/media/upload/:id/append', 'POST /2/media/upload/:id/finalize', 'POST /2/media/metadata',
      'POST /2/media/upload/initialize', 'POST /2/media/upload/:id/append', 'POST /2/media/upload/:id/finalize', 'POST /2/media/metadata',
      'POST /2/tweets',
    ]);
    expect(sim.requests[0]!.body).toEqual({ media_type: 'image/jpeg', total_bytes: a!.size, media_category: 'tweet_image' });
    expect(sim.requests[1]!.body).toEqual({ fields: { segment_index: '0' }, files: [{ name: 'media', filename: 'blob', size: a!.size }] });
    expect(sim.requests[3]!.body).toEqual({ id: uploads[0]!.id, metadata: { alt_text: { text: 'A blue square' } } });
    expect(tweetBodies()).toEqual([{
      text: 'Two squares', media: { media_ids: uploads.map((m) => m.id), tagged_user_ids: ['2244994945'] }, made_with_ai: true, paid_partnership: true,
    }]);
    expect(outcome.postId).toBe(sim.tweets()[0]!.id);
  });

  it('auto-chunks more than 4 images into tweets of 4', async () => {
    await drivePublish(x, ctxFor(), post('photo', 'Six squares', fixtures.images));
    const thread = sim.tweets();
    expect(thread.map((t) => [t.text, t.media_ids.length])).toEqual([['Six squares', 4], ['', 2]]);
    expect(thread[1]!.in_reply_to_tweet_id).toBe(thread[0]!.id);
  });

  it('follows x_thread_image_layout, with 0 as a text-only tweet', async () => {
    const parts = [paragraph('first', 40), paragraph('second', 35), paragraph('third', 40)];
    await drivePublish(x, ctxFor(), post('photo', parts.join('\n\n'), [...fixtures.images.slice(0, 2), fixtures.png], { x_thread_image_layout: ['1', '0', '2'] }));
    const ids = sim.media().map((m) => m.id);
    expect(sim.tweets().map((t) => [t.text, t.media_ids])).toEqual([[parts[0], [ids[0]]], [parts[1], []], [parts[2], [ids[1], ids[2]]]]);
    expect(sim.media()[2]).toMatchObject({ mediaType: 'image/png', category: 'tweet_image' });
  });

  it('refuses a layout tweet with neither text nor images, and a video on the photo endpoint, before sending anything', async () => {
    await expect(x.publisher!.publish(ctxFor(), post('photo', 'one part', fixtures.images.slice(0, 2), { x_thread_image_layout: ['1', '0', '1'] })))
      .rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'photo_layout' } });
    await expect(x.publisher!.publish(ctxFor(), post('photo', 'a video', [fixtures.video])))
      .rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'unsupported_media' } });
    expect(sim.requests).toHaveLength(0);
  });
});

describe('publish video', () => {
  it('uploads in segments, waits while X processes, then posts', async () => {
    const video = fixtures.video;
    const first = await x.publisher!.publish(ctxFor(), post('video', 'A test video', [video], { reply_settings: 'following' }));
    expect(first).toMatchObject({ kind: 'wait', afterMs: 1000 });
    expect(sim.tweets()).toHaveLength(0);

    const { outcome } = await drivePublish(x, ctxFor(), post('video', 'A test video', [video], { reply_settings: 'following' }));
    const segments = Math.ceil(video.size / (16 * 1024));
    const [, upload] = sim.media();
    expect(upload).toMatchObject({ mediaType: 'video/mp4', category: 'tweet_video', totalBytes: video.size, state: 'succeeded' });
    expect(Object.keys(upload!.segments)).toHaveLength(segments);
    const appends = sim.requests.filter((r) => r.path === `/2/media/upload/${upload!.id}/append`);
    expect(appends.map((r) => (r.body as { fields: Record<string, string> }).fields.segment_index)).toEqual(Array.from({ length: segments }, (_, i) => String(i)));
    const status = sim.requests.filter((r) => r.method === 'GET' && r.path === '/2/media/upload' && r.query.media_id === upload!.id);
    expect(status.length).toBeGreaterThan(0);
    expect(status[0]!.query).toEqual({ command: 'STATUS', media_id: upload!.id });
    expect(tweetBodies()).toEqual([{ text: 'A test video', media: { media_ids: [upload!.id] }, reply_settings: 'following' }]);
    expect(outcome.postId).toBe(sim.tweets()[0]!.id);
  });

  it('fails as invalid_content when X cannot process the video, and posts nothing', async () => {
    sim.fail('media_processing_failed');
    await expect(drivePublish(x, ctxFor(), post('video', 'broken', [fixtures.landscapeVideo])))
      .rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'media_processing_failed' }, message: expect.stringMatching(/Unsupported video format/) });
    expect(sim.tweets()).toHaveLength(0);
  });

  it('refuses a video over 20 minutes before sending anything', async () => {
    const long: MediaRef = { ...fixtures.video, info: { ...fixtures.video.info!, durationSeconds: 1201 } };
    await expect(x.publisher!.publish(ctxFor(), post('video', 'too long', [long]))).rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'video_too_long' } });
    expect(sim.requests).toHaveLength(0);
  });
});

describe('first comment', () => {
  it('replies to the last tweet of the thread, links stripped', async () => {
    const parts = [paragraph('alpha', 40), paragraph('bravo', 40)];
    const { outcome } = await drivePublish(x, ctxFor(), textPost(parts.join('\n\n')));
    const comment = await postFirstComment(x, ctxFor(), { post: outcome, text: 'More at https://example.com' });
    const last = sim.tweets()[1]!;
    expect(sim.replies(last.id)).toEqual([expect.objectContaining({ id: comment.commentId, text: 'More at' })]);
    expect(comment.warnings).toEqual(['1 link(s) were removed from the X first comment.']);
  });

  it('skips with a warning when the post id is not known yet', async () => {
    const result = await postFirstComment(x, ctxFor(), { post: { postId: '', warnings: [] }, text: 'hello' });
    expect(result.warnings).toEqual(['The X first comment was skipped: the post id is not known yet.']);
    expect(sim.requests).toHaveLength(0);
  });
});

describe('failures', () => {
  const publishText = (text = 'hello', ctx = ctxFor(), adapterUnderTest = x) => drivePublish(adapterUnderTest, ctx, textPost(text));

  it.each([
    ['expired_token', { kind: 'auth_expired', reason: 'token_expired' }, 401],
    ['revoked_token', { kind: 'auth_expired', reason: 'token_expired' }, 401],
    ['server_error', { kind: 'transient' }, 500],
    ['service_unavailable', { kind: 'transient' }, 503],
    ['duplicate_content', { kind: 'rejected', code: 'duplicate_content' }, 403],
    ['forbidden', { kind: 'rejected' }, 403],
    ['invalid_request', { kind: 'invalid_content' }, 400],
  ] as const)('%s → %o', async (mode, failure, status) => {
    sim.fail(mode);
    const err = await rejection(publishText());
    expect(err.failure).toEqual(failure);
    expect(err.upstream.status).toBe(status);
    expect(sim.tweets()).toHaveLength(0);
  });

  it('rate_limited → rate_limited until x-rate-limit-reset', async () => {
    sim.fail('rate_limited');
    const err = await rejection(publishText());
    expect(err.failure.kind).toBe('rate_limited');
    const { retryAfterMs } = err.failure as { retryAfterMs: number };
    expect(retryAfterMs).toBeGreaterThan(58_000);
    expect(retryAfterMs).toBeLessThanOrEqual(61_000);
  });

  it('the daily cap waits for x-user-limit-24hour-reset; the usage cap is rate_limited too', async () => {
    sim.fail('daily_limit');
    const daily = await rejection(publishText());
    expect((daily.failure as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan((X_SIM_DAILY_LIMIT_RESET_SECONDS - 2) * 1000);
    sim.fail('usage_capped');
    await expect(publishText()).rejects.toMatchObject({ failure: { kind: 'rate_limited' }, upstream: { code: 'usage-capped' } });
  });

  it('a real duplicate is refused by X as duplicate_content', async () => {
    await publishText('same words');
    await expect(publishText('same words')).rejects.toMatchObject({ failure: { kind: 'rejected', code: 'duplicate_content' }, upstream: { status: 403 } });
  });

  it('an expired access token is auth_expired, and the refreshed one publishes', async () => {
    const creds = credentialsFor();
    sim.expireAccessTokens(account.id);
    await expect(publishText('try', ctxFor(creds))).rejects.toMatchObject({ failure: { kind: 'auth_expired' } });
    await publishText('try again', ctxFor(await x.refresher!.refresh(creds)));
    expect(sim.tweets().map((t) => t.text)).toEqual(['try again']);
  });

  it('a revoked token cannot be refreshed either', async () => {
    const creds = credentialsFor();
    sim.fail('revoked_token');
    await expect(publishText('x', ctxFor(creds))).rejects.toMatchObject({ failure: { kind: 'auth_expired' } });
    await expect(x.refresher!.refresh(creds)).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'refresh_token_invalid' } });
  });

  it('a timeout is transient with an unknown outcome', async () => {
    sim.setLatency(300);
    const err = await rejection(publishText('slow', ctxFor(), adapter({ timeoutMs: 100 })));
    expect(err.failure).toEqual({ kind: 'transient' });
    expect(err.message).toMatch(/100 ms.*outcome is unknown/);
  });

  describe('in the middle of a thread', () => {
    const thread = [paragraph('alpha', 40), paragraph('bravo', 40), paragraph('charlie', 30)].join('\n\n');
    /** Queues `mode` just before the second POST /2/tweets, so the first tweet is already live. */
    const failSecondTweet = (mode: Parameters<XSimulator['fail']>[0]) => {
      let tweetsSeen = 0;
      return adapter({
        fetch: (input, init) => {
          if (String(input).endsWith('/2/tweets') && ++tweetsSeen === 2) sim.fail(mode);
          return fetch(input, init);
        },
      });
    };

    it('a rate limit becomes a wait that retries the same tweet, never the first one again', async () => {
      const flaky = failSecondTweet('rate_limited');
      const step = await flaky.publisher!.publish(ctxFor(), textPost(thread));
      expect(step).toMatchObject({ kind: 'wait', state: { posted: [sim.tweets()[0]!.id], attempts: 1 } });
      expect((step as { afterMs: number }).afterMs).toBeGreaterThan(58_000);
      const done = await flaky.publisher!.resume!(ctxFor(), textPost(thread), JSON.parse(JSON.stringify((step as { state: object }).state)));
      expect(done.kind).toBe('done');
      expect(sim.tweets()).toHaveLength(3);
      expect(new Set(sim.tweets().map((t) => t.text)).size).toBe(3);
    });

    it('a refusal finishes with the part that is live and a warning', async () => {
      const { outcome } = await drivePublish(failSecondTweet('forbidden'), ctxFor(), textPost(thread));
      expect(sim.tweets()).toHaveLength(1);
      expect(outcome.postId).toBe(sim.tweets()[0]!.id);
      expect(outcome.warnings).toEqual([expect.stringMatching(/^Only 1 of the 3 posts of the X thread were published; the last 2 failed: X: You are not permitted/)]);
    });

    it('an expired token is thrown so the caller refreshes and repeats only this step', async () => {
      const flaky = failSecondTweet('expired_token');
      const step = await flaky.publisher!.publish(ctxFor(), textPost(thread));
      expect(step).toMatchObject({ kind: 'wait', afterMs: 0, state: { posted: [sim.tweets()[0]!.id] } });
      const state = (step as { state: Record<string, unknown> }).state;
      const stale = ctxFor();
      sim.expireAccessTokens(account.id);
      await expect(flaky.publisher!.resume!(stale, textPost(thread), state)).rejects.toMatchObject({ failure: { kind: 'auth_expired' } });
      const done = await flaky.publisher!.resume!(ctxFor(), textPost(thread), state);
      expect(done.kind).toBe('done');
      expect(sim.tweets().map((t) => t.in_reply_to_tweet_id)).toEqual([undefined, sim.tweets()[0]!.id, sim.tweets()[1]!.id]);
    });
  });
});

describe('simulator wire format', () => {
  const bearer = () => ({ authorization: `Bearer ${credentialsFor().access_token}` });

  it('answers X problem JSON for a missing token and rate-limit headers with a 429', async () => {
    const res = await fetch(`${sim.origin}/2/users/me`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ title: 'Unauthorized', detail: 'Unauthorized', type: 'about:blank', status: 401 });
    sim.fail('rate_limited');
    const limited = await fetch(`${sim.origin}/2/users/me`, { headers: bearer() });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('x-rate-limit-remaining')).toBe('0');
    expect(Number(limited.headers.get('x-rate-limit-reset'))).toBeGreaterThan(Date.now() / 1000);
  });

  it('accepts the older command=INIT|APPEND|FINALIZE form and checks the segments add up', async () => {
    const headers = bearer();
    const init = await fetch(`${sim.origin}/2/media/upload`, {
      method: 'POST', headers, body: new URLSearchParams({ command: 'INIT', media_type: 'image/png', total_bytes: '8', media_category: 'tweet_image' }),
    });
    const { data } = (await init.json()) as { data: { id: string; media_key: string } };
    expect(data.media_key).toBe(`3_${data.id}`);
    const append = new FormData();
    for (const [k, v] of Object.entries({ command: 'APPEND', media_id: data.id, segment_index: '0' })) append.append(k, v);
    append.append('media', new Blob([Buffer.from([0x89, 0x50, 0x4e, 0x47])]), 'blob');
    expect((await fetch(`${sim.origin}/2/media/upload`, { method: 'POST', headers, body: append })).status).toBe(200);
    const short = await fetch(`${sim.origin}/2/media/upload`, { method: 'POST', headers, body: new URLSearchParams({ command: 'FINALIZE', media_id: data.id }) });
    expect(short.status).toBe(400);
    expect(await short.json()).toMatchObject({ errors: [{ message: 'Segments do not add up to provided total file size.' }], type: 'https://api.twitter.com/2/problems/invalid-request' });
  });

  it('refuses posts over 280 weighted characters and unknown fields', async () => {
    const post = (body: unknown) => fetch(`${sim.origin}/2/tweets`, { method: 'POST', headers: { ...bearer(), 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post({ text: '日'.repeat(141) })).status).toBe(400);
    expect((await post({ text: '日'.repeat(140) })).status).toBe(201);
    expect(await (await post({ text: 'hi', made_up: true })).json()).toMatchObject({ title: 'Invalid Request' });
  });
});

describe('long-form Articles (x_article_title)', () => {
  const premium = () => sim.createAccount({ username: `writer_${Math.random().toString(36).slice(2, 8)}`, name: 'Writer', premium: true });

  it('creates a draft from the paragraphs and publishes it, reporting the seed post', async () => {
    const who = premium();
    const r = resolve('text', { x_article_title: 'Why Herald' });
    expect(r.violations).toEqual([]);
    const { outcome } = await drivePublish(adapter(), ctxFor(credentialsFor(who)), post('text', 'First paragraph.\n\nSecond https://example.com paragraph.', [], r.values));
    const article = sim.articles().find((a) => a.author_id === who.id)!;
    expect(article).toMatchObject({ title: 'Why Herald', text: 'First paragraph.\n\nSecond https://example.com paragraph.', status: 'published', post_id: outcome.postId });
    expect(outcome).toMatchObject({ url: `https://x.com/${who.username}/status/${outcome.postId}`, extra: { x_article_id: article.id, x_article_status: 'published' } });
    const draftBody = sim.requests.filter((q) => q.path === '/2/articles/draft').pop()!.body as { content_state: { blocks: Array<{ key: string; text: string }> } };
    expect(draftBody.content_state.blocks.map((b) => [b.key, b.text])).toEqual([['b0', 'First paragraph.'], ['b1', 'Second https://example.com paragraph.']]);
  });

  it('stops at the draft with x_article_draft', async () => {
    const who = premium();
    const r = resolve('text', { x_article_title: 'Later', x_article_draft: 'true' });
    const { outcome } = await drivePublish(adapter(), ctxFor(credentialsFor(who)), post('text', 'Body', [], r.values));
    expect(sim.articles().find((a) => a.author_id === who.id)).toMatchObject({ status: 'draft' });
    expect(outcome).toMatchObject({ extra: { x_article_status: 'draft' }, warnings: [expect.stringContaining('draft')] });
  });

  it('maps the refusal of a non-Premium account', async () => {
    const r = resolve('text', { x_article_title: 'Nope' });
    const err = await rejection(drivePublish(adapter(), ctxFor(credentialsFor(account)), post('text', 'Body', [], r.values)));
    expect(err.failure.kind).toBe('rejected');
  });
});
