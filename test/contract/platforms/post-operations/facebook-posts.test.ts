/**
 * Facebook Page post operations against the Facebook simulator: message, is_pinned (one pinned post
 * per Page), scheduled_publish_time (unpublished posts only), the Page's own token, deletes, and
 * Graph's "does not exist" as not_found.
 */
import { PlatformError } from '../../../../core/domain/errors';
import type { PlatformAdapter, PlatformCredentials } from '../../../../core/ports/platform';
import { createFacebookPlatform } from '../../../../adapters/platforms/facebook';
import { startFacebookSimulator, type FacebookSimulator } from '../../../../ops/simulators/facebook';
import { drivePublish } from '../../../support/platform-harness';
import { noMedia } from '../../../support/media-access';

const REDIRECT = 'https://herald.example/oauth/facebook/callback';
let sim: FacebookSimulator;
let fb: PlatformAdapter;
let serial = 0;

beforeAll(async () => {
  sim = await startFacebookSimulator({ seed: 'facebook-posts', processingMs: 20 });
  fb = createFacebookPlatform({ apiBase: sim.baseUrl, videoApiBase: sim.baseUrl, authBase: sim.baseUrl, clientId: sim.app.id, clientSecret: sim.app.secret, timeoutMs: 5000, pollIntervalMs: 20 });
});
afterAll(() => sim.close());

async function connect(name: string, pages: string[]): Promise<{ credentials: PlatformCredentials; pages: Array<{ id: string }> }> {
  const account = sim.createAccount({ name, pages });
  const { credentials } = await fb.oauth!.exchangeCode({ code: sim.issueAuthCode(account.id, { redirectUri: REDIRECT }), redirectUri: REDIRECT });
  return { credentials, pages: account.pages };
}
async function post(credentials: PlatformCredentials, pageId: string): Promise<string> {
  const { outcome } = await drivePublish(fb, { credentials, idempotencyKey: `k${++serial}`, media: noMedia }, { kind: 'text', title: `Page news ${serial}`, media: [], settings: { facebook_page_id: pageId } }, { maxWaitMs: 20 });
  return outcome.postId;
}
async function refusal(p: Promise<unknown>): Promise<PlatformError> {
  try { await p; } catch (err) { if (err instanceof PlatformError) return err; throw err; }
  throw new Error('expected a refusal');
}

it('edits the message and pins the post; one pinned post per Page', async () => {
  const { credentials, pages } = await connect('Cafe', ['Cafe Page']);
  const first = await post(credentials, pages[0]!.id);
  const second = await post(credentials, pages[0]!.id);
  const edited = await fb.postEditor!.edit!({ credentials }, { id: first }, { text: 'Open late today', settings: { is_pinned: true } });
  expect(edited).toMatchObject({ id: first, updated: ['message', 'is_pinned'] });
  expect(sim.posts().find((p) => p.id === first)).toMatchObject({ message: 'Open late today', isPinned: true });
  await fb.postEditor!.edit!({ credentials }, { id: second }, { settings: { is_pinned: true } });
  expect(sim.posts().filter((p) => p.isPinned).map((p) => p.id)).toEqual([second]);
  expect(sim.posts().find((p) => p.id === second)!.message).toBe(`Page news ${serial}`);
});

it('scheduled_publish_time only on an unpublished post (Graph refuses it on a published one)', async () => {
  const { credentials, pages } = await connect('Bakery', ['Bakery Page']);
  const id = await post(credentials, pages[0]!.id);
  const err = await refusal(fb.postEditor!.edit!({ credentials }, { id }, { settings: { scheduled_publish_time: Math.floor(Date.now() / 1000) + 3600 } }));
  expect(err.failure.kind).toBe('invalid_content');
  expect(err.message).toMatch(/unpublished/);
});

it('uses the token of the Page in the post id; another account cannot touch it; deleted posts are not_found', async () => {
  const owner = await connect('Owner', ['Owner A', 'Owner B']);
  const stranger = await connect('Stranger', ['Stranger Page']);
  const id = await post(owner.credentials, owner.pages[1]!.id);
  await fb.postEditor!.edit!({ credentials: owner.credentials }, { id }, { text: 'From page B' });
  const edit = sim.requests.filter((r) => r.method === 'POST' && r.path.endsWith(`/${id}`)).pop()!;
  expect(edit.headers.authorization).toMatch(/^Bearer /);
  expect((await refusal(fb.postEditor!.unpublish!({ credentials: stranger.credentials }, { id }))).failure.kind).not.toBe('transient');
  expect(sim.posts().some((p) => p.id === id)).toBe(true);
  await fb.postEditor!.unpublish!({ credentials: owner.credentials }, { id });
  expect(sim.posts().some((p) => p.id === id)).toBe(false);
  expect((await refusal(fb.postEditor!.unpublish!({ credentials: owner.credentials }, { id }))).failure).toEqual({ kind: 'rejected', code: 'not_found' });
  expect((await refusal(fb.postEditor!.edit!({ credentials: owner.credentials }, { id }, {}))).failure).toEqual({ kind: 'invalid_content', code: 'nothing_to_update' });
});
