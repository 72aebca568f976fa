import { connectWithCredentials } from '../../core/usecases/connect-with-credentials';
import { createProfile } from '../../core/usecases/profiles';
import { submitUpload, type UploadInput } from '../../core/usecases/submit-upload';
import { clearExpiredRestriction, publishTarget } from '../../core/usecases/run-upload';
import { DEFAULT_UPLOAD_TIMING } from '../../core/ports/upload-runner';
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

describe('a pause the network lifts by itself, then the post is retried (youtube_channel_daily_limit)', () => {
  async function pendingUpload() {
    const { world, deps, account, pauses, post, connection } = await pausedWorld();
    // Stored but not run: the test plays the workflow's calls.
    const idle = { ...deps, runner: { start: async () => undefined, waitForCompletion: async () => false, reschedule: async () => undefined, cancel: async () => undefined } };
    const { upload } = await submitUpload(idle, account, post({ async: true }));
    const input = { accountId: account.id, requestId: upload.requestId, platform: 'discord' as const, timing: DEFAULT_UPLOAD_TIMING, step: 0, attempt: 1 };
    const dailyLimit = () => ({
      kind: 'restricted' as const, reason: 'daily_upload_limit', code: 'youtube_channel_daily_limit', retryAfterPause: true,
      until: new Date(world.deps.clock.now().getTime() + 2 * 3600_000),
    });
    const stored = async () => (await deps.storage.uploads.find(account.id, upload.requestId))!;
    return { world, deps, pauses, input, dailyLimit, stored, connection };
  }

  it('hands the pause back to the workflow instead of failing the post, and pauses the account', async () => {
    const { world, deps, pauses, input, dailyLimit, stored, connection } = await pendingUpload();
    const verdict = dailyLimit();
    world.discord.failNext(verdict, 'The channel reached its daily upload limit.');
    const outcome = await publishTarget(deps, { ...input, round: 0, waitOutPause: true });
    expect(outcome).toEqual({ kind: 'paused', untilIso: verdict.until.toISOString(), reason: 'The channel reached its daily upload limit.' });
    // No result yet: the post is still running; other posts are refused while the account is paused.
    expect((await stored()).results.discord).toBeUndefined();
    expect(world.notifier.events.filter((e) => e.event === 'upload_completed')).toHaveLength(0);
    expect((await connection()).restriction).toMatchObject({ reason: 'daily_upload_limit', until: verdict.until });
    expect(pauses).toHaveLength(1);

    // The pause ends (the pause workflow lifts it); the workflow publishes once more, in a new round.
    world.advance(2 * 3600_000);
    const retried = await publishTarget(deps, { ...input, round: 1 });
    expect(retried).toMatchObject({ kind: 'done', result: { success: true } });
    expect(world.discord.posts).toHaveLength(1);
  });

  it('fails for good on a second verdict (one retry per pause)', async () => {
    const { world, deps, input, dailyLimit, stored } = await pendingUpload();
    world.discord.failNext(dailyLimit());
    expect(await publishTarget(deps, { ...input, round: 0, waitOutPause: true })).toMatchObject({ kind: 'paused' });
    world.advance(2 * 3600_000);
    world.discord.failNext(dailyLimit(), 'Still over the limit.');
    const outcome = await publishTarget(deps, { ...input, round: 1 });
    expect(outcome).toMatchObject({ kind: 'done', result: { success: false, error_code: 'youtube_channel_daily_limit', restriction_reason: 'daily_upload_limit' } });
    expect((await stored()).results.discord).toMatchObject({ success: false, error_code: 'youtube_channel_daily_limit' });
  });

  it('fails at once when the caller cannot wait (runs of older workflow code) or the pause is not one to retry after', async () => {
    const { world, deps, input, dailyLimit } = await pendingUpload();
    world.discord.failNext(dailyLimit());
    expect(await publishTarget(deps, { ...input, round: 0 })).toMatchObject({ kind: 'done', result: { success: false, error_code: 'youtube_channel_daily_limit' } });

    const other = await pendingUpload();
    other.world.discord.failNext({ kind: 'restricted', reason: 'spam_restricted', until: new Date(other.world.deps.clock.now().getTime() + 3600_000) });
    expect(await publishTarget(other.deps, { ...other.input, round: 0, waitOutPause: true }))
      .toMatchObject({ kind: 'done', result: { success: false, error_code: 'spam_restricted' } });
  });
});
