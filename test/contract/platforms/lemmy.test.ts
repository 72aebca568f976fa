/**
 * Lemmy: the shared platform contract against the instance simulator (text, photo; re-login as the
 * refresh), and what is Lemmy's own: connect by community name, link posts, fields, edit, delete.
 */
import type { PlatformAdapter, PublishContext, PublishPost } from '../../../core/ports/platform';
import { postRefOf } from '../../../core/ports/platform';
import { createLemmyPlatform, mapLemmyFailure } from '../../../adapters/platforms/lemmy';
import { startLemmySimulator, type LemmySimulator } from '../../../ops/simulators/lemmy';
import { noMedia } from '../../support/media-access';
import { FIXTURE_TIMEOUT_MS, mediaFixtures, publishInOneStep, resolvedPost, type MediaFixtures } from '../../support/platform-harness';
import { platformContract, type PlatformHarness } from './shared-contract';

const TIMEOUT_MS = 5000;
let serial = 0;
const unique = (text: string) => `${text} #${++serial}`;

let fx: MediaFixtures;
beforeAll(async () => { fx = await mediaFixtures(); }, FIXTURE_TIMEOUT_MS);
afterAll(async () => { await fx?.close(); });

const post = resolvedPost;

interface World { sim: LemmySimulator; adapter: PlatformAdapter; communityId: number }
let world: World | undefined;
const w = () => { if (!world) throw new Error('lemmy world is not started'); return world; };

async function startWorld(): Promise<World> {
  const sim = await startLemmySimulator();
  sim.createUser({ username: 'poster', password: 'correct horse battery', displayName: 'The Poster' });
  const { id: communityId } = sim.createCommunity({ name: 'technology', title: 'Technology' });
  const adapter = createLemmyPlatform({ allowHttpInstances: true, timeoutMs: TIMEOUT_MS });
  return { sim, adapter, communityId };
}
const connectWith = (x: World, extra: Record<string, unknown> = {}) =>
  x.adapter.credentials!.verify({ instance_url: x.sim.instanceUrl, username: 'poster', password: 'correct horse battery', community: 'technology', ...extra });

const harness: PlatformHarness = {
  name: 'lemmy',
  async start() { world = await startWorld(); },
  async stop() { await world?.sim.close(); world = undefined; },
  reset: () => w().sim.reset(),
  get adapter() { return w().adapter; },
  connect: () => connectWith(w()),
  refresh: { model: 'after_expiry', expireAccessToken: () => w().sim.expireTokens('poster') },
  publishable: {
    text: () => post(w().adapter, 'text', unique('Contract post'), [], {}, 'A body in **markdown**.'),
    photo: (m) => post(w().adapter, 'photo', unique('Contract photo'), [m.images[0]!]),
  },
  networkHas: async (o) => w().sim.posts().some((p) => String(p.id) === o.postId),
  publishedCount: () => w().sim.posts().length,
  requestCount: () => w().sim.requests.length,
  failures: [
    { mode: 'not_logged_in', arm: () => w().sim.fail('not_logged_in'), expect: { kind: 'auth_expired', reason: 'not_logged_in' } },
    { mode: 'real:tokens_expired', arm: () => w().sim.expireTokens('poster'), expect: { kind: 'auth_expired', reason: 'not_logged_in' } },
    { mode: 'rate_limited', arm: () => w().sim.fail('rate_limited'), expect: { kind: 'rate_limited', retryAfterMs: 4000 } },
    { mode: 'server_error', arm: () => w().sim.fail('server_error'), expect: { kind: 'transient' } },
    { mode: 'bad_gateway', arm: () => w().sim.fail('bad_gateway'), expect: { kind: 'transient' } },
    { mode: 'banned_from_community', arm: () => w().sim.fail('banned_from_community'), expect: { kind: 'rejected', code: 'banned_from_community' } },
    { mode: 'only_mods_can_post', arm: () => w().sim.fail('only_mods_can_post'), expect: { kind: 'rejected', code: 'only_mods_can_post_in_community' } },
    { mode: 'malformed', arm: () => w().sim.fail('malformed'), expect: { kind: 'rejected', code: 'unexpected_response' } },
    { mode: 'image_too_large', kind: 'photo', arm: () => w().sim.fail('image_too_large'), expect: { kind: 'invalid_content', code: 'media_too_large' } },
  ],
};

platformContract(harness, () => fx);

