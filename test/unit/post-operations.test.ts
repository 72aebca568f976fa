/**
 * core/usecases/post-operations.ts against in-memory storage and a fake network editor: the
 * network's check first, the connection, the refusal mapping, and what status shows afterwards.
 */
import { HeraldError, PlatformError } from '../../core/domain/errors';
import { toUploadView } from '../../core/domain/upload-view';
import type { PlatformAdapter, PostEditor } from '../../core/ports/platform';
import { editPost, unpublishPost } from '../../core/usecases/post-operations';
import { createMemoryStorage } from '../../adapters/memory/storage';
import { createPlatformRegistry } from '../../adapters/platforms/registry';
import { createAesSecretBox, randomIds } from '../../adapters/crypto/node-crypto';
import { fakeTextPlatform } from '../support/fake-platform';
import { aConnectedAccount, anOperator, anUpload, aProfile, aTargetResult, at, sealedCredentialsOf } from '../support/mothers';

const secrets = createAesSecretBox(Buffer.alloc(32, 3).toString('base64'));
const operator = anOperator({ id: 'acct-1' });

function world(editor: PostEditor) {
  const x = fakeTextPlatform('x');
  const adapter: PlatformAdapter = { ...x.adapter, postEditor: editor };
  const storage = createMemoryStorage();
  let now = at(10);
  const deps = { storage, platforms: createPlatformRegistry([adapter, fakeTextPlatform('telegram').adapter]), secrets, clock: { now: () => now }, ids: randomIds };
  return { deps, storage, later: () => { now = new Date(now.getTime() + 60_000); } };
}

async function seeded(editor: PostEditor, status: 'connected' | 'reauth_required' = 'connected') {
  const w = world(editor);
  await w.storage.profiles.insert(aProfile({ accountId: 'acct-1', username: 'pat' }));
  await w.storage.connectedAccounts.upsert(aConnectedAccount({ accountId: 'acct-1', profileUsername: 'pat', platform: 'x', status, sealedCredentials: sealedCredentialsOf(secrets, { accountId: 'acct-1', profileUsername: 'pat', platform: 'x' }, { access_token: 't' }) }));
  const upload = anUpload({ accountId: 'acct-1', profileUsername: 'pat', status: 'completed' });
  await w.storage.uploads.insert(upload);
  await w.storage.uploads.recordResult('acct-1', upload.requestId, aTargetResult({ platform: 'x', post_id: '100', url: 'https://x.example/100', thread_ids: ['100', '101'] }), at(1));
  return { ...w, upload };
}

const refusal = async (p: Promise<unknown>): Promise<HeraldError> => {
  try { await p; } catch (err) { if (err instanceof HeraldError) return err; throw err; }
  throw new Error('expected a refusal');
};

it('an edit that gives the post a new id is stored with the upload; the new id finds it again; status shows the chain', async () => {
  const seen: unknown[] = [];
  let n = 100;
  const w = await seeded({
    async edit(_ctx, post, changes) {
      seen.push({ post, changes });
      n += 10;
      return { id: String(n), url: `https://x.example/${n}`, updated: ['message'], previousId: post.id };
    },
  });
  const first = await editPost(w.deps, operator, { platform: 'x', user: 'pat', postId: '100' }, { text: 'v2' });
  expect(first).toMatchObject({ id: '110', requestId: w.upload.requestId });
  // The adapter got the post as published: its URL and the adapter's own result fields.
  expect(seen[0]).toEqual({ post: { id: '100', url: 'https://x.example/100', extra: { thread_ids: ['100', '101'] } }, changes: { text: 'v2' } });
  w.later();
  await editPost(w.deps, operator, { platform: 'x', user: 'pat', postId: '110' }, { text: 'v3' });
  const view = toUploadView((await w.storage.uploads.find('acct-1', w.upload.requestId))!);
  expect(view.results.x).toMatchObject({
    post_id: '120', url: 'https://x.example/120', previous_post_id: '110', edit_history_post_ids: ['100', '110', '120'],
    edit_count: 2, updated_fields: ['message'], edited_at: at(11).toISOString(), success: true,
  });
});

