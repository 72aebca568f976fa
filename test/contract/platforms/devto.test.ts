import type { PlatformAdapter } from '../../../core/ports/platform';
import { createDevtoPlatform } from '../../../adapters/platforms/devto';
import { startDevtoSimulator, type DevtoSimulator } from '../../../ops/simulators/devto';
import { noMedia } from '../../support/media-access';
import { drivePublish, FIXTURE_TIMEOUT_MS, mediaFixtures, type MediaFixtures } from '../../support/platform-harness';
import { postOf, simulatedHarness } from './harness-kit';
import { platformContract, type PlatformHarness } from './shared-contract';

let fx: MediaFixtures;
beforeAll(async () => { fx = await mediaFixtures(); }, FIXTURE_TIMEOUT_MS);
afterAll(async () => { await fx?.close(); });

let user: { id: number; username: string; apiKey: string };
let adapter: PlatformAdapter;

const h: PlatformHarness & { sim(): DevtoSimulator } = simulatedHarness<DevtoSimulator>({
  name: 'devto',
  async start() {
    const s = await startDevtoSimulator();
    user = s.createUser({ username: 'contract', name: 'Contract Writer' });
    adapter = createDevtoPlatform({ apiBase: s.apiBase, timeoutMs: 5000 });
    return { sim: s, adapter };
  },
  connect: () => adapter.credentials!.verify({ api_key: user.apiKey }),
  publishable: { text: () => ({ ...postOf(adapter, 'text', 'Contract article'), description: '# Hello\n\nBody in **markdown**.' }) },
  networkHas: async (o) => h.sim().articles(user.id).some((a) => String(a.id) === o.postId),
  publishedCount: () => h.sim().articles().length,
  failures: [
    { mode: 'unauthorized', arm: () => h.sim().fail('unauthorized'), expect: { kind: 'auth_expired', reason: 'token_revoked' } },
    { mode: 'rate_limited', arm: () => h.sim().fail('rate_limited'), expect: { kind: 'rate_limited', retryAfterMs: 30_000 } },
    { mode: 'server_error', arm: () => h.sim().fail('server_error'), expect: { kind: 'transient' } },
    { mode: 'bad_gateway', arm: () => h.sim().fail('bad_gateway'), expect: { kind: 'transient' } },
    { mode: 'validation_failed', arm: () => h.sim().fail('validation_failed'), expect: { kind: 'invalid_content' } },
    { mode: 'malformed', arm: () => h.sim().fail('malformed'), expect: { kind: 'rejected', code: 'unexpected_response' } },
  ],
});

platformContract(h, () => fx);

describe('devto specifics', () => {
  beforeAll(() => h.start());
  afterAll(() => h.stop());
  beforeEach(() => h.reset());

  it('connect names the user; a wrong key is auth_expired; a missing key is invalid_input', async () => {
    const c = await h.connect();
    expect(c.identity).toMatchObject({ platformUserId: String(user.id), handle: 'contract', displayName: 'Contract Writer' });
    await expect(adapter.credentials!.verify({ api_key: 'wrongwrongwrong' })).rejects.toMatchObject({ failure: { kind: 'auth_expired' } });
    await expect(adapter.credentials!.verify({})).rejects.toMatchObject({ kind: 'invalid_input', details: { field: 'api_key' } });
  });

  it('sends the markdown body, tags, series, canonical URL, cover image and draft state', async () => {
    const { credentials } = await h.connect();
    const post = {
      ...postOf(adapter, 'text', 'Tagged', [], {
        devto_tags: '#TypeScript,node', devto_series: 'Herald', devto_canonical_url: 'https://blog.example/tagged',
        devto_main_image: 'https://cdn.example/cover.png', devto_published: 'false',
      }),
      description: 'Long **body**',
    };
    const { outcome } = await drivePublish(adapter, { credentials, idempotencyKey: 'd1', media: noMedia }, post);
    const article = h.sim().articles(user.id).find((a) => String(a.id) === outcome.postId)!;
    expect(article).toMatchObject({ body_markdown: 'Long **body**', tags: ['typescript', 'node'], series: 'Herald', canonical_url: 'https://blog.example/tagged',
      main_image: 'https://cdn.example/cover.png', published: false });
    expect(outcome.warnings.join(' ')).toMatch(/draft/);
    expect(outcome.url).toMatch(/^https:\/\/dev\.to\/contract\//);
  });

  it('refuses more than four tags and tags with symbols at intake (settings schema)', () => {
    expect(() => postOf(adapter, 'text', 'x', [], { devto_tags: 'a,b,c,d,e' })).toThrow(/at most 4/);
    expect(() => postOf(adapter, 'text', 'x', [], { devto_tags: 'c++' })).toThrow(/not a DEV tag/);
  });

  it('edits the article: title, body and tags', async () => {
    const { credentials } = await h.connect();
    const ctx = { credentials, idempotencyKey: 'd2', media: noMedia };
    const { outcome } = await drivePublish(adapter, ctx, postOf(adapter, 'text', 'First title'));
    const ref = await adapter.postEditor!.edit!(ctx, { id: outcome.postId }, { title: 'Second title', text: 'New body', settings: { devto_tags: ['news'] } });
    expect(ref.id).toBe(outcome.postId);
    expect(h.sim().articles(user.id)[0]).toMatchObject({ title: 'Second title', body_markdown: 'New body', tags: ['news'], edited_at: expect.any(String) });
    await expect(adapter.postEditor!.edit!(ctx, { id: '999' }, { title: 'Nope' })).rejects.toMatchObject({ failure: { kind: 'rejected', code: 'not_found' } });
  });

  it('unpublishes the article: it goes back to a draft (DEV deletes nothing through its API)', async () => {
    const { credentials } = await h.connect();
    const ctx = { credentials, idempotencyKey: 'd3', media: noMedia };
    const { outcome } = await drivePublish(adapter, ctx, postOf(adapter, 'text', 'Going away', [], { devto_published: true }));
    expect(h.sim().articles(user.id).find((a) => String(a.id) === outcome.postId)).toMatchObject({ published: true });
    await adapter.postEditor!.unpublish!(ctx, { id: outcome.postId });
    expect(h.sim().articles(user.id).find((a) => String(a.id) === outcome.postId)).toMatchObject({ published: false });
    await expect(adapter.postEditor!.unpublish!(ctx, { id: '999' })).rejects.toMatchObject({ failure: { kind: 'rejected', code: 'not_found' } });
  });
});
