/**
 * Google Business Profile adapter against its simulator: the shared platform contract, then the
 * network's own cases (locations, post types and their fields, gallery media, edit, delete, and
 * Google's refusals).
 */
import { createHash, randomBytes } from 'node:crypto';
import { PlatformError } from '../../../core/domain/errors';
import type { MediaKind } from '../../../core/domain/platforms';
import { resolveSettings } from '../../../core/domain/settings';
import type { MediaRef, PlatformAdapter, PublishContext, PublishPost, VerifiedConnection } from '../../../core/ports/platform';
import { createGoogleBusinessPlatform, mapGoogleBusinessFailure } from '../../../adapters/platforms/google_business';
import { startGoogleBusinessSimulator, type GoogleBusinessSimulator } from '../../../ops/simulators/google_business';
import { noMedia } from '../../support/media-access';
import { drivePublish, FIXTURE_TIMEOUT_MS, mediaFixtures, type MediaFixtures } from '../../support/platform-harness';
import { googleBusinessAnalyticsHarness } from './analytics-harnesses';
import { platformContract, type PlatformHarness } from './shared-contract';

const REDIRECT = 'https://herald.example/api/herald/oauth/google_business/callback';
let fx: MediaFixtures;
beforeAll(async () => { fx = await mediaFixtures(); }, FIXTURE_TIMEOUT_MS);
afterAll(async () => { await fx?.close(); });

let serial = 0;
function settingsFor(adapter: PlatformAdapter, kind: MediaKind, fields: Record<string, unknown>, mediaCount: number) {
  const r = resolveSettings('google_business', adapter.descriptor.settings, fields, { endpoint: kind, mediaCount });
  if (r.violations.length) throw new Error(JSON.stringify(r.violations));
  return r.values;
}
const post = (adapter: PlatformAdapter, kind: MediaKind, title: string, media: MediaRef[], fields: Record<string, unknown> = {}): PublishPost =>
  ({ kind, title: `${title} #${++serial}`, media, settings: settingsFor(adapter, kind, fields, media.length) });

async function oauthConnect(adapter: PlatformAdapter, accountId: string): Promise<VerifiedConnection> {
  const state = `st-${randomBytes(6).toString('hex')}`;
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const authorize = new URL(adapter.oauth!.authorizeUrl({ state, redirectUri: REDIRECT, codeChallenge: challenge }));
  expect(authorize.searchParams.get('access_type')).toBe('offline');
  const page = await fetch(authorize);
  expect(page.status).toBe(200);
  await page.text();
  const approved = await fetch(`${authorize.origin}${authorize.pathname}`, {
    method: 'POST', redirect: 'manual', body: new URLSearchParams({ ...Object.fromEntries(authorize.searchParams), account_id: accountId, decision: 'approve' }),
  });
  const back = new URL(approved.headers.get('location')!);
  expect(back.searchParams.get('state')).toBe(state);
  return adapter.oauth!.exchangeCode({ code: back.searchParams.get('code')!, redirectUri: REDIRECT, codeVerifier: verifier });
}

// ---------------------------------------------------------------------------------------------

let sim: GoogleBusinessSimulator;
let adapter: PlatformAdapter;
let user: { id: string; accountId: string };
let location: { id: string };