it('a post Herald did not publish is edited too, with nothing to record', async () => {
  const w = await seeded({ edit: async (_c, post) => ({ id: post.id }) });
  const edited = await editPost(w.deps, operator, { platform: 'x', user: 'pat', postId: '999' }, { text: 'x' });
  expect(edited).toEqual({ id: '999' });
  expect((await w.storage.uploads.find('acct-1', w.upload.requestId))!.operations).toBeUndefined();
});

it('unpublish shows in the status; a network that cannot answers platform_not_supported naming the ones that can', async () => {
  const w = await seeded({ unpublish: async () => undefined });
  await unpublishPost(w.deps, operator, { platform: 'x', user: 'pat', postId: '100' });
  expect(toUploadView((await w.storage.uploads.find('acct-1', w.upload.requestId))!).results.x).toMatchObject({ unpublished: true, unpublished_at: at(10).toISOString() });
  const edit = await refusal(editPost(w.deps, operator, { platform: 'x', user: 'pat', postId: '100' }, { text: 'x' }));
  expect(edit).toMatchObject({ kind: 'invalid_input', errorCode: 'platform_not_supported', details: { supported_platforms: [] } });
  const telegram = await refusal(unpublishPost(w.deps, operator, { platform: 'telegram', user: 'pat', postId: '1' }));
  expect(telegram).toMatchObject({ kind: 'invalid_input', errorCode: 'platform_not_supported', details: { supported_platforms: ['x'] } });
  expect((await refusal(unpublishPost(w.deps, operator, { platform: 'reddit', user: 'pat', postId: '1' }))).errorCode).toBe('reddit_unavailable');
});

it('the connection: unknown profile 404, not connected 400, reauth_required 409', async () => {
  const ok: PostEditor = { unpublish: async () => undefined };
  const w = await seeded(ok, 'reauth_required');
  expect(await refusal(unpublishPost(w.deps, operator, { platform: 'x', user: 'nobody', postId: '1' }))).toMatchObject({ kind: 'not_found', errorCode: 'PROFILE_NOT_FOUND' });
  expect(await refusal(unpublishPost(w.deps, operator, { platform: 'x', user: 'pat', postId: '1' }))).toMatchObject({ kind: 'conflict', errorCode: 'reauth_required', details: { reauth_required: true } });
  await w.storage.profiles.insert(aProfile({ accountId: 'acct-1', username: 'sam' }));
  expect(await refusal(unpublishPost(w.deps, operator, { platform: 'x', user: 'sam', postId: '1' }))).toMatchObject({ kind: 'invalid_input', errorCode: 'not_connected' });
});

it("the network's refusals: not found is 404 post_not_found, a rule of the account 403 with its code, the rest passes through", async () => {
  const failures: PlatformError[] = [
    new PlatformError('x', { kind: 'rejected', code: 'not_found' }, 'gone'),
    new PlatformError('x', { kind: 'rejected', code: 'edit_window_closed' }, 'too late'),
    new PlatformError('x', { kind: 'transient' }, 'down'),
  ];
  const w = await seeded({ edit: async () => { throw failures.shift()!; } });
  const target = { platform: 'x' as const, user: 'pat', postId: '100' };
  expect(await refusal(editPost(w.deps, operator, target, { text: 'a' }))).toMatchObject({ kind: 'not_found', errorCode: 'post_not_found' });
  expect(await refusal(editPost(w.deps, operator, target, { text: 'a' }))).toMatchObject({ kind: 'forbidden', errorCode: 'edit_window_closed' });
  await expect(editPost(w.deps, operator, target, { text: 'a' })).rejects.toMatchObject({ failure: { kind: 'transient' } });
  expect((await w.storage.uploads.find('acct-1', w.upload.requestId))!.operations).toBeUndefined();
});
