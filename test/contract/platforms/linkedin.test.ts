import { PlatformError } from '../../../core/domain/errors';
import { postFirstComment } from '../../support/first-comment';
import { resolveSettings } from '../../../core/domain/settings';
import type { MediaKind } from '../../../core/domain/platforms';
import { textLengthOf, type PlatformAdapter, type PlatformCredentials, type PublishContext, type PublishPost } from '../../../core/ports/platform';
import type { RecordedRequest } from '../../../ops/simulators/kit/http';
import {
  createLinkedInPlatform, escapeLittleText, LINKEDIN_DEFAULT_VERSION, linkedinDescriptor, mapLinkedInFailure,
  type LinkedInPlatformOptions,
} from '../../../adapters/platforms/linkedin';
import {
  LINKEDIN_SIM_RETRY_AFTER_SECONDS, startLinkedInSimulator, type LinkedInAccountFixture, type LinkedInClientFixture, type LinkedInSimulator,
} from '../../../ops/simulators/linkedin';
import { drivePublish, mediaFixtures, textPost, type MediaFixtures , FIXTURE_TIMEOUT_MS } from '../../support/platform-harness';
import { noMedia } from '../../support/media-access';

const REDIRECT = 'https://herald.example/connect/linkedin/callback';
const MEMBER_SCOPES = ['openid', 'profile', 'w_member_social'];
const PAGE_SCOPES = [...MEMBER_SCOPES, 'w_organization_social', 'r_organization_admin', 'r_organization_social', 'rw_organization_admin'];
const PART_BYTES = 64 * 1024;
const DISTRIBUTION = { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] };

