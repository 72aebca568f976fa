import type { PlatformAdapter } from '../../../core/ports/platform';
import { createListmonkPlatform } from '../../../adapters/platforms/listmonk';
import { startListmonkSimulator, type ListmonkSimulator } from '../../../ops/simulators/listmonk';
import { noMedia } from '../../support/media-access';
import { drivePublish, FIXTURE_TIMEOUT_MS, mediaFixtures, type MediaFixtures } from '../../support/platform-harness';
import { postOf, simulatedHarness } from './harness-kit';
import { platformContract, type PlatformHarness } from './shared-contract';

let fx: MediaFixtures;
beforeAll(async () => { fx = await mediaFixtures(); }, FIXTURE_TIMEOUT_MS);
afterAll(async () => { await fx?.close(); });

let user: { name: string; token: string };
let list: { id: number };
let adapter: PlatformAdapter;

const h: PlatformHarness & { sim(): ListmonkSimulator } = simulatedHarness<ListmonkSimulator>({
  name: 'listmonk',
  async start() {
    const s = await startListmonkSimulator();
    user = s.createApiUser('herald');
    list = s.createList('Subscribers');
    adapter = createListmonkPlatform({ allowPrivateInstances: true, timeoutMs: 5000 });
    return { sim: s, adapter };
  },
  connect: () => adapter.credentials!.verify({ instance_url: h.sim().instanceUrl, api_user: user.name, api_token: user.token, list_ids: String(list.id) }),
  publishable: {
    text: () => ({ ...postOf(adapter, 'text', 'Contract newsletter'), description: '# News\n\nThe body.' }),
    photo: (f) => postOf(adapter, 'photo', 'Contract photo newsletter', f.images.slice(0, 2)),
  },
  networkHas: async (o) => h.sim().campaigns().some((c) => String(c.id) === o.postId && c.status === 'running'),
  // Published = started or scheduled; a draft left behind is not sent to anyone.
  publishedCount: () => h.sim().campaigns().filter((c) => c.status !== 'draft').length,
  failures: [
    { mode: 'invalid_credentials', arm: () => h.sim().fail('invalid_credentials'), expect: { kind: 'auth_expired', reason: 'token_revoked' } },
    { mode: 'permission_denied', arm: () => h.sim().fail('permission_denied'), expect: { kind: 'rejected', code: 'permission_denied' } },
    { mode: 'proxy_rate_limited', arm: () => h.sim().fail('proxy_rate_limited'), expect: { kind: 'rate_limited', retryAfterMs: 15_000 } },
    { mode: 'server_error', arm: () => h.sim().fail('server_error'), expect: { kind: 'transient' } },
    { mode: 'bad_gateway', arm: () => h.sim().fail('bad_gateway'), expect: { kind: 'transient' } },
    { mode: 'invalid_fields', arm: () => h.sim().fail('invalid_fields'), expect: { kind: 'invalid_content' } },
    { mode: 'malformed', arm: () => h.sim().fail('malformed'), expect: { kind: 'rejected', code: 'unexpected_response' } },
  ],
});

platformContract(h, () => fx);

