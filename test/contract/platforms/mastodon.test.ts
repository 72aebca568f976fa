import { PlatformError } from '../../../core/domain/errors';
import { HeraldError } from '../../../core/domain/errors';
import type { PlatformAdapter, PublishContext } from '../../../core/ports/platform';
import type { PlatformHarness } from './shared-contract';
import { createMastodonPlatform, mastodonLength } from '../../../adapters/platforms/mastodon';
import { startMastodonSimulator, type MastodonSimulator } from '../../../ops/simulators/mastodon';
import { noMedia } from '../../support/media-access';
import { drivePublish, FIXTURE_TIMEOUT_MS, mediaFixtures, type MediaFixtures } from '../../support/platform-harness';
import { postOf, simulatedHarness } from './harness-kit';
import { platformContract } from './shared-contract';

let fx: MediaFixtures;
beforeAll(async () => { fx = await mediaFixtures(); }, FIXTURE_TIMEOUT_MS);
afterAll(async () => { await fx?.close(); });

let account: { id: string; username: string; accessToken: string };
let adapter: PlatformAdapter;
const build = () => createMastodonPlatform({ allowPrivateInstances: true, timeoutMs: 5000, mediaPollMs: 10, maxProcessingMs: 20_000 });

const h: PlatformHarness & { sim(): MastodonSimulator } = simulatedHarness<MastodonSimulator>({
  name: 'mastodon',
  async start() {
    const s = await startMastodonSimulator({ processingMs: 30 });
    account = s.createAccount({ username: 'contract', displayName: 'Contract' });
    adapter = build();
    return { sim: s, adapter };
  },
  connect: () => adapter.credentials!.verify({ instance_url: h.sim().instanceUrl, access_token: account.accessToken }),
  publishable: {
    text: () => postOf(adapter, 'text', 'Contract toot'),
    photo: (m) => postOf(adapter, 'photo', 'Contract photos', [m.images[0]!, m.images[1]!], { mastodon_alt_text: 'First||Second' }),
    video: (m) => postOf(adapter, 'video', 'Contract video', [m.video]),
  },
  networkHas: async (o) => h.sim().statuses(account.id).some((s) => s.id === o.postId),
  publishedCount: () => h.sim().statuses().length,
  postOperations: { operations: ['edit', 'unpublish'], textOf: (id) => h.sim().statuses(account.id).find((s) => s.id === id)?.text },
  failures: [
    { mode: 'invalid_token', arm: () => h.sim().fail('invalid_token'), expect: { kind: 'auth_expired', reason: 'token_revoked' } },
    { mode: 'rate_limited', arm: () => h.sim().fail('rate_limited'), expect: { kind: 'rate_limited' } },
    { mode: 'server_error', arm: () => h.sim().fail('server_error'), expect: { kind: 'transient' } },
    { mode: 'service_unavailable', arm: () => h.sim().fail('service_unavailable'), expect: { kind: 'transient' } },
    { mode: 'account_disabled', arm: () => h.sim().fail('account_disabled'), expect: { kind: 'rejected', code: 'forbidden' } },
    { mode: 'validation_failed', arm: () => h.sim().fail('validation_failed'), expect: { kind: 'invalid_content' } },
    { mode: 'malformed', arm: () => h.sim().fail('malformed'), expect: { kind: 'rejected', code: 'unexpected_response' } },
    { mode: 'media_processing_failed', kind: 'video', arm: () => h.sim().fail('media_processing_failed'), expect: { kind: 'invalid_content', code: 'media_processing_failed' } },
  ],
});

platformContract(h, () => fx);

