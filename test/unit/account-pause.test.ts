import { connectWithCredentials } from '../../core/usecases/connect-with-credentials';
import { createProfile } from '../../core/usecases/profiles';
import { submitUpload, type UploadInput } from '../../core/usecases/submit-upload';
import { clearExpiredRestriction } from '../../core/usecases/run-upload';
import { createInlineUploadRunner } from '../../adapters/memory/upload-runner';
import type { AccountRestriction, ConnectedAccount } from '../../core/domain/connected-account';
import { aWorld } from '../support/world';

async function pausedWorld() {
  const world = aWorld();
  const pauses: Array<{ connection: ConnectedAccount; restriction: AccountRestriction }> = [];
  const runDeps = { ...world.deps, pauses: { paused: async (connection: ConnectedAccount, restriction: AccountRestriction) => { pauses.push({ connection, restriction }); } } };
  const deps = { ...runDeps, runner: createInlineUploadRunner(runDeps) };
  const { account } = await world.operator();
  await createProfile(deps, account, { username: 'alice' });
  for (const p of ['discord', 'telegram'] as const) await connectWithCredentials(deps, account, p, { profile_username: 'alice', secret: 'good' });
  const post = (over: Partial<UploadInput> = {}): UploadInput => ({
    kind: 'text', profileUsername: 'alice', platforms: ['discord'], title: 'hello', media: [], fields: {}, async: false, warnings: [], syncTimeoutMs: 60_000, ...over,
  });
  const connection = async () => (await deps.storage.connectedAccounts.find(account.id, 'alice', 'discord'))!;
  return { world, deps, account, pauses, post, connection };
}

describe('account pause', () => {
  it('pauses the account on a restriction verdict and refuses new posts at precheck without calling the network', async () => {
    const { world, deps, account, pauses, post, connection } = await pausedWorld();
    const until = new Date(world.deps.clock.now().getTime() + 24 * 3600_000);
    world.discord.failNext({ kind: 'restricted', reason: 'spam_restricted', until }, 'spam');
    const first = await submitUpload(deps, account, post());
    expect(first.upload.results.discord).toMatchObject({ success: false, error_code: 'spam_restricted', restriction_reason: 'spam_restricted' });
    expect((await connection()).restriction).toEqual({ reason: 'spam_restricted', until });
    expect(pauses).toHaveLength(1);

    const err = await submitUpload(deps, account, post()).catch((e) => e);
    expect(err).toMatchObject({
      kind: 'too_many_requests', errorCode: 'account_restricted',
      details: { failure_stage: 'precheck', retry_after_seconds: 24 * 3600, results: { discord: { restriction_reason: 'spam_restricted', restricted_until: until.toISOString() } } },
    });
    expect(world.discord.posts).toHaveLength(0);
    // Nothing was stored for the refused request.
    expect((await deps.storage.uploads.history({ accountId: account.id, page: 1, limit: 10 })).total).toBe(1);
  });

  it('lets the other platforms of a request go out', async () => {
    const { world, deps, account, post } = await pausedWorld();
    world.discord.failNext({ kind: 'restricted', reason: 'publish_limit', until: new Date(world.deps.clock.now().getTime() + 1800_000) });
    await submitUpload(deps, account, post());
    const { upload } = await submitUpload(deps, account, post({ platforms: ['discord', 'telegram'] }));
    expect(upload.results.discord).toMatchObject({ success: false, error_code: 'account_restricted', failure_stage: 'precheck', retry_after_seconds: 1800 });
    expect(upload.results.telegram).toMatchObject({ success: true });
  });

  it('publishes again once the pause has passed (the workflow timer lifts it)', async () => {
    const { world, deps, account, post, connection } = await pausedWorld();
    world.discord.failNext({ kind: 'restricted', reason: 'rate_limited', until: new Date(world.deps.clock.now().getTime() + 3600_000) });
    await submitUpload(deps, account, post());
    expect(await clearExpiredRestriction(deps, { connectionId: (await connection()).id })).toBe(false);
    world.advance(3600_000);
    expect(await clearExpiredRestriction(deps, { connectionId: (await connection()).id })).toBe(true);
    expect((await connection()).restriction).toBeUndefined();
    const { upload } = await submitUpload(deps, account, post());
    expect(upload.results.discord).toMatchObject({ success: true });
  });

  it('ends the pause early when the account is reconnected', async () => {
    const { world, deps, account, post, connection } = await pausedWorld();
    world.discord.failNext({ kind: 'restricted', reason: 'identity_confirmation', until: new Date(world.deps.clock.now().getTime() + 3600_000) });
    await submitUpload(deps, account, post());
    await connectWithCredentials(deps, account, 'discord', { profile_username: 'alice', secret: 'good' });
    expect((await connection()).restriction).toBeUndefined();
    expect((await submitUpload(deps, account, post())).upload.results.discord).toMatchObject({ success: true });
  });

  it('flags a checkpoint: precheck answers account_reauth_required until reconnection', async () => {
    const { world, deps, account, post, connection } = await pausedWorld();
    world.discord.failNext({ kind: 'checkpoint' }, 'checkpoint required');
    const first = await submitUpload(deps, account, post());
    expect(first.upload.results.discord).toMatchObject({ error_code: 'account_checkpoint_required' });
    expect((await connection()).checkpointRequired).toBe(true);
    await expect(submitUpload(deps, account, post())).rejects.toMatchObject({ kind: 'conflict', errorCode: 'account_reauth_required' });
    await connectWithCredentials(deps, account, 'discord', { profile_username: 'alice', secret: 'good' });
    expect((await submitUpload(deps, account, post())).upload.results.discord).toMatchObject({ success: true });
  });
});
