/**
 * The table of simple post operations (core/domain/post-operations.ts): the generic use case passes
 * each entry's input to the network and stores what the entry records; status folds it as the entry
 * says; the catalogue has one operation per entry and POST /posts/action takes every entry's names.
 */
import { POST_OPERATIONS, SIMPLE_POST_OPERATIONS } from '../../core/domain/post-operations';
import { toUploadView } from '../../core/domain/upload-view';
import type { PlatformAdapter, PostEditor } from '../../core/ports/platform';
import { runPostOperation } from '../../core/usecases/post-operations';
import { createMemoryStorage } from '../../adapters/memory/storage';
import { createPlatformRegistry } from '../../adapters/platforms/registry';
import { createAesSecretBox, randomIds } from '../../adapters/crypto/node-crypto';
import { OPERATIONS } from '../../apps/api/catalogue';
import { POST_ACTIONS } from '../../apps/api/catalogue/posts';
import { fakeTextPlatform } from '../support/fake-platform';
import { aConnectedAccount, anOperator, anUpload, aProfile, aTargetResult, at, sealedCredentialsOf } from '../support/mothers';

const secrets = createAesSecretBox(Buffer.alloc(32, 3).toString('base64'));
const operator = anOperator({ id: 'acct-1' });

async function seeded(editor: PostEditor) {
  const adapter: PlatformAdapter = { ...fakeTextPlatform('pinterest').adapter, postEditor: editor };
  const storage = createMemoryStorage();
  let now = at(10);
  const deps = { storage, platforms: createPlatformRegistry([adapter]), secrets, clock: { now: () => now }, ids: randomIds };
  await storage.profiles.insert(aProfile({ accountId: 'acct-1', username: 'pat' }));
  await storage.connectedAccounts.upsert(aConnectedAccount({ accountId: 'acct-1', profileUsername: 'pat', platform: 'pinterest', sealedCredentials: sealedCredentialsOf(secrets, { accountId: 'acct-1', profileUsername: 'pat', platform: 'pinterest' }, { access_token: 't' }) }));
  const upload = anUpload({ accountId: 'acct-1', profileUsername: 'pat', status: 'completed', targets: [{ platform: 'pinterest', connectedAccountId: 'conn-p', title: 'A pin', settings: {} }] });
  await storage.uploads.insert(upload);
  await storage.uploads.recordResult('acct-1', upload.requestId, aTargetResult({ platform: 'pinterest', post_id: '100' }), at(1));
  return { deps, storage, upload, later: () => { now = new Date(now.getTime() + 60_000); } };
}

it('save and repost: the entry\'s input reaches the network; what it records folds into the status, oldest first', async () => {
  const seen: unknown[] = [];
  const w = await seeded({
    async save(_ctx, post, to) { seen.push(to); return { id: `saved-${post.id}`, url: 'https://pin.example/s' }; },
    async repost(_ctx, post) { return { id: `re-${post.id}` }; },
  });
  const target = { platform: 'pinterest' as const, user: 'pat', postId: '100' };
  const saved = await runPostOperation(w.deps, operator, target, 'save', POST_OPERATIONS.save.input({ board_id: 'b1', board_section_id: 's1' }));
  expect(saved).toEqual({ post: { id: 'saved-100', url: 'https://pin.example/s' }, requestId: w.upload.requestId });
  expect(seen).toEqual([{ boardId: 'b1', sectionId: 's1' }]);
  w.later();
  await runPostOperation(w.deps, operator, target, 'repost', undefined);
  const view = toUploadView((await w.storage.uploads.find('acct-1', w.upload.requestId))!);
  expect(view.results.pinterest).toMatchObject({
    saves: [{ post_id: 'saved-100', board_id: 'b1', at: at(10).toISOString() }],
    reposts: [{ post_id: 're-100', at: at(11).toISOString() }],
  });
});

it('the catalogue has one operation per entry, and POST /posts/action every entry\'s names', () => {
  for (const action of SIMPLE_POST_OPERATIONS) {
    const spec = POST_OPERATIONS[action];
    expect(OPERATIONS.filter((op) => op.id === spec.operationId).map((op) => op.path)).toEqual([`/svc/${spec.path}`]);
    expect(POST_ACTIONS).toEqual(expect.arrayContaining([action, ...(spec.aliases ?? [])]));
  }
});