/** The month LinkedIn serves today; the adapter's default gets its own test below. */
const thisMonth = () => {
  const d = new Date();
  return `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
};

let sim: LinkedInSimulator;
let fx: MediaFixtures;
let client: LinkedInClientFixture;
let member: LinkedInAccountFixture;
let linkedin: PlatformAdapter;
let unique = 0;

const adapter = (extra: Partial<LinkedInPlatformOptions> = {}) => createLinkedInPlatform({
  clientId: client.clientId, clientSecret: client.clientSecret, apiBase: sim.apiBase, authBase: sim.authBase,
  version: thisMonth(), timeoutMs: 5000, videoPollMs: 20, ...extra,
});

beforeAll(async () => {
  sim = await startLinkedInSimulator({ seed: 'linkedin-contract', processingMs: 30, uploadPartBytes: PART_BYTES });
  fx = await mediaFixtures();
  client = sim.registerClient({ redirectUris: [REDIRECT] });
  member = sim.createAccount({ name: 'Ada Lovelace', pages: [{ name: 'Analytical Engines' }] });
  linkedin = adapter();
}, FIXTURE_TIMEOUT_MS);
afterAll(async () => {
  await sim.close();
  await fx.close();
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

function credentialsFor(scope = MEMBER_SCOPES): PlatformCredentials {
  const t = sim.issueTokens(member.sub, { clientId: client.clientId, scope });
  return { access_token: t.accessToken, expires_at: t.expiresAt.toISOString(), scope: scope.join(' '), member_urn: member.urn };
}
const ctxFor = (credentials = credentialsFor(), media = fx.access): PublishContext => ({ credentials, idempotencyKey: 'idem-1', media });

const page = () => member.pages[0]!.id;
/** Requests to a path (and Rest.li `action`, when given). */
const requestsTo = (method: string, path: RegExp | string, action?: string): RecordedRequest[] =>
  sim.requests.filter((r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path))
    && (action === undefined || r.query.action === action));
const only = (method: string, path: RegExp | string, action?: string): RecordedRequest => {
  const found = requestsTo(method, path, action);
  expect(found).toHaveLength(1);
  return found[0]!;
};

async function publishText(text: string, settings: Record<string, unknown> = {}, ctx = ctxFor(), a = linkedin) {
  return (await drivePublish(a, ctx, textPost(text, settings))).outcome;
}
const fresh = (text: string) => `${text} #${++unique}`;

describe('descriptor and settings', () => {
  const resolve = (fields: Record<string, unknown>, endpoint: MediaKind, mediaCount = endpoint === 'text' ? 0 : 1) =>
    resolveSettings('linkedin', linkedinDescriptor.settings, fields, { endpoint, mediaCount });

  it('declares an OAuth network on the three upload endpoints and documents, with the spec limits', () => {
    expect(linkedinDescriptor).toMatchObject({
      id: 'linkedin', connect: 'oauth', endpoints: ['video', 'photo', 'text', 'document'],
      limits: { textMaxChars: 3000, video: { maxSeconds: 600, minSeconds: 3 }, photo: { maxCount: 20 } },
    });
  });

  it('counts commentary as the publisher does: code points', () => {
    expect(textLengthOf(linkedinDescriptor, '😀'.repeat(3000))).toBe(3000);
  });

  it('applies defaults per endpoint', () => {
    expect(resolve({}, 'video')).toMatchObject({ values: { visibility: 'PUBLIC' }, violations: [], warnings: [] });
    expect(resolve({}, 'photo').values).toEqual({ visibility: 'PUBLIC', linkedin_disable_reshare: false });
    expect(resolve({}, 'text').values).toEqual({ visibility: 'PUBLIC', linkedin_disable_reshare: false, linkedin_poll_duration: 'SEVEN_DAYS' });
  });

  it('folds the visibility aliases into visibility, the canonical name winning, and checks the enum', () => {
    expect(resolve({ linkedin_visibility: 'CONNECTIONS' }, 'photo').values.visibility).toBe('CONNECTIONS');
    expect(resolve({ linkedinVisibility: 'LOGGED_IN' }, 'video').values.visibility).toBe('LOGGED_IN');
    expect(resolve({ visibility: 'CONTAINER', linkedin_visibility: 'CONNECTIONS' }, 'text').values.visibility).toBe('CONTAINER');
    expect(resolve({ linkedin_visibility: 'FRIENDS' }, 'photo').violations).toEqual([
      { field: 'linkedin_visibility', message: 'linkedin_visibility must be one of PUBLIC, CONNECTIONS, LOGGED_IN, CONTAINER' },
    ]);
  });

  it('reads linkedin_description, or description, on the media endpoints', () => {
    expect(resolve({ description: 'generic' }, 'video').values.linkedin_description).toBe('generic');
    expect(resolve({ description: 'generic', linkedin_description: 'mine' }, 'photo').values.linkedin_description).toBe('mine');
    expect(resolve({ linkedin_description: 'x' }, 'text').warnings).toEqual(['linkedin_description is not used by linkedin on this endpoint and was ignored.']);
  });

  it('reads linkedin_alt_text as a string, a JSON list or a repeated field, and checks it against the photos', () => {
    expect(resolve({ linkedin_alt_text: 'A dog, running' }, 'photo').values.linkedin_alt_text).toEqual(['A dog, running']);
    expect(resolve({ linkedin_alt_text: '["one", "two"]' }, 'photo', 2).values.linkedin_alt_text).toEqual(['one', 'two']);
    expect(resolve({ linkedin_alt_text: ['one', 'two'] }, 'photo', 2).values.linkedin_alt_text).toEqual(['one', 'two']);
    expect(resolve({ linkedin_alt_text: ['one', 'two', 'three'] }, 'photo', 2).violations).toEqual([
      { field: 'linkedin_alt_text', message: 'linkedin_alt_text has 3 entries for 2 photo(s)' },
    ]);
    expect(resolve({ linkedin_alt_text: 'x' }, 'video').warnings).toHaveLength(1);
  });

  it('checks polls: question and 2-4 options of at most 30 characters go together', () => {
    const poll = resolve({ linkedin_poll_question: 'Tabs or spaces?', 'linkedin_poll_options[]': ['Tabs', 'Spaces'], linkedin_poll_duration: 'ONE_DAY' }, 'text');
    expect(poll).toMatchObject({ violations: [], values: { linkedin_poll_options: ['Tabs', 'Spaces'], linkedin_poll_duration: 'ONE_DAY' } });
    expect(resolve({ linkedin_poll_options: 'a,b' }, 'text').violations.map((v) => v.field)).toEqual(['linkedin_poll_question']);
    expect(resolve({ linkedin_poll_question: 'Q?', linkedin_poll_options: ['only'] }, 'text').violations.map((v) => v.field)).toEqual(['linkedin_poll_options']);
    expect(resolve({ linkedin_poll_question: 'Q?', linkedin_poll_options: 'a,b,c,d,e' }, 'text').violations)
      .toEqual([{ field: 'linkedin_poll_options', message: 'linkedin_poll_options takes at most 4 items' }]);
    expect(resolve({ linkedin_poll_question: 'Q?', linkedin_poll_options: ['a', 'x'.repeat(31)] }, 'text').violations[0]!.message).toMatch(/over 30 characters/);
    expect(resolve({ linkedin_poll_question: 'Q?', linkedin_poll_options: ['a', 'a'] }, 'text').violations[0]!.message).toMatch(/must not repeat/);
    expect(resolve({ linkedin_poll_question: 'x'.repeat(141), linkedin_poll_options: ['a', 'b'] }, 'text').violations[0]!.field).toBe('linkedin_poll_question');
    expect(resolve({ linkedin_poll_duration: 'FOREVER' }, 'text').violations[0]!.field).toBe('linkedin_poll_duration');
    expect(resolve({ linkedin_poll_question: 'Q?' }, 'photo').warnings).toHaveLength(1);
  });

  it('takes a page as a numeric id or an organization URN', () => {
    expect(resolve({ target_linkedin_page_id: 'urn:li:organization:123' }, 'text').violations).toEqual([]);
    expect(resolve({ target_linkedin_page_id: '123' }, 'video').violations).toEqual([]);
    expect(resolve({ target_linkedin_page_id: 'acme-corp' }, 'photo').violations.map((v) => v.field)).toEqual(['target_linkedin_page_id']);
  });

  it('takes thumbnails on the video endpoint only, and linkedin_disable_reshare as a boolean', () => {
    expect(resolve({ thumbnail_url: 'https://cdn.example/t.jpg' }, 'video').values.thumbnail_url).toBe('https://cdn.example/t.jpg');
    expect(resolve({ thumbnail_url: 'ftp://x' }, 'video').violations).toHaveLength(1);
    expect(resolve({ thumbnail_url: 'https://cdn.example/t.jpg' }, 'photo').warnings).toHaveLength(1);
    expect(resolve({ linkedin_disable_reshare: 'yes' }, 'photo').values.linkedin_disable_reshare).toBe(true);
    expect(resolve({ linkedin_disable_reshare: 'maybe' }, 'photo').violations).toHaveLength(1);
  });
});

describe('connect', () => {
  it('builds the authorize URL with the client id, redirect, state and the member scopes, without PKCE', () => {
    expect(linkedin.oauth!.pkce).toBe(false);
    const url = new URL(linkedin.oauth!.authorizeUrl({ state: 'st-1', redirectUri: REDIRECT, codeChallenge: 'ignored' }));
    expect(`${url.origin}${url.pathname}`).toBe(`${sim.authBase}/authorization`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code', client_id: client.clientId, redirect_uri: REDIRECT, state: 'st-1', scope: 'openid profile w_member_social',
    });
    const pages = new URL(adapter({ organizationPages: true }).oauth!.authorizeUrl({ state: 's', redirectUri: REDIRECT }));
    expect(pages.searchParams.get('scope')).toBe('openid profile w_member_social w_organization_social r_organization_admin r_organization_social rw_organization_admin');
  });

  it('goes through the approve page, exchanges the code and reads the identity', async () => {
    const page = await fetch(linkedin.oauth!.authorizeUrl({ state: 'st-2', redirectUri: REDIRECT }));
    expect(page.status).toBe(200);
    const html = await page.text();
    const fields = Object.fromEntries([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!]));
    const approve = await fetch(`${sim.origin}/oauth/v2/authorization`, {
      method: 'POST', redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...fields, account: member.sub, decision: 'allow' }).toString(),
    });
    expect(approve.status).toBe(302);
    const back = new URL(approve.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('st-2');

    const before = Date.now();
    const { identity, credentials } = await linkedin.oauth!.exchangeCode({ code: back.searchParams.get('code')!, redirectUri: REDIRECT });
    expect(identity).toEqual({ platformUserId: member.sub, handle: 'Ada Lovelace', displayName: 'Ada Lovelace', avatarUrl: member.picture });
    expect(Object.keys(credentials).sort()).toEqual(['access_token', 'expires_at', 'member_urn', 'refresh_expires_at', 'refresh_token', 'scope']);
    expect(credentials).toMatchObject({ scope: 'openid profile w_member_social', member_urn: `urn:li:person:${member.sub}` });
    expect(Date.parse(credentials.expires_at!) - before).toBeGreaterThan(59 * 86400_000);
    expect(Date.parse(credentials.refresh_expires_at!) - before).toBeGreaterThan(364 * 86400_000);

    expect(only('POST', '/oauth/v2/accessToken').body).toEqual({
      grant_type: 'authorization_code', code: back.searchParams.get('code'), redirect_uri: REDIRECT, client_id: client.clientId, client_secret: client.clientSecret,
    });
    expect(only('GET', '/v2/userinfo').headers.authorization).toBe(`Bearer ${credentials.access_token}`);
  });

  it('sends the user back with user_cancelled_authorize when they cancel', async () => {
    const res = await fetch(`${sim.origin}/oauth/v2/authorization`, {
      method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: client.clientId, redirect_uri: REDIRECT, scope: 'openid profile', state: 's', decision: 'cancel' }).toString(),
    });
    const back = new URL(res.headers.get('location')!);
    expect(Object.fromEntries(back.searchParams)).toMatchObject({ error: 'user_cancelled_authorize', state: 's' });
  });

  it('lists the administered pages when the organization scopes were granted', async () => {
    const code = sim.issueAuthCode(member.sub, { clientId: client.clientId, redirectUri: REDIRECT, scope: PAGE_SCOPES });
    const { credentials } = await adapter({ organizationPages: true }).oauth!.exchangeCode({ code, redirectUri: REDIRECT });
    expect(JSON.parse(credentials.pages!)).toEqual([{ id: page(), role: 'ADMINISTRATOR' }]);
    expect(credentials.scope).toBe(PAGE_SCOPES.join(' '));
    const acl = only('GET', '/rest/organizationAcls');
    expect(acl.query).toEqual({ q: 'roleAssignee', state: 'APPROVED' });
    expect(acl.headers).toMatchObject({ 'linkedin-version': thisMonth(), 'x-restli-protocol-version': '2.0.0' });
  });

  it('refuses a code used twice', async () => {
    const code = sim.issueAuthCode(member.sub, { clientId: client.clientId, redirectUri: REDIRECT });
    await linkedin.oauth!.exchangeCode({ code, redirectUri: REDIRECT });
    await expect(linkedin.oauth!.exchangeCode({ code, redirectUri: REDIRECT }))
      .rejects.toMatchObject({ failure: { kind: 'rejected', code: 'oauth_code_invalid' }, upstream: { status: 400, code: 'invalid_grant' } });
  });

  it('refresh rotates the refresh token, keeps its expiry, and the old one stops working', async () => {
    const code = sim.issueAuthCode(member.sub, { clientId: client.clientId, redirectUri: REDIRECT });
    const { credentials } = await linkedin.oauth!.exchangeCode({ code, redirectUri: REDIRECT });
    const renewed = await linkedin.refresher!.refresh(credentials);
    expect(renewed.access_token).not.toBe(credentials.access_token);
    expect(renewed.refresh_token).not.toBe(credentials.refresh_token);
    expect(Math.abs(Date.parse(renewed.refresh_expires_at!) - Date.parse(credentials.refresh_expires_at!))).toBeLessThan(5000);
    expect(requestsTo('POST', '/oauth/v2/accessToken').at(-1)!.body).toEqual({
      grant_type: 'refresh_token', refresh_token: credentials.refresh_token, client_id: client.clientId, client_secret: client.clientSecret,
    });
    await publishText(fresh('Posted with the renewed token'), {}, ctxFor(renewed));

    await expect(linkedin.refresher!.refresh(credentials))
      .rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'refresh_token_invalid' } });
  });

  it('without a refresh token keeps expires_at and asks for reconnection when it comes, sending nothing', async () => {
    const plain = sim.registerClient({ redirectUris: [REDIRECT], clientId: 'no-refresh-client', refreshTokens: false });
    const a = adapter({ clientId: plain.clientId, clientSecret: plain.clientSecret });
    const code = sim.issueAuthCode(member.sub, { clientId: plain.clientId, redirectUri: REDIRECT });
    const { credentials } = await a.oauth!.exchangeCode({ code, redirectUri: REDIRECT });
    expect(credentials.refresh_token).toBeUndefined();
    // The access token's 60 days, on the adapter's (real) clock.
    expect(Math.abs(Date.parse(credentials.expires_at!) - (Date.now() + 60 * 86400_000))).toBeLessThan(5000);
    sim.reset();
    await expect(a.refresher!.refresh(credentials)).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'refresh_unavailable' } });
    expect(sim.requests).toHaveLength(0);
  });

  it('computes expires_at and refresh_expires_at from the injected clock, on connect and on refresh', async () => {
    const now = new Date('2031-05-01T10:00:00.000Z');
    const a = adapter({ now: () => now });
    const code = sim.issueAuthCode(member.sub, { clientId: client.clientId, redirectUri: REDIRECT });
    const { credentials } = await a.oauth!.exchangeCode({ code, redirectUri: REDIRECT });
    expect(credentials.expires_at).toBe(new Date(now.getTime() + 60 * 86400_000).toISOString());
    // The simulator answers refresh_token_expires_in on its own (real) clock: within a few seconds of 365 days.
    expect(Math.abs(Date.parse(credentials.refresh_expires_at!) - (now.getTime() + 365 * 86400_000))).toBeLessThan(5000);
    const renewed = await a.refresher!.refresh(credentials);
    expect(renewed.expires_at).toBe(new Date(now.getTime() + 60 * 86400_000).toISOString());
  });

  it('a refresh token past refresh_expires_at on the injected clock is auth_expired, sending nothing', async () => {
    const code = sim.issueAuthCode(member.sub, { clientId: client.clientId, redirectUri: REDIRECT });
    const { credentials } = await linkedin.oauth!.exchangeCode({ code, redirectUri: REDIRECT });
    const later = adapter({ now: () => new Date(Date.parse(credentials.refresh_expires_at!) + 1000) });
    sim.reset();
    await expect(later.refresher!.refresh(credentials)).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'refresh_token_expired' } });
    expect(sim.requests).toHaveLength(0);
  });

  it('a revoked app cannot refresh: auth_expired', async () => {
    const code = sim.issueAuthCode(member.sub, { clientId: client.clientId, redirectUri: REDIRECT });
    const { credentials } = await linkedin.oauth!.exchangeCode({ code, redirectUri: REDIRECT });
    sim.revokeTokens(member.sub);
    await expect(linkedin.refresher!.refresh(credentials)).rejects.toMatchObject({ failure: { kind: 'auth_expired' } });
    await expect(publishText('after revoke', {}, ctxFor(credentials)))
      .rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'token_revoked' }, upstream: { status: 401, code: 'REVOKED_ACCESS_TOKEN' } });
  });
});

