import type { PlatformAdapter } from '../../../core/ports/platform';
import { createHashnodePlatform } from '../../../adapters/platforms/hashnode';
import { readOperation, startHashnodeSimulator, type HashnodeSimulator } from '../../../ops/simulators/hashnode';
import { noMedia } from '../../support/media-access';
import { drivePublish, FIXTURE_TIMEOUT_MS, mediaFixtures, type MediaFixtures } from '../../support/platform-harness';
import { postOf, simulatedHarness } from './harness-kit';
import { platformContract, type PlatformHarness } from './shared-contract';

let fx: MediaFixtures;
beforeAll(async () => { fx = await mediaFixtures(); }, FIXTURE_TIMEOUT_MS);
afterAll(async () => { await fx?.close(); });

let user: { id: string; username: string; token: string };
let publication: { id: string; url: string };
let adapter: PlatformAdapter;

const h: PlatformHarness & { sim(): HashnodeSimulator } = simulatedHarness<HashnodeSimulator>({
  name: 'hashnode',
  async start() {
    const s = await startHashnodeSimulator();
    user = s.createUser({ username: 'contract', name: 'Contract' });
    publication = s.createPublication(user.id, { title: 'Contract Blog' });
    adapter = createHashnodePlatform({ apiUrl: s.apiUrl, timeoutMs: 5000 });
    return { sim: s, adapter };
  },
  connect: () => adapter.credentials!.verify({ access_token: user.token, publication_id: publication.id }),
  publishable: { text: () => ({ ...postOf(adapter, 'text', 'Contract post'), description: '## Markdown body' }) },
  networkHas: async (o) => h.sim().posts(publication.id).some((p) => p.id === o.postId),
  publishedCount: () => h.sim().posts().length,
  failures: [
    { mode: 'unauthenticated', arm: () => h.sim().fail('unauthenticated'), expect: { kind: 'auth_expired', reason: 'token_revoked' } },
    { mode: 'rate_limited', arm: () => h.sim().fail('rate_limited'), expect: { kind: 'rate_limited', retryAfterMs: 20_000 } },
    { mode: 'internal_error', arm: () => h.sim().fail('internal_error'), expect: { kind: 'transient' } },
    { mode: 'bad_gateway', arm: () => h.sim().fail('bad_gateway'), expect: { kind: 'transient' } },
    { mode: 'bad_user_input', arm: () => h.sim().fail('bad_user_input'), expect: { kind: 'invalid_content' } },
    { mode: 'malformed', arm: () => h.sim().fail('malformed'), expect: { kind: 'rejected', code: 'unexpected_response' } },
  ],
});

platformContract(h, () => fx);

describe('hashnode specifics', () => {
  beforeAll(() => h.start());
  afterAll(() => h.stop());
  beforeEach(() => h.reset());

  it('the simulator reads operations like a GraphQL server: type, variables, root fields', () => {
    expect(readOperation('mutation P($input: PublishPostInput!) { publishPost(input: $input) { post { id } } }'))
      .toEqual({ type: 'mutation', variables: { input: 'PublishPostInput!' }, fields: ['publishPost'] });
    expect(readOperation('{ me { id } pub: publication(id: "x") { id } }')).toEqual({ type: 'query', variables: {}, fields: ['me', 'publication'] });
    expect(readOperation('query { me { id }')).toBeUndefined();
  });

  it('connect checks the token and the publication', async () => {
    const c = await h.connect();
    expect(c.identity).toMatchObject({ platformUserId: publication.id, handle: publication.url, displayName: 'Contract Blog' });
    await expect(adapter.credentials!.verify({ access_token: 'wrong-token-1234', publication_id: publication.id })).rejects.toMatchObject({ failure: { kind: 'auth_expired' } });
    await expect(adapter.credentials!.verify({ access_token: user.token, publication_id: 'aaaaaaaaaaaaaaaaaaaaaaaa' }))
      .rejects.toMatchObject({ kind: 'invalid_input', details: { field: 'publication_id' } });
    await expect(adapter.credentials!.verify({ access_token: user.token, publication_id: 'blog' })).rejects.toMatchObject({ kind: 'invalid_input' });
  });

  it('publishes with subtitle, tags, cover image, original URL; edits; removes', async () => {
    const { credentials } = await h.connect();
    const ctx = { credentials, idempotencyKey: 'h1', media: noMedia };
    const post = {
      ...postOf(adapter, 'text', 'Full post', [], {
        hashnode_subtitle: 'Sub', hashnode_tags: 'javascript,#node', hashnode_cover_image_url: 'https://cdn.example/c.png',
        hashnode_canonical_url: 'https://blog.example/full',
      }),
      description: 'Body **md**',
    };
    const { outcome } = await drivePublish(adapter, ctx, post);
    expect(outcome.url).toMatch(/^https:\/\/contractblog\.hashnode\.dev\/full-post/);
    expect(h.sim().posts(publication.id)[0]).toMatchObject({
      contentMarkdown: 'Body **md**', subtitle: 'Sub', tags: [{ slug: 'javascript', name: 'javascript' }, { slug: 'node', name: 'node' }],
      coverImageURL: 'https://cdn.example/c.png', originalArticleURL: 'https://blog.example/full',
    });
    const ref = await adapter.postEditor!.edit!(ctx, { id: outcome.postId }, { title: 'Renamed', text: 'New body' });
    expect(ref.id).toBe(outcome.postId);
    expect(h.sim().posts(publication.id)[0]).toMatchObject({ title: 'Renamed', contentMarkdown: 'New body', updatedAt: expect.any(String) });
    await adapter.postEditor!.unpublish!(ctx, { id: outcome.postId });
    expect(h.sim().posts()).toHaveLength(0);
    await expect(adapter.postEditor!.unpublish!(ctx, { id: outcome.postId })).rejects.toMatchObject({ failure: { kind: 'rejected', code: 'not_found' } });
  });

  it('a publication the user cannot write to is refused as forbidden', async () => {
    const stranger = h.sim().createUser({ username: 'stranger' });
    const other = h.sim().createPublication(stranger.id, { title: 'Other Blog' });
    const { credentials } = await adapter.credentials!.verify({ access_token: user.token, publication_id: other.id });
    await expect(drivePublish(adapter, { credentials, idempotencyKey: 'h2', media: noMedia }, postOf(adapter, 'text', 'Not mine')))
      .rejects.toMatchObject({ failure: { kind: 'rejected', code: 'forbidden' } });
  });
});
