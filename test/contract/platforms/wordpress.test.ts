/**
 * WordPress: the shared platform contract against the site simulator (text, photos, video), and
 * what is WordPress's own: the connect checks, its fields, edit and trash, each failure.
 */
import { resolveSettings } from '../../../core/domain/settings';
import type { PlatformAdapter, PublishContext, PublishPost } from '../../../core/ports/platform';
import { postRefOf } from '../../../core/ports/platform';
import { createWordPressPlatform, mapWordPressFailure } from '../../../adapters/platforms/wordpress';
import { startWordPressSimulator, type WordPressSimulator } from '../../../ops/simulators/wordpress';
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

interface World { sim: WordPressSimulator; adapter: PlatformAdapter; password: string }
let world: World | undefined;
const w = () => { if (!world) throw new Error('wordpress world is not started'); return world; };

async function startWorld(): Promise<World> {
  const sim = await startWordPressSimulator();
  const { applicationPassword } = sim.createUser({ username: 'editor', name: 'Ed Itor', role: 'editor' });
  const adapter = createWordPressPlatform({ allowHttpSites: true, timeoutMs: TIMEOUT_MS });
  return { sim, adapter, password: applicationPassword };
}
const connectWith = (x: World, extra: Record<string, unknown> = {}) =>
  x.adapter.credentials!.verify({ site_url: x.sim.siteUrl, username: 'editor', application_password: x.password, ...extra });

const harness: PlatformHarness = {
  name: 'wordpress',
  async start() { world = await startWorld(); },
  async stop() { await world?.sim.close(); world = undefined; },
  reset: () => w().sim.reset(),
  get adapter() { return w().adapter; },
  connect: () => connectWith(w()),
  publishable: {
    text: () => post(w().adapter, 'text', unique('Contract post'), []),
    photo: (m) => post(w().adapter, 'photo', unique('Contract photos'), m.images.slice(0, 2)),
    video: (m) => post(w().adapter, 'video', unique('Contract video'), [m.video]),
  },
  networkHas: async (o) => w().sim.posts().some((p) => String(p.id) === o.postId),
  publishedCount: () => w().sim.posts().length,
  requestCount: () => w().sim.requests.length,
  failures: [
    { mode: 'incorrect_password', arm: () => w().sim.fail('incorrect_password'), expect: { kind: 'auth_expired', reason: 'incorrect_password' } },
    { mode: 'rate_limited', arm: () => w().sim.fail('rate_limited'), expect: { kind: 'rate_limited', retryAfterMs: 5000 } },
    { mode: 'server_error', arm: () => w().sim.fail('server_error'), expect: { kind: 'transient' } },
    { mode: 'bad_gateway', arm: () => w().sim.fail('bad_gateway'), expect: { kind: 'transient' } },
    { mode: 'cannot_publish', arm: () => w().sim.fail('cannot_publish'), expect: { kind: 'rejected', code: 'rest_cannot_publish' } },
    { mode: 'malformed', arm: () => w().sim.fail('malformed'), expect: { kind: 'rejected', code: 'unexpected_response' } },
    { mode: 'too_large', kind: 'video', arm: () => w().sim.fail('too_large'), expect: { kind: 'invalid_content', code: 'media_too_large' } },
  ],
};

platformContract(harness, () => fx);

