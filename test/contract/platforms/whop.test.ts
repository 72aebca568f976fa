import type { PlatformAdapter } from '../../../core/ports/platform';
import { createWhopPlatform } from '../../../adapters/platforms/whop';
import { startWhopSimulator, type WhopSimulator } from '../../../ops/simulators/whop';
import { noMedia } from '../../support/media-access';
import { drivePublish, FIXTURE_TIMEOUT_MS, mediaFixtures, type MediaFixtures } from '../../support/platform-harness';
import { postOf, simulatedHarness } from './harness-kit';
import { platformContract, type PlatformHarness } from './shared-contract';

let fx: MediaFixtures;
beforeAll(async () => { fx = await mediaFixtures(); }, FIXTURE_TIMEOUT_MS);
afterAll(async () => { await fx?.close(); });

let company: { id: string };
let experience: { id: string };
let apiKey = '';
let adapter: PlatformAdapter;

const h: PlatformHarness & { sim(): WhopSimulator } = simulatedHarness<WhopSimulator>({
  name: 'whop',
  async start() {
    const s = await startWhopSimulator();
    company = s.createCompany({ title: 'Contract Co' });
    experience = s.createExperience(company.id, { name: 'Forum' });
    apiKey = s.createApiKey(company.id);
    adapter = createWhopPlatform({ apiBase: s.apiBase, timeoutMs: 5000 });
    return { sim: s, adapter };
  },
  connect: () => adapter.credentials!.verify({ api_key: apiKey, experience_id: experience.id }),
  publishable: { text: () => postOf(adapter, 'text', 'Contract forum post') },
  networkHas: async (o) => h.sim().posts(experience.id).some((p) => p.id === o.postId),
  publishedCount: () => h.sim().posts().length,
  failures: [
    { mode: 'unauthorized', arm: () => h.sim().fail('unauthorized'), expect: { kind: 'auth_expired', reason: 'token_revoked' } },
    { mode: 'forbidden', arm: () => h.sim().fail('forbidden'), expect: { kind: 'rejected', code: 'permission_denied' } },
    { mode: 'rate_limited', arm: () => h.sim().fail('rate_limited'), expect: { kind: 'rate_limited', retryAfterMs: 10_000 } },
    { mode: 'server_error', arm: () => h.sim().fail('server_error'), expect: { kind: 'transient' } },
    { mode: 'bad_gateway', arm: () => h.sim().fail('bad_gateway'), expect: { kind: 'transient' } },
    { mode: 'invalid_request', arm: () => h.sim().fail('invalid_request'), expect: { kind: 'invalid_content' } },
    { mode: 'malformed', arm: () => h.sim().fail('malformed'), expect: { kind: 'rejected', code: 'unexpected_response' } },
  ],
});

platformContract(h, () => fx);

describe('whop specifics', () => {
  beforeAll(() => h.start());
  afterAll(() => h.stop());
  beforeEach(() => h.reset());

  it('connect checks the key and the experience', async () => {
    const c = await h.connect();
    expect(c.identity).toMatchObject({ platformUserId: experience.id, handle: 'Contract Co / Forum', displayName: 'Forum' });
    expect(c.credentials).toEqual({ api_key: apiKey, experience_id: experience.id, company_id: company.id });
    await expect(adapter.credentials!.verify({ api_key: 'apik_wrongwrongwrong', experience_id: experience.id })).rejects.toMatchObject({ failure: { kind: 'auth_expired' } });
    await expect(adapter.credentials!.verify({ api_key: apiKey, experience_id: 'exp_doesnotexist' })).rejects.toMatchObject({ failure: { kind: 'rejected', code: 'not_found' } });
    await expect(adapter.credentials!.verify({ api_key: apiKey, experience_id: 'forum' })).rejects.toMatchObject({ kind: 'invalid_input', details: { field: 'experience_id' } });
  });

  it('title and markdown content from text + description; attachments, pin and visibility; then edit', async () => {
    const file = h.sim().createFile(company.id);
    const { credentials } = await h.connect();
    const ctx = { credentials, idempotencyKey: 'w1', media: noMedia };
    const post = { ...postOf(adapter, 'text', 'Weekly update', [], { whop_attachment_ids: file, whop_pinned: 'true', whop_visibility: 'globally_visible' }), description: '## Shipped\n- things' };
    const { outcome } = await drivePublish(adapter, ctx, post);
    expect(h.sim().posts(experience.id)[0]).toMatchObject({ title: post.title, content: '## Shipped\n- things', attachments: [file], is_pinned: true, visibility: 'globally_visible' });
    const ref = await adapter.postEditor!.edit!(ctx, { id: outcome.postId }, { text: 'Edited body', title: 'Edited title' });
    expect(ref.id).toBe(outcome.postId);
    expect(h.sim().posts(experience.id)[0]).toMatchObject({ title: 'Edited title', content: 'Edited body', is_edited: true });
  });

  it('a plain text post is the content, without a title', async () => {
    const { credentials } = await h.connect();
    await drivePublish(adapter, { credentials, idempotencyKey: 'w2', media: noMedia }, postOf(adapter, 'text', 'Just words'));
    expect(h.sim().posts(experience.id)[0]).toMatchObject({ title: null, content: expect.stringMatching(/^Just words/) });
  });
});