describe('lemmy: its own behaviour', () => {
  let x: World;
  beforeAll(async () => { x = await startWorld(); });
  afterAll(() => x.sim.close());
  beforeEach(() => x.sim.reset());

  const ctx = (credentials: Record<string, string>, media = noMedia): PublishContext => ({ credentials, idempotencyKey: `idem-${++serial}`, media });
  const publish = (credentials: Record<string, string>, p: PublishPost, media = noMedia) => publishInOneStep(x.adapter, ctx(credentials, media), p);

  it('connects: login, my_user from /site, community by name; stores the JWT and the community id', async () => {
    const v = await connectWith(x, { community: '!technology' });
    expect(v.identity).toMatchObject({ handle: `@poster@${new URL(x.sim.instanceUrl).host}`, displayName: 'The Poster in Technology' });
    expect(v.credentials).toMatchObject({ instance_url: x.sim.instanceUrl, username: 'poster', community_id: String(x.communityId), jwt: expect.any(String) });
    expect(x.sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /api/v3/user/login', 'GET /api/v3/site', 'GET /api/v3/community']);
    expect(x.sim.requests[1]!.headers.authorization).toBe(`Bearer ${v.credentials.jwt}`);
  });

  it('refuses a wrong password, an unknown community and an http instance unless allowed', async () => {
    await expect(connectWith(x, { password: 'wrong' })).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'incorrect_login' } });
    await expect(connectWith(x, { community: 'nope' })).rejects.toMatchObject({ failure: { kind: 'rejected', code: 'couldnt_find_community' } });
    await expect(connectWith(x, { community: 'not a community!' })).rejects.toMatchObject({ details: { field: 'community' } });
    const before = x.sim.requests.length;
    await expect(createLemmyPlatform({ timeoutMs: TIMEOUT_MS }).credentials!.verify({ instance_url: x.sim.instanceUrl, username: 'poster', password: 'x', community: 'technology' }))
      .rejects.toMatchObject({ details: { field: 'instance_url' } });
    expect(x.sim.requests.length).toBe(before);
  });

  it('posts text with a body, a link post with its fields, and a photo uploaded to pict-rs', async () => {
    const { credentials } = await connectWith(x);
    const text = await publish(credentials, post(x.adapter, 'text', 'Hello Lemmy', [], { lemmy_nsfw: 'true', lemmy_language_id: '37' }, 'Body text'));
    expect(text.url).toBe(`${x.sim.publicUrl}/post/${text.postId}`);
    await publish(credentials, post(x.adapter, 'text', 'A link', [], { lemmy_url: 'https://example.com/article' }));
    await publish(credentials, post(x.adapter, 'photo', 'A photo', [fx.images[0]!], { lemmy_alt_text: 'Blue square' }), fx.access);
    const [a, b, c] = x.sim.posts();
    expect(a).toMatchObject({ name: 'Hello Lemmy', body: 'Body text', nsfw: true, language_id: 37, community_id: x.communityId });
    expect(b).toMatchObject({ name: 'A link', url: 'https://example.com/article' });
    const [image] = x.sim.images();
    expect(image).toMatchObject({ size: fx.images[0]!.size, contentType: 'image/jpeg' });
    expect(c).toMatchObject({ name: 'A photo', url: `${x.sim.instanceUrl}/pictrs/image/${image!.file}`, alt_text: 'Blue square' });
  });

  it('refuses a body over 10,000 characters and two photos before any request', async () => {
    const { credentials } = await connectWith(x);
    const before = x.sim.requests.length;
    await expect(publish(credentials, post(x.adapter, 'text', 'Long', [], {}, 'x'.repeat(10_001)))).rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'body_too_long' } });
    await expect(publish(credentials, { ...post(x.adapter, 'photo', 'Two', [fx.images[0]!]), media: fx.images.slice(0, 2) }, fx.access))
      .rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'too_many_photos' } });
    expect(x.sim.requests.length).toBe(before);
  });

  it('edits the name and body, then deletes the post', async () => {
    const { credentials } = await connectWith(x);
    const outcome = await publish(credentials, post(x.adapter, 'text', 'Old', []));
    await x.adapter.postEditor!.edit!(ctx(credentials), postRefOf(outcome), { title: 'New', text: 'New body' });
    expect(x.sim.posts()[0]).toMatchObject({ name: 'New', body: 'New body', updated: expect.any(String) });
    await x.adapter.postEditor!.unpublish!(ctx(credentials), postRefOf(outcome));
    expect(x.sim.posts()).toEqual([]);
  });

  it('refresh logs in again; a changed password makes the refresh auth_expired', async () => {
    const { credentials } = await connectWith(x);
    const renewed = await x.adapter.refresher!.refresh(credentials);
    expect(renewed.jwt).not.toBe(credentials.jwt);
    await expect(x.adapter.refresher!.refresh({ ...credentials, password: 'changed' })).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'incorrect_login' } });
  });

  it('maps by Lemmy error code', () => {
    const res = (status: number, error: string) => ({ kind: 'response' as const, status, headers: new Headers(), body: { error } });
    expect(mapLemmyFailure(res(400, 'invalid_post_title'), { timeoutMs: 1000, now: new Date() }).failure).toEqual({ kind: 'invalid_content', code: 'text_too_long' });
    expect(mapLemmyFailure(res(400, 'rate_limit_error'), { timeoutMs: 1000, now: new Date() }).failure).toEqual({ kind: 'rate_limited', retryAfterMs: 60_000 });
    expect(mapLemmyFailure(res(400, 'site_ban'), { timeoutMs: 1000, now: new Date() }).failure).toEqual({ kind: 'rejected', code: 'site_ban' });
  });
});
