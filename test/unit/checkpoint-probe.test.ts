import { PlatformError } from '../../core/domain/errors';
import type { ConnectedAccount } from '../../core/domain/connected-account';
import type { PlatformAdapter, PlatformCredentials } from '../../core/ports/platform';
import type { UploadRunner } from '../../core/ports/upload-runner';
import { DEFAULT_UPLOAD_TIMING } from '../../core/ports/upload-runner';
import { connectWithCredentials } from '../../core/usecases/connect-with-credentials';
import { probeCheckpoint } from '../../core/usecases/checkpoint-probe';
import { createProfile, deleteProfile } from '../../core/usecases/profiles';
import { publishTarget } from '../../core/usecases/run-upload';
import { submitUpload, type UploadInput } from '../../core/usecases/submit-upload';
import { createInlineUploadRunner } from '../../adapters/memory/upload-runner';
import { createPlatformRegistry } from '../../adapters/platforms/registry';
import { aWorld } from '../support/world';

/** What the network answers to the next probes: 'ok', or the error it throws. */
type ProbeAnswer = 'ok' | Error;

/**
 * The memory world with discord able to be probed (like Instagram and Threads) and telegram not,
 * and the probe starter recorded instead of a Temporal workflow.
 */
async function probedWorld(opts: { runner?: UploadRunner; flagged?: (c: ConnectedAccount) => Promise<void> } = {}) {
  const world = aWorld();
  const answers: ProbeAnswer[] = [];
  const probed: PlatformCredentials[] = [];
  const discord: PlatformAdapter = {
    ...world.discord.adapter,
    probe: {
      async probe(ctx) {
        probed.push(ctx.credentials);
        const answer = answers.shift() ?? 'ok';
        if (answer !== 'ok') throw answer;
      },
    },
  };
  const flagged: ConnectedAccount[] = [];
  const runDeps = {
    ...world.deps,
    platforms: createPlatformRegistry([discord, world.telegram.adapter]),
    checkpointProbes: { flagged: opts.flagged ?? (async (c: ConnectedAccount) => { flagged.push(c); }) },
  };
  const deps = { ...runDeps, runner: opts.runner ?? createInlineUploadRunner(runDeps) };
  const { account } = await world.operator();
  await createProfile(deps, account, { username: 'alice' });
  for (const p of ['discord', 'telegram'] as const) await connectWithCredentials(deps, account, p, { profile_username: 'alice', secret: 'good' });
  let n = 0;
  const post = (over: Partial<UploadInput> = {}): UploadInput => ({
    kind: 'text', profileUsername: 'alice', platforms: ['discord'], title: `hello ${(n += 1)}`, media: [], fields: {}, async: false, warnings: [], syncTimeoutMs: 60_000, ...over,
  });
  const connection = async (p: 'discord' | 'telegram' = 'discord') => (await deps.storage.connectedAccounts.find(account.id, 'alice', p))!;
  /** A checkpoint verdict on the next publish to `platform`, which flags the account. */
  const checkpointed = async (p: 'discord' | 'telegram' = 'discord') => {
    (p === 'discord' ? world.discord : world.telegram).failNext({ kind: 'checkpoint' }, 'checkpoint required');
    const { upload } = await submitUpload(deps, account, post({ platforms: [p] }));
    expect(upload.results[p]).toMatchObject({ success: false, error_code: 'account_checkpoint_required' });
    expect((await connection(p)).checkpointRequired).toBe(true);
    return connection(p);
  };
  const probe = async () => probeCheckpoint(deps, { connectionId: (await connection()).id });
  return { world, deps, account, answers, probed, flagged, post, connection, checkpointed, probe };
}

const still = (message = 'The user is checkpointed.') => new PlatformError('discord', { kind: 'checkpoint' }, message);