describe('publish text', () => {
  it('creates a post with the REST headers and every field, and LinkedIn shows the text unchanged', async () => {
    const text = fresh('Launch (v2.0) is out! Thanks @team [beta] <3 {json} a|b *bold* _it_ ~s~ back\\slash #launch https://example.com/a_(b)');
    const creds = credentialsFor();
    const outcome = await publishText(text, { visibility: 'CONNECTIONS', linkedin_disable_reshare: true }, ctxFor(creds));

    const req = only('POST', '/rest/posts');
    expect(req.headers).toMatchObject({
      authorization: `Bearer ${creds.access_token}`, 'linkedin-version': thisMonth(), 'x-restli-protocol-version': '2.0.0', 'content-type': 'application/json',
    });
    expect(req.body).toEqual({
      author: member.urn, commentary: escapeLittleText(text), visibility: 'CONNECTIONS', distribution: DISTRIBUTION,
      lifecycleState: 'PUBLISHED', isReshareDisabledByAuthor: true,
    });
    const [post] = sim.posts();
    expect(post).toMatchObject({ id: outcome.postId, text, truncated: false });
    expect(outcome).toEqual({ postId: expect.stringMatching(/^urn:li:share:\d+$/), url: `https://www.linkedin.com/feed/update/${outcome.postId}`, warnings: [] });
  });

  it('escapes little-text reserved characters but keeps links and hashtags', () => {
    expect(escapeLittleText('Hi (all) @team #launch_day https://x.io/a_b ~ 50% off*'))
      .toBe('Hi \\(all\\) \\@team #launch\\_day https://x.io/a_b \\~ 50% off\\*');
  });

  it('posts as a page when target_linkedin_page_id is set and the page scope was granted', async () => {
    await publishText(fresh('From the page'), { target_linkedin_page_id: `urn:li:organization:${page()}` }, ctxFor(credentialsFor(PAGE_SCOPES)));
    expect(only('POST', '/rest/posts').body).toMatchObject({ author: `urn:li:organization:${page()}`, visibility: 'PUBLIC' });
  });

  it('publishes a poll', async () => {
    const outcome = await publishText('', {
      linkedin_poll_question: 'Tabs or spaces?', linkedin_poll_options: ['Tabs', 'Spaces', 'Both'], linkedin_poll_duration: 'THREE_DAYS',
    });
    expect(only('POST', '/rest/posts').body).toMatchObject({
      commentary: '',
      content: { poll: { question: 'Tabs or spaces?', options: [{ text: 'Tabs' }, { text: 'Spaces' }, { text: 'Both' }], settings: { duration: 'THREE_DAYS' } } },
    });
    expect(outcome.postId).toMatch(/^urn:li:ugcPost:/);
  });

  it('accepts 3000 characters counted as code points', async () => {
    await publishText('😀'.repeat(2999) + String(++unique % 10));
    expect([...sim.posts()[0]!.text].length).toBe(3000);
  });

  it.each([
    ['over 3000 characters', 'x'.repeat(3001), {}, { kind: 'invalid_content', code: 'text_too_long' }],
    ['an empty text', '   ', {}, { kind: 'invalid_content', code: 'text_empty' }],
    ['poll options without a question', 'text', { linkedin_poll_options: ['a', 'b'] }, { kind: 'invalid_content' }],
    ['a page without the page scope', 'text', { target_linkedin_page_id: '123' }, { kind: 'rejected', code: 'permission_denied' }],
  ])('refuses %s before sending anything', async (_label, text, settings, failure) => {
    const err = await rejection(publishText(text, settings));
    expect(err).toBeInstanceOf(PlatformError);
    expect(err).toMatchObject({ failure });
    expect(sim.requests).toHaveLength(0);
  });

  it('maps LinkedIn refusing a page the member does not administer to rejected permission_denied', async () => {
    await expect(publishText(fresh('Not my page'), { target_linkedin_page_id: '999' }, ctxFor(credentialsFor(PAGE_SCOPES))))
      .rejects.toMatchObject({ failure: { kind: 'rejected', code: 'permission_denied' }, upstream: { status: 403, code: 'ACCESS_DENIED' } });
  });

  it('maps LinkedIn refusing the same post twice to invalid_content duplicate_post', async () => {
    const text = fresh('Said twice');
    await publishText(text);
    await expect(publishText(text)).rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'duplicate_post' }, upstream: { status: 422 } });
  });
});

