/**
 * LinkedIn post operations and document posts against the LinkedIn simulator: partial updates
 * (commentary, visibility, reshare switch), deletes and reshares, only by the author; documents
 * through the Documents API (initializeUpload, PUT, processing, post with content.media).
 */
import { PlatformError } from '../../../../core/domain/errors';
import type { MediaAccess, MediaRef, PlatformAdapter, PlatformCredentials, PublishContext } from '../../../../core/ports/platform';
import { createLinkedInPlatform } from '../../../../adapters/platforms/linkedin';
import { startLinkedInSimulator, type LinkedInAccountFixture, type LinkedInSimulator } from '../../../../ops/simulators/linkedin';
import { drivePublish } from '../../../support/platform-harness';

const SCOPES = ['openid', 'profile', 'w_member_social'];
let sim: LinkedInSimulator;
let linkedin: PlatformAdapter;
let ada: LinkedInAccountFixture;
let bob: LinkedInAccountFixture;
let serial = 0;

const thisMonth = () => `${new Date().getUTCFullYear()}${String(new Date().getUTCMonth() + 1).padStart(2, '0')}`;

beforeAll(async () => {
  sim = await startLinkedInSimulator({ seed: 'linkedin-posts', processingMs: 20 });
  const client = sim.registerClient({ redirectUris: ['https://herald.example/cb'] });
  ada = sim.createAccount({ name: 'Ada' });
  bob = sim.createAccount({ name: 'Bob' });
  linkedin = createLinkedInPlatform({ clientId: client.clientId, clientSecret: client.clientSecret, apiBase: sim.apiBase, authBase: sim.authBase, version: thisMonth(), timeoutMs: 5000, videoPollMs: 10 });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

function credentialsFor(who: LinkedInAccountFixture): PlatformCredentials {
  const t = sim.issueTokens(who.sub, { scope: SCOPES });
  return { access_token: t.accessToken, expires_at: t.expiresAt.toISOString(), scope: SCOPES.join(' '), member_urn: who.urn };
}
const textCtx = (who: LinkedInAccountFixture): PublishContext => ({ credentials: credentialsFor(who), idempotencyKey: `k${++serial}`, media: { read: () => { throw new Error('no media'); }, publicUrl: () => '', rendition: () => { throw new Error('no media'); } } });
async function published(who: LinkedInAccountFixture, settings: Record<string, unknown> = {}) {
  const { outcome } = await drivePublish(linkedin, textCtx(who), { kind: 'text', title: `A post ${++serial}`, media: [], settings: { visibility: 'PUBLIC', ...settings } }, { maxWaitMs: 20 });
  return outcome.postId;
}
async function refusal(p: Promise<unknown>): Promise<PlatformError> {
  try { await p; } catch (err) { if (err instanceof PlatformError) return err; throw err; }
  throw new Error('expected a refusal');
}

it('an edit is a partial update: commentary (escaped little text), visibility and the reshare switch; the rest stays', async () => {
  const urn = await published(ada);
  const edited = await linkedin.postEditor!.edit!({ credentials: credentialsFor(ada) }, { id: urn }, { text: 'New words (with brackets)', settings: { visibility: 'CONNECTIONS', disable_reshare: true } });
  expect(edited).toMatchObject({ id: urn, url: `https://www.linkedin.com/feed/update/${urn}`, updated: ['commentary', 'linkedin_visibility', 'linkedin_disable_reshare'] });
  expect(sim.posts().find((p) => p.id === urn)).toMatchObject({ text: 'New words (with brackets)', visibility: 'CONNECTIONS', isReshareDisabledByAuthor: true });
  const update = sim.requests.find((r) => r.method === 'POST' && r.path === `/rest/posts/${encodeURIComponent(urn)}`)!;
  expect(update.headers['x-restli-method']).toBe('PARTIAL_UPDATE');
  expect(update.body).toEqual({ patch: { $set: { commentary: 'New words \\(with brackets\\)', visibility: 'CONNECTIONS', isReshareDisabledByAuthor: true } } });
  // Only the visibility: the commentary stays.
  await linkedin.postEditor!.edit!({ credentials: credentialsFor(ada) }, { id: urn }, { settings: { visibility: 'PUBLIC' } });
  expect(sim.posts().find((p) => p.id === urn)).toMatchObject({ text: 'New words (with brackets)', visibility: 'PUBLIC' });
});

it('only the author edits or deletes; a reshare is refused when the author disabled it', async () => {
  const urn = await published(ada, { linkedin_disable_reshare: true });
  expect((await refusal(linkedin.postEditor!.edit!({ credentials: credentialsFor(bob) }, { id: urn }, { text: 'Hijack' }))).failure).toEqual({ kind: 'rejected', code: 'permission_denied' });
  expect((await refusal(linkedin.postEditor!.unpublish!({ credentials: credentialsFor(bob) }, { id: urn }))).failure).toEqual({ kind: 'rejected', code: 'permission_denied' });
  expect((await refusal(linkedin.postEditor!.repost!({ credentials: credentialsFor(bob) }, { id: urn }))).failure).toEqual({ kind: 'rejected', code: 'permission_denied' });
  expect((await refusal(linkedin.postEditor!.edit!({ credentials: credentialsFor(ada) }, { id: urn }, {}))).failure).toEqual({ kind: 'invalid_content', code: 'nothing_to_update' });
});

it('a reshare is a post of the member with the original as parent; a delete removes the post', async () => {
  const urn = await published(ada);
  const reshare = await linkedin.postEditor!.repost!({ credentials: credentialsFor(bob) }, { id: urn });
  expect(sim.posts().find((p) => p.id === reshare.id)).toMatchObject({ author: bob.urn, reshareOf: urn });
  await linkedin.postEditor!.unpublish!({ credentials: credentialsFor(ada) }, { id: urn });
  expect(sim.posts().some((p) => p.id === urn)).toBe(false);
  expect((await refusal(linkedin.postEditor!.edit!({ credentials: credentialsFor(ada) }, { id: urn }, { text: 'Gone' }))).failure).toEqual({ kind: 'rejected', code: 'not_found' });
});

describe('document posts', () => {
  const pdf = Buffer.from('%PDF-1.4\n%%EOF\n');
  const access = (bytes: Buffer): MediaAccess => ({
    async *read() { yield bytes; },
    publicUrl: () => 'https://media.example/doc',
    rendition: () => { throw new Error('no renditions'); },
  });
  const doc = (bytes: Buffer, contentType = 'application/pdf'): MediaRef => ({ id: 'doc-1', kind: 'document', contentType, size: bytes.length, filename: 'deck.pdf' });

  it('uploads through the Documents API, waits for processing, and posts it with a title', async () => {
    const ctx: PublishContext = { credentials: credentialsFor(ada), idempotencyKey: 'd1', media: access(pdf) };
    const { outcome } = await drivePublish(linkedin, ctx, { kind: 'document', title: 'The deck', description: 'Read this', media: [doc(pdf)], settings: { visibility: 'PUBLIC' } }, { maxWaitMs: 20 });
    const document = outcome.extra?.document as string;
    expect(document).toMatch(/^urn:li:document:/);
    expect(sim.posts().find((p) => p.id === outcome.postId)).toMatchObject({ text: 'Read this', content: { media: { id: document, title: 'The deck' } } });
    expect(sim.documents()).toEqual([expect.objectContaining({ urn: document, owner: ada.urn, status: 'AVAILABLE', contentType: 'application/pdf' })]);
    expect(sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual(expect.arrayContaining(['POST /rest/documents', `GET /rest/documents/${encodeURIComponent(document)}`, 'POST /rest/posts']));
  });

  it('refuses other file types before any request, and fails when LinkedIn cannot convert the file', async () => {
    const ctx: PublishContext = { credentials: credentialsFor(ada), idempotencyKey: 'd2', media: access(pdf) };
    const before = sim.requests.length;
    const wrongType = await refusal(drivePublish(linkedin, ctx, { kind: 'document', title: 'Notes', media: [doc(pdf, 'text/plain')], settings: { visibility: 'PUBLIC' } }, { maxWaitMs: 20 }));
    expect(wrongType.failure).toEqual({ kind: 'invalid_content', code: 'unsupported_media' });
    expect(sim.requests.length).toBe(before);
    const junk = Buffer.from('not a document at all');
    const broken = await refusal(drivePublish(linkedin, { ...ctx, media: access(junk) }, { kind: 'document', title: 'Junk', media: [doc(junk)], settings: { visibility: 'PUBLIC' } }, { maxWaitMs: 20 }));
    expect(broken.failure).toEqual({ kind: 'invalid_content', code: 'document_processing_failed' });
    expect(sim.posts()).toEqual([]);
  });
});