const harness: PlatformHarness = {
  name: 'google_business',
  async start() {
    sim = await startGoogleBusinessSimulator();
    const client = sim.createClient({ redirectUris: [REDIRECT] });
    user = sim.createUser({ name: 'Contract Bakery' });
    location = sim.createLocation(user.accountId, { title: 'Contract Bakery Downtown' });
    adapter = createGoogleBusinessPlatform({
      ...client, apiBase: sim.apiBase, accountsBase: sim.apiBase, infoBase: sim.apiBase, performanceBase: sim.performanceBase, authBase: sim.authBase, tokenUrl: sim.tokenUrl, timeoutMs: 5000,
    });
  },
  stop: () => sim.close(),
  reset: () => sim.reset(),
  get adapter() { return adapter; },
  connect: () => oauthConnect(adapter, user.id),
  refresh: { model: 'after_expiry', expireAccessToken: () => sim.expireAccessTokens(user.id) },
  publishable: {
    text: () => post(adapter, 'text', 'Fresh bread today', []),
    photo: (m) => post(adapter, 'photo', 'Our new loaf', [m.png]),
    video: (m) => post(adapter, 'video', 'Bakery tour', [m.video]),
  },
  networkHas: async (o) => sim.posts().some((p) => p.name === o.postId) || sim.mediaItems().some((m) => m.name === o.postId),
  publishedCount: () => sim.posts().length + sim.mediaItems().length,
  requestCount: () => sim.requests.length,
  lookups: { lists: { locations: { names: ['Contract Bakery Downtown'] } } },
  analytics: googleBusinessAnalyticsHarness(() => sim, () => location.id),
  failures: [
    { mode: 'token_expired', arm: () => sim.fail('token_expired'), expect: { kind: 'auth_expired' } },
    { mode: 'real:access_token_expired', arm: () => sim.expireAccessTokens(user.id), expect: { kind: 'auth_expired' } },
    { mode: 'rate_limited', arm: () => sim.fail('rate_limited'), expect: { kind: 'rate_limited', retryAfterMs: 30_000 } },
    { mode: 'quota_zero', arm: () => sim.fail('quota_zero'), expect: { kind: 'rate_limited' } },
    { mode: 'server_error', arm: () => sim.fail('server_error'), expect: { kind: 'transient' } },
    { mode: 'service_unavailable', arm: () => sim.fail('service_unavailable'), expect: { kind: 'transient' } },
    { mode: 'permission_denied', arm: () => sim.fail('permission_denied'), expect: { kind: 'rejected', code: 'permission_denied' } },
    { mode: 'invalid_argument', arm: () => sim.fail('invalid_argument'), expect: { kind: 'invalid_content', code: 'gbp_invalid_argument' } },
  ],
};

platformContract(harness, () => fx);

// ---------------------------------------------------------------------------------------------