describe('publish photos', () => {
  const photoPost = (media = [fx.images[0]!], settings: Record<string, unknown> = {}, extra: Partial<PublishPost> = {}): PublishPost =>
    ({ kind: 'photo', title: 'Sunset', media, settings: { visibility: 'PUBLIC', ...settings }, ...extra });

  it('uploads one image and posts it with title, alt text and the description as commentary', async () => {
    const image = fx.images[0]!;
    const { outcome } = await drivePublish(linkedin, ctxFor(), photoPost([image], { linkedin_alt_text: ['A red sky'], linkedin_description: 'Evening (again)' }));

    expect(only('POST', '/rest/images').body).toEqual({ initializeUploadRequest: { owner: member.urn } });
    const put = only('PUT', /^\/dms-uploads\//);
    expect(put.body).toEqual({ contentType: 'image/jpeg', size: image.size });
    const [stored] = sim.images();
    expect(stored).toMatchObject({ status: 'AVAILABLE', size: image.size, owner: member.urn });
    expect(only('POST', '/rest/posts').body).toEqual({
      author: member.urn, commentary: 'Evening \\(again\\)', visibility: 'PUBLIC', distribution: DISTRIBUTION,
      content: { media: { id: stored!.urn, altText: 'A red sky', title: 'Sunset' } }, lifecycleState: 'PUBLISHED', isReshareDisabledByAuthor: false,
    });
    expect(sim.posts()[0]!.text).toBe('Evening (again)');
    expect(outcome.postId).toBe(sim.posts()[0]!.id);
  });

  it('posts several images as multiImage, alt texts in order, commentary defaulting to the title', async () => {
    const media = [fx.images[1]!, fx.images[2]!, fx.png];
    await drivePublish(linkedin, ctxFor(), photoPost(media, { linkedin_alt_text: ['first', 'second'] }));
    expect(requestsTo('PUT', /^\/dms-uploads\//).map((r) => r.body)).toEqual(media.map((m) => ({ contentType: m.contentType, size: m.size })));
    const urns = sim.images().map((i) => i.urn);
    expect(only('POST', '/rest/posts').body).toMatchObject({
      commentary: 'Sunset',
      content: { multiImage: { images: [{ id: urns[0], altText: 'first' }, { id: urns[1], altText: 'second' }, { id: urns[2] }] } },
    });
  });

  it('posts as a page: the images belong to the page too', async () => {
    await drivePublish(linkedin, ctxFor(credentialsFor(PAGE_SCOPES)), photoPost([fx.images[0]!], { target_linkedin_page_id: page() }));
    expect(only('POST', '/rest/images').body).toEqual({ initializeUploadRequest: { owner: `urn:li:organization:${page()}` } });
    expect(sim.posts()[0]!.author).toBe(`urn:li:organization:${page()}`);
  });

  it.each([
    ['a video', () => [fx.video], 'unsupported_media'],
    ['21 images', () => Array.from({ length: 21 }, () => fx.images[0]!), 'too_many_images'],
  ])('refuses %s on the photo endpoint before sending anything', async (_label, media, code) => {
    await expect(drivePublish(linkedin, ctxFor(), photoPost(media()))).rejects.toMatchObject({ failure: { kind: 'invalid_content', code } });
    expect(sim.requests).toHaveLength(0);
  });

  it('an upload that fails is transient and nothing is posted', async () => {
    sim.fail('upload_failed');
    await expect(drivePublish(linkedin, ctxFor(), photoPost())).rejects.toMatchObject({ failure: { kind: 'transient' }, upstream: { status: 500 } });
    expect(sim.posts()).toHaveLength(0);
  });
});

describe('publish video', () => {
  const videoPost = (settings: Record<string, unknown> = {}, extra: Partial<PublishPost> = {}): PublishPost =>
    ({ kind: 'video', title: 'Demo day', media: [fx.video], settings: { visibility: 'PUBLIC', ...settings }, ...extra });

  it('initializes, uploads every part, finalizes, waits for processing and posts', async () => {
    const { outcome, steps } = await drivePublish(linkedin, ctxFor(), videoPost({ linkedin_description: 'Watch (it) now' }));
    expect(steps).toBeGreaterThanOrEqual(2);

    expect(only('POST', '/rest/videos', 'initializeUpload').body).toEqual({
      initializeUploadRequest: { owner: member.urn, fileSizeBytes: fx.video.size, uploadCaptions: false, uploadThumbnail: false },
    });
    const [video] = sim.videos();
    expect(video!.parts.length).toBe(Math.ceil(fx.video.size / PART_BYTES));
    expect(video!.parts.length).toBeGreaterThan(1);
    expect(requestsTo('PUT', /^\/dms-uploads\//).map((r) => (r.body as { size: number }).size))
      .toEqual(video!.parts.map((p) => p.lastByte - p.firstByte + 1));
    expect(only('POST', '/rest/videos', 'finalizeUpload').body)
      .toEqual({ finalizeUploadRequest: { video: video!.urn, uploadToken: video!.uploadToken, uploadedPartIds: video!.parts.map((p) => p.etag) } });
    expect(requestsTo('GET', `/rest/videos/${encodeURIComponent(video!.urn)}`).length).toBeGreaterThanOrEqual(1);

    expect(only('POST', '/rest/posts').body).toEqual({
      author: member.urn, commentary: 'Watch \\(it\\) now', visibility: 'PUBLIC', distribution: DISTRIBUTION,
      content: { media: { id: video!.urn, title: 'Demo day' } }, lifecycleState: 'PUBLISHED', isReshareDisabledByAuthor: false,
    });
    expect(outcome).toEqual({ postId: sim.posts()[0]!.id, url: `https://www.linkedin.com/feed/update/${sim.posts()[0]!.id}`, warnings: [] });
    expect(video!.status).toBe('AVAILABLE');
  });

  it('trims an over-long title to 400 UTF-16 units (line breaks count two) with a warning', async () => {
    const title = `${'x'.repeat(398)}\ny`;
    const { outcome } = await drivePublish(linkedin, ctxFor(), videoPost({}, { title }));
    expect((only('POST', '/rest/posts').body as { content: { media: { title: string } } }).content.media.title).toBe('x'.repeat(398));
    expect(outcome.warnings).toEqual([expect.stringMatching(/title was trimmed to 400/)]);
  });

  it('uploads a thumbnail file, which wins over thumbnail_url', async () => {
    const { outcome } = await drivePublish(linkedin, ctxFor(), videoPost({ thumbnail: fx.png, thumbnail_url: fx.access.publicUrl(fx.images[0]!.id) }));
    expect((only('POST', '/rest/videos', 'initializeUpload').body as { initializeUploadRequest: { uploadThumbnail: boolean } }).initializeUploadRequest.uploadThumbnail).toBe(true);
    expect(sim.videos()[0]!.thumbnail).toEqual({ size: fx.png.size, contentType: 'image/png' });
    expect(outcome.warnings).toEqual(['thumbnail_url was ignored: the thumbnail file wins.']);
    expect(outcome.extra).toBeUndefined();
  });

  it('fetches thumbnail_url and uploads it', async () => {
    await drivePublish(linkedin, ctxFor(), videoPost({ thumbnail_url: fx.access.publicUrl(fx.images[0]!.id) }));
    expect(sim.videos()[0]!.thumbnail).toEqual({ size: fx.images[0]!.size, contentType: 'image/jpeg' });
  });

  it.each([
    ['thumbnail_url answers 404', () => ({ thumbnail_url: `${fx.publicBase}/media/${'0'.repeat(64)}` }), undefined, /HTTP 404/],
    ['the thumbnail is not JPG or PNG', () => ({ thumbnail: { ...fx.png, contentType: 'image/gif' } }), undefined, /JPG or PNG/],
    ['LinkedIn rejects the thumbnail', () => ({ thumbnail: fx.images[0]! }), 'thumbnail_rejected' as const, /refused the thumbnail/],
  ])('publishes without the thumbnail when %s, reporting thumbnail_error', async (_label, settings, mode, error) => {
    if (mode) sim.fail(mode);
    const { outcome } = await drivePublish(linkedin, ctxFor(), videoPost(settings()));
    expect(outcome.extra?.thumbnail_error).toMatch(error);
    expect(outcome.warnings).toEqual([expect.stringMatching(/thumbnail was not set/)]);
    expect(sim.posts()).toHaveLength(1);
    expect(sim.videos()[0]!.thumbnail).toBeUndefined();
  });

  it('maps failed processing to invalid_content and posts nothing', async () => {
    sim.fail('video_processing_failed');
    await expect(drivePublish(linkedin, ctxFor(), videoPost()))
      .rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'video_processing_failed' } });
    expect(sim.posts()).toHaveLength(0);
  });

  it('gives up as transient when processing outlasts the polls', async () => {
    await expect(drivePublish(adapter({ maxVideoPolls: 1 }), ctxFor(), videoPost(), { maxWaitMs: 0 }))
      .rejects.toMatchObject({ failure: { kind: 'transient' } });
    expect(sim.posts()).toHaveLength(0);
  });

  it.each([
    ['a 2-second video', () => [fx.landscapeVideo], 'video_duration'],
    ['an image', () => [fx.images[0]!], undefined],
  ])('refuses %s before sending anything', async (_label, media, code) => {
    await expect(drivePublish(linkedin, ctxFor(), videoPost({}, { media: media() })))
      .rejects.toMatchObject({ failure: { kind: 'invalid_content', ...(code ? { code } : {}) } });
    expect(sim.requests).toHaveLength(0);
  });
});

describe('first comment', () => {
  it('comments under the post as its author', async () => {
    const ctx = ctxFor(credentialsFor(PAGE_SCOPES));
    const outcome = await publishText(fresh('Page news'), { target_linkedin_page_id: page() }, ctx);
    const { commentId, warnings } = await postFirstComment(linkedin, ctx, { post: outcome, text: 'Details (in) the thread' });
    const [comment] = sim.comments(outcome.postId);
    expect(comment).toMatchObject({ actor: `urn:li:organization:${page()}`, text: 'Details (in) the thread' });
    expect(commentId).toBe(comment!.urn);
    expect(warnings).toBeUndefined();
    expect(only('POST', `/rest/socialActions/${encodeURIComponent(outcome.postId)}/comments`).body)
      .toEqual({ actor: `urn:li:organization:${page()}`, object: outcome.postId, message: { text: 'Details (in) the thread' } });
  });

  it('replies under the comment URN as the post\'s author, one level deep; the post listing keeps first-level comments', async () => {
    const ctx = ctxFor(credentialsFor(PAGE_SCOPES));
    const outcome = await publishText(fresh('Page news'), { target_linkedin_page_id: page() }, ctx);
    const fan = sim.seedComment({ postId: outcome.postId, text: 'When does it ship?' });
    const created = await linkedin.comments!.create(ctx, { post: { id: '' }, text: 'Next week!', replyTo: { id: fan.urn, post: { id: '' } } });
    const reply = sim.comments(outcome.postId).find((c) => c.urn === created.comment?.id);
    expect(reply).toMatchObject({ actor: `urn:li:organization:${page()}`, text: 'Next week!', parentComment: fan.urn });
    expect(created.comment?.post).toEqual({ id: outcome.postId });
    expect(only('POST', `/rest/socialActions/${encodeURIComponent(fan.urn)}/comments`).body)
      .toEqual({ actor: `urn:li:organization:${page()}`, object: outcome.postId, message: { text: 'Next week!' }, parentComment: fan.urn });
    const listed = await linkedin.comments!.list!(ctx, { id: outcome.postId }, { limit: 100 });
    expect(listed.items.map((c) => c.ref.id)).toEqual([fan.urn]);
    await expect(linkedin.comments!.create(ctx, { post: { id: '' }, text: 'Deeper', replyTo: { id: reply!.urn, post: { id: '' } } }))
      .rejects.toMatchObject({ failure: { kind: 'invalid_content' } });
    await expect(linkedin.comments!.create(ctx, { post: { id: '' }, text: 'Which one?', replyTo: { id: fan.id, post: { id: '' } } }))
      .rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'invalid_comment_id' } });
    // Deleting the comment takes its replies with it.
    await linkedin.comments!.remove!(ctx, { id: fan.urn, post: { id: outcome.postId } });
    expect(sim.comments(outcome.postId)).toEqual([]);
  });

  it('skips with a warning when the post id is not known, sending nothing', async () => {
    const result = await postFirstComment(linkedin, ctxFor(credentialsFor(), noMedia), { post: { postId: '', warnings: [] }, text: 'hi' });
    expect(result).toEqual({ commentId: '', warnings: [expect.stringMatching(/not known yet/)] });
    expect(sim.requests).toHaveLength(0);
  });
});