describe('listmonk specifics', () => {
  beforeAll(() => h.start());
  afterAll(() => h.stop());
  beforeEach(() => h.reset());

  it('connect checks the API user (token or Basic auth as listmonk takes) and the default lists', async () => {
    const c = await h.connect();
    const host = new URL(h.sim().instanceUrl).host;
    expect(c.identity).toMatchObject({ platformUserId: `herald@${host}`, handle: `herald@${host}` });
    expect(c.credentials).toMatchObject({ instance_url: h.sim().instanceUrl, api_user: 'herald', list_ids: String(list.id) });
    expect(h.sim().requests.at(-1)!.headers.authorization).toBe(`token herald:${user.token}`);
    const basic = await fetch(`${h.sim().instanceUrl}/api/lists?minimal=true`, { headers: { authorization: `Basic ${Buffer.from(`herald:${user.token}`).toString('base64')}` } });
    expect(basic.status).toBe(200);
    await expect(adapter.credentials!.verify({ instance_url: h.sim().instanceUrl, api_user: 'herald', api_token: 'wrongtoken123' })).rejects.toMatchObject({ failure: { kind: 'auth_expired' } });
    await expect(adapter.credentials!.verify({ instance_url: h.sim().instanceUrl, api_user: 'herald', api_token: user.token, list_ids: '99' }))
      .rejects.toMatchObject({ kind: 'invalid_input', details: { field: 'list_ids' } });
    await expect(createListmonkPlatform().credentials!.verify({ instance_url: h.sim().instanceUrl, api_user: 'herald', api_token: user.token }))
      .rejects.toMatchObject({ kind: 'invalid_input', details: { field: 'instance_url' } });
  });

  it('creates the campaign (subject, body, lists, template, content type) and starts it', async () => {
    const template = h.sim().createTemplate('Plain');
    const other = h.sim().createList('VIP');
    const { credentials } = await h.connect();
    const post = { ...postOf(adapter, 'text', 'Issue 12', [], { listmonk_list_ids: `${list.id},${other.id}`, listmonk_template_id: template.id, listmonk_tags: 'weekly' }), description: 'Hello **readers**' };
    const { outcome } = await drivePublish(adapter, { credentials, idempotencyKey: 'l1', media: noMedia }, post);
    expect(h.sim().campaigns()[0]).toMatchObject({ id: Number(outcome.postId), subject: post.title, body: 'Hello **readers**', lists: [list.id, other.id],
      template_id: template.id, content_type: 'markdown', tags: ['weekly'], status: 'running' });
    expect(outcome.extra).toMatchObject({ campaign_status: 'running' });
  });

  it('schedules with listmonk_send_at; uses the connection\'s default lists; the body is the text without description', async () => {
    const { credentials } = await h.connect();
    const at = new Date(Date.now() + 3_600_000).toISOString();
    await drivePublish(adapter, { credentials, idempotencyKey: 'l2', media: noMedia }, postOf(adapter, 'text', 'Later', [], { listmonk_send_at: at }));
    expect(h.sim().campaigns()[0]).toMatchObject({ status: 'scheduled', send_at: at, lists: [list.id], body: expect.stringMatching(/^Later/) });
  });

  it('a failed start is retried on the campaign already created, never a second one', async () => {
    const { credentials } = await h.connect();
    const ctx = { credentials, idempotencyKey: 'l3', media: noMedia };
    const post = postOf(adapter, 'text', 'Once only');
    const first = await adapter.publisher!.publish(ctx, post);
    expect(first.kind).toBe('wait');
    h.sim().fail('bad_gateway');
    await expect(adapter.publisher!.resume!(ctx, post, (first as { state: Record<string, unknown> }).state)).rejects.toMatchObject({ failure: { kind: 'transient' } });
    const done = await adapter.publisher!.resume!(ctx, post, (first as { state: Record<string, unknown> }).state);
    expect(done.kind).toBe('done');
    expect(h.sim().campaigns()).toHaveLength(1);
    expect(h.sim().campaigns()[0]!.status).toBe('running');
    // The start's answer lost after it took effect: resuming again finishes without a second start.
    const again = await adapter.publisher!.resume!(ctx, post, (first as { state: Record<string, unknown> }).state);
    expect(again).toMatchObject({ kind: 'done', outcome: { postId: String(h.sim().campaigns()[0]!.id) } });
    expect(h.sim().requests.filter((r) => r.method === 'PUT')).toHaveLength(1);
  });

  it('a photo campaign uploads each image to the media library (multipart file) and embeds its url in the body', async () => {
    const { credentials } = await h.connect();
    const photos = fx.images.slice(0, 2);
    const ctx = { credentials, idempotencyKey: 'lp1', media: fx.access };
    const { outcome } = await drivePublish(adapter, ctx, { ...postOf(adapter, 'photo', 'Spring issue', photos, { listmonk_content_type: 'html' }), description: '<p>Hello</p>' });
    const media = h.sim().media();
    expect(media.map((m) => [m.size, m.content_type])).toEqual(photos.map((p) => [p.size, 'image/jpeg']));
    const campaign = h.sim().campaigns().find((c) => String(c.id) === outcome.postId)!;
    expect(campaign.status).toBe('running');
    expect(campaign.body).toBe(`<p>Hello</p>\n${media.map((m) => `<p><img src="${m.url}" alt="${campaign.subject}" /></p>`).join('\n')}`);
    const uploads = h.sim().requests.filter((r) => r.path === '/api/media');
    expect(uploads).toHaveLength(2);
    expect(uploads[0]!.headers.authorization).toBe(`token herald:${user.token}`);
    // Markdown bodies (the default) get markdown images.
    const md = await drivePublish(adapter, { ...ctx, idempotencyKey: 'lp2' }, postOf(adapter, 'photo', 'Markdown issue', [photos[0]!]));
    expect(h.sim().campaigns().find((c) => String(c.id) === md.outcome.postId)!.body).toMatch(/^Markdown issue #\d+\n\n!\[Markdown issue #\d+\]\(http:\/\/.+\/uploads\/.+\)$/);
  });

  it('refuses video, and the media API refuses what listmonk refuses', async () => {
    const { credentials } = await h.connect();
    const before = h.sim().requests.length;
    const err = adapter.publisher!.publish({ credentials, idempotencyKey: 'lv', media: fx.access }, { kind: 'video', title: 'A clip', media: [fx.video], settings: {} });
    await expect(err).rejects.toMatchObject({ failure: { kind: 'unsupported' }, message: expect.stringMatching(/no video/) });
    expect(h.sim().requests.length).toBe(before);
    const auth = { authorization: `token herald:${user.token}` };
    const asJson = await fetch(`${h.sim().instanceUrl}/api/media`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{}' });
    expect([asJson.status, await asJson.json()]).toEqual([400, { message: 'Invalid file.' }]);
    const pdf = new FormData();
    pdf.append('file', new Blob([new Uint8Array(8)], { type: 'application/pdf' }), 'doc.pdf');
    const refused = await fetch(`${h.sim().instanceUrl}/api/media`, { method: 'POST', headers: auth, body: pdf });
    expect(refused.status).toBe(400);
    const anon = new FormData();
    anon.append('file', new Blob([new Uint8Array(8)], { type: 'image/png' }), 'a.png');
    expect((await fetch(`${h.sim().instanceUrl}/api/media`, { method: 'POST', body: anon })).status).toBe(403);
    expect(h.sim().media()).toEqual([]);
  });

  it('without lists anywhere the post is refused before any request', async () => {
    const c = await adapter.credentials!.verify({ instance_url: h.sim().instanceUrl, api_user: 'herald', api_token: user.token });
    const before = h.sim().requests.length;
    await expect(adapter.publisher!.publish({ credentials: c.credentials, idempotencyKey: 'l4', media: noMedia }, postOf(adapter, 'text', 'Nowhere')))
      .rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'lists_required' } });
    expect(h.sim().requests.length).toBe(before);
  });
});