describe('google_business: network-specific', () => {
  beforeAll(() => harness.start());
  afterAll(() => harness.stop());
  beforeEach(() => sim.reset());

  const ctxOf = (credentials: Record<string, string>, media = fx.access): PublishContext => ({ credentials, idempotencyKey: 'k', media });
  const publish = async (credentials: Record<string, string>, p: PublishPost) => (await drivePublish(adapter, ctxOf(credentials, p.kind === 'text' ? noMedia : fx.access), p)).outcome;
  const reject = async (p: Promise<unknown>) => p.then(() => { throw new Error('expected a rejection'); }, (err: unknown) => err as PlatformError);

  it('connects with business.manage and offline access: the personal account is the identity', async () => {
    const { identity, credentials } = await harness.connect();
    expect(identity).toEqual({ platformUserId: user.accountId, handle: 'Contract Bakery', displayName: 'Contract Bakery', avatarUrl: '' });
    expect(credentials).toMatchObject({ account_id: user.accountId, refresh_token: expect.stringMatching(/^1\/\/0/), scope: 'https://www.googleapis.com/auth/business.manage' });
  });

  it('lists the locations through accounts.list and accounts.locations.list (readMask)', async () => {
    const { credentials } = await harness.connect();
    const page = await adapter.lookups!.list({ credentials }, 'locations');
    expect(page.items).toEqual([{ id: location.id, name: 'Contract Bakery Downtown', extra: expect.objectContaining({ account_id: user.accountId, address: '1 Main Street' }) }]);
    const listCall = sim.requests.find((r) => r.path.endsWith('/locations'))!;
    expect(listCall.query.readMask).toContain('title');
  });

  it('posts to the location named by gbp_location_id in any of its forms; the only location when none is given', async () => {
    const { credentials } = await harness.connect();
    for (const form of [location.id, `locations/${location.id}`, `accounts/${user.accountId}/locations/${location.id}`, undefined]) {
      const outcome = await publish(credentials, post(adapter, 'text', 'Where', [], form ? { gbp_location_id: form } : {}));
      expect(outcome.postId).toMatch(new RegExp(`^accounts/${user.accountId}/locations/${location.id}/localPosts/\\d+$`));
      expect(outcome.url).toMatch(/^https:\/\/local\.google\.com\/place\?id=/);
    }
    expect(sim.posts(location.id)).toHaveLength(4);
  });

  it('asks for gbp_location_id with the available locations when the account has several', async () => {
    const second = sim.createLocation(user.accountId, { title: 'Contract Bakery Uptown' });
    {
      const { credentials } = await harness.connect();
      const err = await reject(publish(credentials, post(adapter, 'text', 'Which', [])));
      expect(err).toMatchObject({ failure: { kind: 'rejected', code: 'gbp_location_required' } });
      expect(err.resultFields.available_locations).toEqual(expect.arrayContaining([expect.objectContaining({ location_id: second.id, location_name: 'Contract Bakery Uptown' })]));
      const unknown = await reject(publish(credentials, post(adapter, 'text', 'Unknown', [], { gbp_location_id: '999' })));
      expect(unknown).toMatchObject({ failure: { kind: 'rejected', code: 'gbp_location_not_found' } });
      expect(sim.posts()).toHaveLength(0);
      const ok = await publish(credentials, post(adapter, 'text', 'Uptown', [], { gbp_location_id: second.id }));
      expect(ok.postId).toContain(`/locations/${second.id}/`);
    }
  });

  it('EVENT posts carry the event title and schedule; a call to action goes with them', async () => {
    const { credentials } = await harness.connect();
    const outcome = await publish(credentials, post(adapter, 'text', 'Tasting night', [], {
      gbp_location_id: location.id, gbp_post_type: 'EVENT', gbp_event_title: 'Bread tasting', gbp_event_start: '2026-12-20T18:00', gbp_event_end: '2026-12-20T21:30',
      gbp_cta_type: 'SIGN_UP', gbp_cta_url: 'https://bakery.example/tasting',
    }));
    const stored = sim.posts().find((p) => p.name === outcome.postId)!;
    expect(stored.body).toMatchObject({
      topicType: 'EVENT', languageCode: 'en-US',
      event: { title: 'Bread tasting', schedule: { startDate: { year: 2026, month: 12, day: 20 }, startTime: { hours: 18, minutes: 0 }, endDate: { year: 2026, month: 12, day: 20 }, endTime: { hours: 21, minutes: 30 } } },
      callToAction: { actionType: 'SIGN_UP', url: 'https://bakery.example/tasting' },
    });
  });

  it('OFFER posts carry the offer and drop a call to action with a warning (Google ignores it)', async () => {
    const { credentials } = await harness.connect();
    const outcome = await publish(credentials, post(adapter, 'photo', 'Two for one', [fx.png], {
      gbp_location_id: location.id, gbp_post_type: 'OFFER', gbp_event_title: 'Two for one', gbp_event_start: '2026-12-01', gbp_event_end: '2026-12-31',
      gbp_offer_coupon_code: 'BOGO', gbp_offer_terms: 'One per customer', gbp_cta_type: 'CALL',
    }));
    const stored = sim.posts().find((p) => p.name === outcome.postId)!;
    expect(stored.body).toMatchObject({ topicType: 'OFFER', offer: { couponCode: 'BOGO', termsConditions: 'One per customer' }, media: [{ mediaFormat: 'PHOTO' }] });
    expect(stored.body.callToAction).toBeUndefined();
    expect(outcome.warnings).toEqual([expect.stringMatching(/OFFER/)]);
  });

  it('the settings refuse what Google would: EVENT without schedule, CTA without URL, CALL with URL, MEDIA on text', () => {
    const violations = (kind: MediaKind, fields: Record<string, unknown>, count = 0) =>
      resolveSettings('google_business', adapter.descriptor.settings, fields, { endpoint: kind, mediaCount: count }).violations.map((v) => v.field);
    expect(violations('text', { gbp_post_type: 'EVENT', gbp_event_title: 'x' })).toEqual(['gbp_event_start', 'gbp_event_end']);
    expect(violations('text', { gbp_cta_type: 'BOOK' })).toEqual(['gbp_cta_url']);
    expect(violations('text', { gbp_cta_type: 'CALL', gbp_cta_url: 'https://x.example' })).toEqual(['gbp_cta_url']);
    expect(violations('text', { gbp_post_type: 'MEDIA' })).toEqual(['gbp_post_type']);
    expect(violations('text', { gbp_post_type: 'EVENT', gbp_event_title: 'x', gbp_event_start: '2026-12-02', gbp_event_end: '2026-12-01' })).toEqual(['gbp_event_end']);
    expect(violations('text', { gbp_post_type: 'BOGUS' })).toEqual(['gbp_post_type']);
    expect(violations('photo', { gbp_post_type: 'MEDIA', gbp_media_category: 'LOGO' }, 2)).toEqual(['gbp_media_category']);
  });

  it('gbp_post_type=MEDIA adds the photos to the gallery under gbp_media_category', async () => {
    const { credentials } = await harness.connect();
    const outcome = await publish(credentials, post(adapter, 'photo', 'Interior', [fx.png], { gbp_location_id: location.id, gbp_post_type: 'MEDIA', gbp_media_category: 'INTERIOR' }));
    expect(outcome.postId).toMatch(/\/media\//);
    expect(sim.mediaItems(location.id)).toEqual([expect.objectContaining({ name: outcome.postId, category: 'INTERIOR', mediaFormat: 'PHOTO' })]);
    expect(sim.posts()).toHaveLength(0);
  });

  it('refuses photos under 10 KB before sending; the simulator refuses them too when fetched', async () => {
    const { credentials } = await harness.connect();
    const before = sim.requests.length;
    const err = await reject(publish(credentials, post(adapter, 'photo', 'Small', [fx.images[0]!], { gbp_location_id: location.id })));
    expect(err).toMatchObject({ failure: { kind: 'invalid_content', code: 'photo_too_small' } });
    expect(sim.requests.length).toBe(before);
    const res = await fetch(`${sim.apiBase}/v4/accounts/${user.accountId}/locations/${location.id}/localPosts`, {
      method: 'POST', headers: { authorization: `Bearer ${credentials.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ topicType: 'STANDARD', summary: 'x', media: [{ mediaFormat: 'PHOTO', sourceUrl: fx.access.publicUrl(fx.images[0]!.id) }] }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { status: 'INVALID_ARGUMENT', details: [{ errorDetails: [{ field: 'media[0]' }] }] } });
  });

  it('the simulator refuses a summary over 1,500 characters and an EVENT without schedule', async () => {
    const { credentials } = await harness.connect();
    const url = `${sim.apiBase}/v4/accounts/${user.accountId}/locations/${location.id}/localPosts`;
    const send = async (body: unknown) => {
      const res = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${credentials.access_token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: res.status, body: await res.json() as { error: { details: Array<{ errorDetails: Array<{ field: string }> }> } } };
    };
    const long = await send({ topicType: 'STANDARD', summary: 'x'.repeat(1501) });
    expect([long.status, long.body.error.details[0]!.errorDetails[0]!.field]).toEqual([400, 'summary']);
    const event = await send({ topicType: 'EVENT', summary: 'x', event: { title: 'Party' } });
    expect([event.status, event.body.error.details[0]!.errorDetails[0]!.field]).toEqual([400, 'event.schedule']);
    const err = mapGoogleBusinessFailure({ kind: 'response', status: 400, headers: new Headers(), body: long.body }, { timeoutMs: 1, now: new Date() });
    expect(err).toMatchObject({ failure: { kind: 'invalid_content', code: 'gbp_invalid_argument' } });
    expect(err.message).toMatch(/summary exceeds the maximum of 1500 characters/);
  });

  it('an unverified location cannot publish', async () => {
    const unverified = sim.createLocation(user.accountId, { title: 'Pending', verified: false });
    const { credentials } = await harness.connect();
    const err = await reject(publish(credentials, post(adapter, 'text', 'Hello', [], { gbp_location_id: `accounts/${user.accountId}/locations/${unverified.id}` })));
    expect(err).toMatchObject({ failure: { kind: 'rejected', code: 'gbp_location_unverified' } });
  });

  it('edits a local post (updateMask=summary) and deletes it', async () => {
    const { credentials } = await harness.connect();
    const outcome = await publish(credentials, post(adapter, 'text', 'Before', [], { gbp_location_id: location.id }));
    const edited = await adapter.postEditor!.edit!({ credentials }, { id: outcome.postId }, { text: 'After' });
    expect(edited.id).toBe(outcome.postId);
    expect(sim.posts()[0]!.body.summary).toBe('After');
    expect(sim.requests.at(-1)!.query.updateMask).toBe('summary');
    await adapter.postEditor!.unpublish!({ credentials }, { id: outcome.postId });
    expect(sim.posts()).toHaveLength(0);
    const gone = await reject(adapter.postEditor!.unpublish!({ credentials }, { id: outcome.postId }));
    expect(gone).toMatchObject({ failure: { kind: 'rejected', code: 'gbp_not_found' } });
  });

  it('a revoked grant cannot be refreshed: auth_expired (invalid_grant)', async () => {
    const { credentials } = await harness.connect();
    sim.revoke(user.id);
    await expect(adapter.refresher!.refresh(credentials)).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'invalid_grant' } });
  });
});