describe('failure modes', () => {
  it.each([
    ['expired_token', { kind: 'auth_expired', reason: 'token_expired' }, 401],
    ['revoked_token', { kind: 'auth_expired', reason: 'token_revoked' }, 401],
    ['rate_limited', { kind: 'rate_limited', retryAfterMs: LINKEDIN_SIM_RETRY_AFTER_SECONDS * 1000 }, 429],
    ['server_error', { kind: 'transient' }, 500],
    ['gateway_timeout', { kind: 'transient' }, 504],
    ['version_retired', { kind: 'rejected', code: 'linkedin_version_inactive' }, 426],
    ['access_denied', { kind: 'rejected', code: 'permission_denied' }, 403],
    ['duplicate_post', { kind: 'invalid_content', code: 'duplicate_post' }, 422],
    ['content_rejected', { kind: 'invalid_content' }, 422],
  ] as const)('%s → %o', async (mode, failure, status) => {
    sim.fail(mode);
    await expect(publishText(fresh('hello'))).rejects.toMatchObject({ failure, upstream: { status } });
    expect(sim.posts()).toHaveLength(0);
  });

  it('an access token that expired is auth_expired; an unknown one too', async () => {
    const ctx = ctxFor();
    sim.expireAccessTokens(member.sub);
    await expect(publishText('late', {}, ctx)).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'token_expired' } });
    await expect(publishText('who', {}, ctxFor({ ...credentialsFor(), access_token: 'not-a-token' })))
      .rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'token_invalid' }, upstream: { code: 'INVALID_ACCESS_TOKEN' } });
  });

  it('a timeout is transient with an unknown outcome', async () => {
    // Far beyond the adapter's 100 ms: the simulator sees the client leave long before it would
    // answer, so the dropped request never stores a post that a later test would find, however
    // loaded the machine.
    sim.setLatency(5000);
    const err = await rejection(publishText(fresh('slow'), {}, ctxFor(), adapter({ timeoutMs: 100 })));
    expect(err).toMatchObject({ failure: { kind: 'transient' } });
    expect(err.message).toMatch(/100 ms.*outcome is unknown/);
  });

  it('a 429 without Retry-After waits for the midnight UTC reset of the daily limits', () => {
    const err = mapLinkedInFailure({ kind: 'response', status: 429, headers: new Headers(), body: { status: 429, message: 'throttled' } }, { timeoutMs: 1, call: 'api', now: new Date() });
    const midnight = new Date();
    midnight.setUTCHours(24, 0, 0, 0);
    expect(err.failure).toMatchObject({ kind: 'rate_limited' });
    const wait = (err.failure as { retryAfterMs: number }).retryAfterMs;
    expect(Math.abs(Date.now() + wait - midnight.getTime())).toBeLessThan(2000);
  });
});