describe('mastodon specifics', () => {
  beforeAll(() => h.start());
  afterAll(() => h.stop());
  beforeEach(() => h.reset());

  const ctx = async (media = noMedia): Promise<PublishContext> => ({
    credentials: (await h.connect()).credentials, idempotencyKey: `k-${Math.random()}`, media,
  });

  it('connect refuses http and private-address instances unless allowed, and a wrong token with auth_expired', async () => {
    const strict = createMastodonPlatform({ timeoutMs: 5000 });
    await expect(strict.credentials!.verify({ instance_url: h.sim().instanceUrl, access_token: account.accessToken }))
      .rejects.toMatchObject({ kind: 'invalid_input', details: { field: 'instance_url' } });
    for (const privateUrl of ['https://127.0.0.1:8443', 'https://10.1.2.3', 'https://[::1]', 'https://localhost']) {
      await expect(strict.credentials!.verify({ instance_url: privateUrl, access_token: account.accessToken }))
        .rejects.toMatchObject({ kind: 'invalid_input', details: { field: 'instance_url' } });
    }
    await expect(adapter.credentials!.verify({ instance_url: h.sim().instanceUrl, access_token: 'nottherighttoken' }))
      .rejects.toMatchObject({ failure: { kind: 'auth_expired' } });
    await expect(adapter.credentials!.verify({ instance_url: h.sim().instanceUrl })).rejects.toBeInstanceOf(HeraldError);
    const ok = await h.connect();
    expect(ok.identity.handle).toBe(`@contract@${new URL(h.sim().instanceUrl).host}`);
    expect(ok.credentials).toMatchObject({ instance_url: h.sim().instanceUrl, access_token: account.accessToken, account_id: account.id });
  });

  it('sends visibility, content warning, sensitivity and language; a poll on text', async () => {
    const post = postOf(adapter, 'text', 'Vote please', [], {
      mastodon_visibility: 'unlisted', mastodon_spoiler_text: 'poll inside', mastodon_language: 'EN',
      mastodon_poll_options: ['yes', 'no'], mastodon_poll_expires_in: 3600, mastodon_poll_multiple: true,
    });
    const { outcome } = await drivePublish(adapter, await ctx(), post, { maxWaitMs: 20 });
    const status = h.sim().statuses(account.id).find((s) => s.id === outcome.postId)!;
    expect(status).toMatchObject({ visibility: 'unlisted', spoiler_text: 'poll inside', language: 'en', poll: { options: ['yes', 'no'], expires_in: 3600, multiple: true } });
    expect(outcome.url).toMatch(/^https:\/\/mastodon\.sandbox\.test\/@contract\//);
  });

  it('uploads up to four images with descriptions; a video is polled until processed', async () => {
    const photos = postOf(adapter, 'photo', 'Four', fx.images.slice(0, 4), { mastodon_sensitive: true, mastodon_alt_text: ['a', 'b', 'c', 'd'] });
    const { outcome } = await drivePublish(adapter, await ctx(fx.access), photos, { maxWaitMs: 20 });
    const status = h.sim().statuses(account.id).find((s) => s.id === outcome.postId)!;
    expect(status.media_ids).toHaveLength(4);
    expect(status.sensitive).toBe(true);
    expect(h.sim().media(account.id).map((m) => m.description)).toEqual(['a', 'b', 'c', 'd']);

    const video = postOf(adapter, 'video', 'Moving', [fx.video]);
    const run = await drivePublish(adapter, await ctx(fx.access), video, { maxWaitMs: 20 });
    expect(run.steps).toBeGreaterThan(1);
    const polled = h.sim().requests.filter((r) => r.method === 'GET' && r.path.startsWith('/api/v1/media/'));
    expect(polled.length).toBeGreaterThan(0);
    expect(h.sim().statuses(account.id).find((s) => s.id === run.outcome.postId)!.media_ids).toHaveLength(1);
  });

  it('a retried create with the same idempotency key does not post twice', async () => {
    const c = await ctx();
    const post = postOf(adapter, 'text', 'Once');
    const a = await drivePublish(adapter, c, post);
    const b = await drivePublish(adapter, c, post);
    expect(b.outcome.postId).toBe(a.outcome.postId);
    expect(h.sim().statuses(account.id)).toHaveLength(1);
  });

  it('refuses more than four media and too long text (URLs count 23) before any request', async () => {
    const c = await ctx(fx.access);
    const before = h.sim().requests.length;
    await expect(adapter.publisher!.publish(c, { kind: 'photo', title: 'x', media: fx.images.slice(0, 5), settings: {} }))
      .rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'too_many_media' } });
    expect(mastodonLength(`${'a'.repeat(477)} https://example.com/${'p'.repeat(300)}`)).toBe(501);
    expect(mastodonLength('hi @someone@example.social')).toBe('hi @someone'.length);
    await expect(adapter.publisher!.publish(c, postOf(adapter, 'text', 'x'.repeat(480), [], { mastodon_spoiler_text: 'y'.repeat(30) })))
      .rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'text_too_long' } });
    expect(h.sim().requests.length).toBe(before);
  });

  it('edits a status (text and content warning, media kept) and deletes it', async () => {
    const c = await ctx(fx.access);
    const { outcome } = await drivePublish(adapter, c, postOf(adapter, 'photo', 'Before', [fx.images[0]!]), { maxWaitMs: 20 });
    const ref = await adapter.postEditor!.edit!(c, { id: outcome.postId, url: outcome.url }, { text: 'After', settings: { mastodon_spoiler_text: 'cw' } });
    expect(ref.id).toBe(outcome.postId);
    const edited = h.sim().statuses(account.id).find((s) => s.id === outcome.postId)!;
    expect(edited).toMatchObject({ text: 'After', spoiler_text: 'cw', edited_at: expect.any(String) });
    expect(edited.media_ids).toHaveLength(1);
    await adapter.postEditor!.unpublish!(c, { id: outcome.postId });
    expect(h.sim().statuses(account.id)).toHaveLength(0);
    await expect(adapter.postEditor!.unpublish!(c, { id: outcome.postId })).rejects.toMatchObject({ failure: { kind: 'rejected', code: 'not_found' } });
  });

  it('a revoked token is auth_expired on publish', async () => {
    const other = h.sim().createAccount({ username: 'revoked' });
    const { credentials } = await adapter.credentials!.verify({ instance_url: h.sim().instanceUrl, access_token: other.accessToken });
    h.sim().revokeToken(other.accessToken);
    await expect(drivePublish(adapter, { credentials, idempotencyKey: 'r', media: noMedia }, postOf(adapter, 'text', 'Gone')))
      .rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'token_revoked' } });
  });

  it('rate limiting waits until X-RateLimit-Reset', async () => {
    const c = await ctx();
    h.sim().fail('rate_limited');
    const err = await drivePublish(adapter, c, postOf(adapter, 'text', 'Slow')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlatformError);
    const retry = (err as PlatformError).failure as { retryAfterMs: number };
    expect(retry.retryAfterMs).toBeGreaterThan(20_000);
    expect(retry.retryAfterMs).toBeLessThanOrEqual(31_000);
  });
});