describe('checkpoint probe', () => {
  it('a checkpoint verdict flags the account and starts its probe, only where the network can be probed', async () => {
    const { flagged, checkpointed } = await probedWorld();
    const discord = await checkpointed('discord');
    expect(flagged.map((c) => c.id)).toEqual([discord.id]);
    await checkpointed('telegram');
    expect(flagged).toHaveLength(1);
  });

  it('keeps the flag while the network still answers with a checkpoint: posts stay refused at precheck', async () => {
    const { deps, account, answers, probed, post, connection, checkpointed, probe } = await probedWorld();
    await checkpointed();
    answers.push(still());
    expect(await probe()).toBe('still_checkpointed');
    expect(probed).toEqual([{ secret: 'good' }]);
    expect((await connection()).checkpointRequired).toBe(true);
    await expect(submitUpload(deps, account, post())).rejects.toMatchObject({
      kind: 'conflict', errorCode: 'account_reauth_required', details: { failure_stage: 'precheck' },
    });
  });

  it('clears the flag once the network answers normally, and the account publishes again', async () => {
    const { world, deps, account, answers, post, connection, checkpointed, probe } = await probedWorld();
    await checkpointed();
    answers.push(still(), 'ok');
    expect(await probe()).toBe('still_checkpointed');
    expect(await probe()).toBe('cleared');
    const cleared = await connection();
    expect(cleared.checkpointRequired).toBeUndefined();
    expect(cleared.status).toBe('connected');
    const { upload } = await submitUpload(deps, account, post());
    expect(upload.results.discord).toMatchObject({ success: true });
    expect(world.discord.posts.map((p) => p.text)).toEqual([upload.content.title]);
    // Nothing left to do for a later probe of the same flag.
    expect(await probe()).toBe('gone');
  });

  it.each([
    ['throttling', new PlatformError('discord', { kind: 'rate_limited', retryAfterMs: 60_000 }, 'slow down')],
    ['an outage', new PlatformError('discord', { kind: 'transient' }, 'HTTP 500')],
    ['another refusal', new PlatformError('discord', { kind: 'rejected' }, 'no')],
  ])('%s is not proof that the checkpoint is gone: asked again next period', async (_label, error) => {
    const { answers, connection, checkpointed, probe } = await probedWorld();
    await checkpointed();
    answers.push(error);
    expect(await probe()).toBe('still_checkpointed');
    expect((await connection()).checkpointRequired).toBe(true);
  });

  it('an expired token is refreshed once, and the probe goes on with the new one', async () => {
    const { world, answers, probed, connection, checkpointed, probe } = await probedWorld();
    await checkpointed();
    answers.push(new PlatformError('discord', { kind: 'auth_expired', reason: 'token_expired' }, 'expired'), 'ok');
    expect(await probe()).toBe('cleared');
    expect(world.discord.refreshes).toHaveLength(1);
    expect(probed.map((c) => c.secret)).toEqual(['good', 'refreshed-1']);
    expect((await connection()).checkpointRequired).toBeUndefined();
  });

  it('dead authorization marks the account reauth_required and stops probing (reconnecting clears both)', async () => {
    const { world, deps, account, answers, post, connection, checkpointed, probe } = await probedWorld();
    await checkpointed();
    world.discord.setRefreshFails(true);
    answers.push(new PlatformError('discord', { kind: 'auth_expired', reason: 'app_removed' }, 'removed'));
    expect(await probe()).toBe('gone');
    expect(await connection()).toMatchObject({ status: 'reauth_required', checkpointRequired: true });
    await expect(submitUpload(deps, account, post())).rejects.toMatchObject({ kind: 'conflict', errorCode: 'reauth_required', details: { reauth_required: true } });
    await connectWithCredentials(deps, account, 'discord', { profile_username: 'alice', secret: 'good' });
    expect(await connection()).toMatchObject({ status: 'connected' });
    expect((await connection()).checkpointRequired).toBeUndefined();
  });

  it('is gone without asking the network when the account was reconnected or deleted meanwhile', async () => {
    const { deps, account, probed, checkpointed, probe } = await probedWorld();
    const flaggedConnection = await checkpointed();
    await connectWithCredentials(deps, account, 'discord', { profile_username: 'alice', secret: 'good' });
    expect(await probe()).toBe('gone');

    await checkpointed();
    await deleteProfile(deps, account, { username: 'alice' });
    expect(await probeCheckpoint(deps, { connectionId: flaggedConnection.id })).toBe('gone');
    expect(await probeCheckpoint(deps, { connectionId: 'conn_unknown' })).toBe('gone');
    expect(probed).toHaveLength(0);
  });

  it('a failure that is not the network\'s answer is thrown, for the workflow to retry', async () => {
    const { answers, connection, checkpointed, probe } = await probedWorld();
    await checkpointed();
    answers.push(new Error('socket hang up in the adapter'));
    await expect(probe()).rejects.toThrow('socket hang up');
    expect((await connection()).checkpointRequired).toBe(true);
  });

  it('a retried publish that finds the flag set (its first attempt could not start the probe) starts it', async () => {
    const idle: UploadRunner = { start: async () => {}, waitForCompletion: async () => false, reschedule: async () => {}, cancel: async () => {} };
    const starts: string[] = [];
    let temporalDown = true;
    const { world, deps, account, post, connection } = await probedWorld({
      runner: idle,
      flagged: async (c) => {
        if (temporalDown) throw new Error('Temporal unreachable');
        starts.push(c.id);
      },
    });
    const { upload } = await submitUpload(deps, account, post({ async: true }));
    world.discord.failNext({ kind: 'checkpoint' }, 'checkpoint required');
    const call = { accountId: account.id, requestId: upload.requestId, platform: 'discord' as const, round: 0, step: 0, timing: DEFAULT_UPLOAD_TIMING };
    await expect(publishTarget(deps, { ...call, attempt: 1 })).rejects.toThrow('Temporal unreachable');
    expect((await connection()).checkpointRequired).toBe(true);

    temporalDown = false;
    const retried = await publishTarget(deps, { ...call, attempt: 2 });
    expect(retried).toMatchObject({ kind: 'done', result: { success: false, error_code: 'account_reauth_required', failure_stage: 'precheck' } });
    expect(starts).toEqual([(await connection()).id]);
  });
});