describe('clock', () => {
  it('a 429 without Retry-After waits until midnight UTC on the injected clock', () => {
    const now = new Date('2031-05-01T22:30:00.000Z');
    const err = mapLinkedInFailure({ kind: 'response', status: 429, headers: new Headers(), body: { status: 429 } }, { timeoutMs: 1, call: 'api', now });
    expect(err.failure).toEqual({ kind: 'rate_limited', retryAfterMs: 90 * 60_000 });
  });
});

describe('simulator wire format', () => {
  const call = (headers: Record<string, string>, token = credentialsFor().access_token!) =>
    fetch(`${sim.apiBase}/rest/posts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ author: member.urn, commentary: fresh('Hello (world) and more'), visibility: 'PUBLIC', distribution: DISTRIBUTION, lifecycleState: 'PUBLISHED' }),
    });

  it('answers 426 without an active LinkedIn-Version and 400 without the Rest.li header', async () => {
    const missing = await call({ 'x-restli-protocol-version': '2.0.0' });
    expect(missing.status).toBe(426);
    expect(await missing.json()).toMatchObject({ status: 426, code: 'VERSION_MISSING' });
    const retired = await call({ 'x-restli-protocol-version': '2.0.0', 'linkedin-version': '202301' });
    expect(await retired.json()).toMatchObject({ status: 426, code: 'NONEXISTENT_VERSION' });
    expect((await call({ 'linkedin-version': thisMonth() })).status).toBe(400);
    expect(sim.posts()).toHaveLength(0);
  });

  it('serves the adapter default LinkedIn-Version (bump LINKEDIN_DEFAULT_VERSION when this fails)', async () => {
    const res = await call({ 'x-restli-protocol-version': '2.0.0', 'linkedin-version': LINKEDIN_DEFAULT_VERSION });
    expect(res.status).toBe(201);
  });

  it('cuts unescaped commentary at the first reserved character, like LinkedIn', async () => {
    const res = await call({ 'x-restli-protocol-version': '2.0.0', 'linkedin-version': thisMonth() });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-restli-id')).toBe(sim.posts()[0]!.id);
    expect(sim.posts()[0]).toMatchObject({ text: 'Hello ', truncated: true });
  });

  it('answers 400 for a part of the wrong size and for ETags out of order', async () => {
    const token = credentialsFor().access_token!;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'linkedin-version': thisMonth(), 'x-restli-protocol-version': '2.0.0' };
    const init = await fetch(`${sim.apiBase}/rest/videos?action=initializeUpload`, {
      method: 'POST', headers, body: JSON.stringify({ initializeUploadRequest: { owner: member.urn, fileSizeBytes: PART_BYTES + 10, uploadCaptions: false, uploadThumbnail: false } }),
    });
    const { value } = (await init.json()) as { value: { video: string; uploadToken: string; uploadInstructions: Array<{ uploadUrl: string; firstByte: number; lastByte: number }> } };
    const [first, second] = value.uploadInstructions;
    const put = (url: string, size: number) => fetch(url, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: Buffer.alloc(size) });
    expect((await put(first!.uploadUrl, PART_BYTES - 1)).status).toBe(400);
    const tags = [(await put(first!.uploadUrl, PART_BYTES)).headers.get('etag'), (await put(second!.uploadUrl, 10)).headers.get('etag')];
    const finalize = (ids: unknown[]) => fetch(`${sim.apiBase}/rest/videos?action=finalizeUpload`, {
      method: 'POST', headers, body: JSON.stringify({ finalizeUploadRequest: { video: value.video, uploadToken: value.uploadToken, uploadedPartIds: ids } }),
    });
    expect((await finalize([...tags].reverse())).status).toBe(400);
    expect((await finalize(tags)).status).toBe(200);
  });
});

describe('analytics', () => {
  const DAY = 86_400_000;
  const orgUrn = () => `urn:li:organization:${page()}`;
  const pageCredentials = (scope = PAGE_SCOPES): PlatformCredentials => ({
    ...credentialsFor(scope), pages: JSON.stringify([{ id: page(), role: 'ADMINISTRATOR' }]),
  });
  afterEach(() => sim.analytics.model.setNow(undefined));

  it('reads the page statistics with the REST headers, day intervals of the window and the follower count', async () => {
    const at = new Date(Date.UTC(2026, 4, 20, 15));
    sim.analytics.model.setNow(at);
    const got = await linkedin.analytics!.account({ credentials: pageCredentials() }, { until: at, days: 7 });
    const share = only('GET', '/rest/organizationalEntityShareStatistics');
    expect(share.headers).toMatchObject({ 'linkedin-version': thisMonth(), 'x-restli-protocol-version': '2.0.0', authorization: expect.stringMatching(/^Bearer /) });
    expect(share.query).toEqual({
      q: 'organizationalEntity', organizationalEntity: orgUrn(),
      timeIntervals: `(timeRange:(start:${Date.UTC(2026, 4, 14)},end:${Date.UTC(2026, 4, 21)}),timeGranularityType:DAY)`,
    });
    expect(only('GET', '/rest/organizationPageStatistics').query).toMatchObject({ q: 'organization', organization: orgUrn() });
    expect(only('GET', `/rest/networkSizes/${encodeURIComponent(orgUrn())}`).query).toEqual({ edgeType: 'COMPANY_FOLLOWED_BY_MEMBER' });
    expect(got.reachTimeseries!.map((p) => p.date)).toEqual(['2026-05-14', '2026-05-15', '2026-05-16', '2026-05-17', '2026-05-18', '2026-05-19', '2026-05-20']);
    expect(got.values.followers).toBe(sim.analytics.followers(page()));
    expect(got.values.engagement).toBeGreaterThan(0);
    expect(got.values.engagement).toBeLessThan(1);
  });

  it('takes the page of page_urn, and refuses a page the member does not administer, sending nothing', async () => {
    const got = await linkedin.analytics!.account({ credentials: pageCredentials() }, { until: new Date(), days: 30, target: orgUrn() });
    expect(got.values.followers).toBe(sim.analytics.followers(page()));
    sim.reset();
    const err = await rejection(linkedin.analytics!.account({ credentials: pageCredentials() }, { until: new Date(), days: 30, target: 'urn:li:organization:424242' }));
    expect(err).toMatchObject({ platform: 'linkedin', failure: { kind: 'invalid_content', code: 'linkedin_page_not_administered' } });
    expect(sim.requests).toHaveLength(0);
  });

  it('a personal profile without pages is refused (organization pages only), sending nothing', async () => {
    const err = await rejection(linkedin.analytics!.account({ credentials: credentialsFor() }, { until: new Date(), days: 30 }));
    expect(err).toMatchObject({ platform: 'linkedin', failure: { kind: 'invalid_content', code: 'linkedin_page_required' } });
    expect(err.message).toMatch(/organization pages only/);
    expect(sim.requests).toHaveLength(0);
  });

  it('without rw_organization_admin LinkedIn refuses the statistics: rejected permission_denied', async () => {
    const scopes = PAGE_SCOPES.filter((s) => s !== 'rw_organization_admin');
    const err = await rejection(linkedin.analytics!.account({ credentials: pageCredentials(scopes) }, { until: new Date(), days: 30 }));
    expect(err).toMatchObject({ platform: 'linkedin', failure: { kind: 'rejected', code: 'permission_denied' }, upstream: { status: 403 } });
    // The follower count needs any organization scope; the share statistics are what is refused.
    expect(requestsTo('GET', '/rest/organizationalEntityShareStatistics')).toHaveLength(1);
  });

  it('per post: the share statistics of the page post, its author found from the post; a member post is refused', async () => {
    const credentials = pageCredentials();
    const pagePost = await publishText(fresh('Stats from the page'), { target_linkedin_page_id: page() }, ctxFor(credentials));
    sim.seedComment({ postId: pagePost.postId, text: 'Great read' });
    sim.analytics.model.setNow(new Date(Date.now() + 4 * DAY));
    const before = sim.requests.length;
    const got = await linkedin.analytics!.post({ credentials }, { post: { id: pagePost.postId } });
    const c = sim.analytics.post(sim.posts().find((p) => p.id === pagePost.postId)!);
    const reads = sim.requests.slice(before);
    expect(reads.map((r) => r.path)).toEqual([`/rest/posts/${encodeURIComponent(pagePost.postId)}`, '/rest/organizationalEntityShareStatistics']);
    expect(reads[1]!.query).toEqual({
      q: 'organizationalEntity', organizationalEntity: orgUrn(), [pagePost.postId.startsWith('urn:li:share:') ? 'shares' : 'ugcPosts']: `List(${pagePost.postId})`,
    });
    expect(got.values).toMatchObject({ impressions: c.impressionCount, reach: c.uniqueImpressionsCount, likes: c.likeCount, comments: 1, shares: c.shareCount });
    expect(got.values.impressions).toBeGreaterThanOrEqual(got.values.reach!);

    const memberPost = await publishText(fresh('Stats from me'), {}, ctxFor(credentials));
    const err = await rejection(linkedin.analytics!.post({ credentials }, { post: { id: memberPost.postId } }));
    expect(err).toMatchObject({ platform: 'linkedin', failure: { kind: 'invalid_content', code: 'organization_posts_only' } });
  });

  it('the simulator keeps LinkedIn\'s statistics rules: the rolling 12 months, an end after the start, the ADMINISTRATOR role', async () => {
    const token = sim.issueTokens(member.sub, { clientId: client.clientId, scope: PAGE_SCOPES }).accessToken;
    const get = (query: string) => fetch(`${sim.apiBase}/rest/organizationalEntityShareStatistics?q=organizationalEntity&organizationalEntity=${encodeURIComponent(orgUrn())}${query}`, {
      headers: { authorization: `Bearer ${token}`, 'linkedin-version': thisMonth(), 'x-restli-protocol-version': '2.0.0' },
    });
    const old = Date.now() - 400 * DAY;
    expect((await get(`&timeIntervals=(timeRange:(start:${old},end:${old + DAY}),timeGranularityType:DAY)`)).status).toBe(400);
    expect((await get(`&timeIntervals=(timeRange:(start:${Date.now()},end:${Date.now() - DAY}),timeGranularityType:DAY)`)).status).toBe(400);
    const monthly = await (await get(`&timeIntervals=(timeRange:(start:${Date.now() - 40 * DAY},end:${Date.now()}),timeGranularityType:MONTH)`)).json() as { elements: unknown[] };
    expect(monthly.elements.length).toBeGreaterThanOrEqual(2);
    const lifetime = await (await get('')).json() as { elements: Array<{ totalShareStatistics: Record<string, number> }> };
    expect(lifetime.elements).toHaveLength(1);
    expect(Object.keys(lifetime.elements[0]!.totalShareStatistics).sort()).toEqual(
      ['clickCount', 'commentCount', 'engagement', 'impressionCount', 'likeCount', 'shareCount', 'uniqueImpressionsCount']);
    const editor = sim.createAccount({ name: 'Page Editor', pages: [{ name: 'Edited Page', role: 'CONTENT_ADMINISTRATOR' }] });
    const editorToken = sim.issueTokens(editor.sub, { clientId: client.clientId, scope: PAGE_SCOPES }).accessToken;
    const denied = await fetch(`${sim.apiBase}/rest/organizationPageStatistics?q=organization&organization=${encodeURIComponent(`urn:li:organization:${editor.pages[0]!.id}`)}`, {
      headers: { authorization: `Bearer ${editorToken}`, 'linkedin-version': thisMonth(), 'x-restli-protocol-version': '2.0.0' },
    });
    expect(denied.status).toBe(403);
    expect(await denied.json()).toMatchObject({ status: 403, code: 'ACCESS_DENIED' });
  });
});