describe('wordpress: its own behaviour', () => {
  let x: World;
  beforeAll(async () => { x = await startWorld(); });
  afterAll(() => x.sim.close());
  beforeEach(() => x.sim.reset());

  const ctx = (credentials: Record<string, string>, media = noMedia): PublishContext => ({ credentials, idempotencyKey: `idem-${++serial}`, media });
  const publish = (credentials: Record<string, string>, p: PublishPost, media = noMedia) => publishInOneStep(x.adapter, ctx(credentials, media), p);

  it('connects with users/me?context=edit and Basic auth; identity of the user on the site', async () => {
    const v = await connectWith(x);
    const host = new URL(x.sim.siteUrl).host;
    expect(v.identity).toMatchObject({ platformUserId: `${host}#1`, handle: `editor@${host}`, displayName: 'Ed Itor' });
    expect(v.credentials).toEqual({ site_url: x.sim.siteUrl, username: 'editor', application_password: x.password.replace(/ /g, ''), user_id: '1' });
    const req = x.sim.requests[0]!;
    expect(`${req.method} ${req.path}`).toBe('GET /wp-json/wp/v2/users/me');
    expect(req.headers.authorization).toBe(`Basic ${Buffer.from(`editor:${x.password.replace(/ /g, '')}`).toString('base64')}`);
  });

  it('refuses a wrong password, a contributor, an http site unless allowed, and a malformed password', async () => {
    await expect(connectWith(x, { application_password: 'aaaa bbbb cccc dddd eeee ffff' })).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'incorrect_password' } });
    const contributor = x.sim.createUser({ username: 'helper', role: 'contributor' });
    await expect(x.adapter.credentials!.verify({ site_url: x.sim.siteUrl, username: 'helper', application_password: contributor.applicationPassword }))
      .rejects.toMatchObject({ details: { field: 'username' } });
    const strict = createWordPressPlatform({ timeoutMs: TIMEOUT_MS });
    const before = x.sim.requests.length;
    await expect(strict.credentials!.verify({ site_url: x.sim.siteUrl, username: 'editor', application_password: x.password })).rejects.toMatchObject({ details: { field: 'site_url' } });
    expect(x.sim.requests.length).toBe(before);
    await expect(connectWith(x, { application_password: 'hunter2' })).rejects.toMatchObject({ details: { field: 'application_password' } });
  });

  it('sends its fields: status, categories, tags, excerpt, slug; content is the description', async () => {
    const { credentials } = await connectWith(x);
    const cat = x.sim.createCategory('News');
    const tag = x.sim.createTag('herald');
    const outcome = await publish(credentials, post(x.adapter, 'text', 'Release notes', [], {
      wordpress_status: 'draft', wordpress_categories: `${cat}`, wordpress_tags: [String(tag)], wordpress_excerpt: 'Short', wordpress_slug: 'release-notes',
    }, 'First paragraph.\n\nSecond <b> paragraph.'));
    expect(outcome).toMatchObject({ url: `${x.sim.home}/?p=${outcome.postId}`, extra: { status: 'draft' } });
    expect(x.sim.posts()).toEqual([expect.objectContaining({
      title: 'Release notes', status: 'draft', categories: [cat], tags: [tag], excerpt: 'Short', slug: 'release-notes',
      content: '<!-- wp:paragraph -->\n<p>First paragraph.</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:paragraph -->\n<p>Second &lt;b&gt; paragraph.</p>\n<!-- /wp:paragraph -->',
    })]);
    await expect(publish(credentials, post(x.adapter, 'text', 'Bad tag', [], { wordpress_tags: '999' }))).rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'invalid_param' } });
    const violations = (fields: Record<string, unknown>) => resolveSettings('wordpress', x.adapter.descriptor.settings, fields, { endpoint: 'text', mediaCount: 0 }).violations.map((v) => v.field);
    expect(violations({ wordpress_status: 'live' })).toEqual(['wordpress_status']);
    expect(violations({ wordpress_categories: 'news' })).toEqual(['wordpress_categories']);
    expect(violations({ wordpress_slug: 'Not A Slug' })).toEqual(['wordpress_slug']);
  });

  it('uploads photos to the media library, features the first and shows them all as blocks', async () => {
    const { credentials } = await connectWith(x);
    const outcome = await publish(credentials, post(x.adapter, 'photo', 'Two photos', fx.images.slice(0, 2)), fx.access);
    const [a, b] = x.sim.media();
    expect([a!.size, b!.size]).toEqual([fx.images[0]!.size, fx.images[1]!.size]);
    const created = x.sim.posts()[0]!;
    expect(created.featured_media).toBe(a!.id);
    expect(created.content).toContain(`<img src="${a!.source_url}" alt="" class="wp-image-${a!.id}"/>`);
    expect(created.content).toContain(`class="wp-image-${b!.id}"`);
    expect(outcome.extra).toMatchObject({ media_ids: [a!.id, b!.id] });
  });

  it('edits the title and text, then moves the post to the trash', async () => {
    const { credentials } = await connectWith(x);
    const outcome = await publish(credentials, post(x.adapter, 'text', 'Old title', []));
    await x.adapter.postEditor!.edit!(ctx(credentials), postRefOf(outcome), { title: 'New title', text: 'New body' });
    expect(x.sim.posts()[0]).toMatchObject({ title: 'New title', content: '<!-- wp:paragraph -->\n<p>New body</p>\n<!-- /wp:paragraph -->' });
    await x.adapter.postEditor!.unpublish!(ctx(credentials), postRefOf(outcome));
    expect(x.sim.posts()).toEqual([]);
    await expect(x.adapter.postEditor!.unpublish!(ctx(credentials), postRefOf(outcome))).rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'post_not_found' } });
  });

  it('an application password revoked on the site fails publishing as auth_expired', async () => {
    const other = x.sim.createUser({ username: 'temp', role: 'author' });
    const { credentials } = await x.adapter.credentials!.verify({ site_url: x.sim.siteUrl, username: 'temp', application_password: other.applicationPassword });
    x.sim.revokePasswords('temp');
    await expect(publish(credentials, post(x.adapter, 'text', 'Gone', []))).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'incorrect_password' } });
  });

  it('maps by WordPress code first: an upload refused for its type is content, not an outage', () => {
    const res = (status: number, code: string) => ({ kind: 'response' as const, status, headers: new Headers(), body: { code, message: 'm', data: { status } } });
    expect(mapWordPressFailure(res(500, 'rest_upload_sideload_error'), { timeoutMs: 1000, now: new Date() }).failure).toEqual({ kind: 'invalid_content', code: 'media_rejected' });
    expect(mapWordPressFailure(res(404, 'rest_no_route'), { timeoutMs: 1000, now: new Date() }).failure).toEqual({ kind: 'rejected', code: 'rest_api_unavailable' });
    expect(mapWordPressFailure(res(401, 'application_passwords_disabled'), { timeoutMs: 1000, now: new Date() }).failure).toEqual({ kind: 'auth_expired', reason: 'application_passwords_disabled' });
  });
});
