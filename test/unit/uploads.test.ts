import { createProfile } from '../../core/usecases/profiles';
import { connectWithCredentials } from '../../core/usecases/connect-with-credentials';
import { admitUpload, submitUpload as submitTextUpload, type UploadInput } from '../../core/usecases/submit-upload';
import { getUploadStatus, listUploadHistory } from '../../core/usecases/read-uploads';
import { publishOnlyTarget, publishTarget } from '../../core/usecases/run-upload';
import { DEFAULT_UPLOAD_TIMING } from '../../core/ports/upload-runner';
import type { DispatchClaims } from '../../core/ports/dispatch-claims';
import { aWorld } from '../support/world';
import { openCredentials } from '../../core/usecases/connection-session';

async function connectedWorld() {
  const world = aWorld();
  const { account } = await world.operator();
  await createProfile(world.deps, account, { username: 'alice' });
  await connectWithCredentials(world.deps, account, 'discord', { profile_username: 'alice', secret: 'good' });
  await connectWithCredentials(world.deps, account, 'telegram', { profile_username: 'alice', secret: 'good' });
  return { world, account };
}

const post = (overrides: Partial<UploadInput> = {}): UploadInput => ({
  kind: 'text',
  profileUsername: 'alice',
  platforms: ['discord', 'telegram'],
  title: 'Hello both',
  media: [],
  fields: {},
  async: false,
  warnings: [],
  // Far longer than an in-memory publish takes, however loaded the machine: sync results are final.
  syncTimeoutMs: 60_000,
  ...overrides,
});

describe('text uploads', () => {
  it('publishes synchronously to every platform and reports per-platform results', async () => {
    const { world, account } = await connectedWorld();
    const { upload, finished } = await submitTextUpload(world.deps, account, post({ fields: { telegram_title: 'Hello telegram' } }));
    expect(finished).toBe(true);
    expect(upload.status).toBe('completed');
    expect(world.discord.posts.map((p) => p.text)).toEqual(['Hello both']);
    expect(world.telegram.posts.map((p) => p.text)).toEqual(['Hello telegram']);
    const status = await getUploadStatus(world.deps.storage, account, { requestId: upload.requestId });
    expect(status).toMatchObject({
      status: 'completed', all_succeeded: true, summary: { total: 2, succeeded: 2, failed: 0, pending: 0 },
      results: { discord: { success: true, post_id: 'discord-post-1' }, telegram: { success: true, post_id: 'telegram-post-1' } },
    });
    expect(world.notifier.events.map((e) => [e.event, e.platform, e.event === 'upload_completed' && e.result.success])).toEqual(
      expect.arrayContaining([['upload_completed', 'discord', true], ['upload_completed', 'telegram', true]]));
  });

  it('answers asynchronous uploads at once, queryable as pending', async () => {
    const { world, account } = await connectedWorld();
    const release = world.discord.hold();
    const { upload, finished } = await submitTextUpload(world.deps, account, post({ async: true, requestId: 'r-async' }));
    expect(finished).toBe(false);
    expect((await getUploadStatus(world.deps.storage, account, { requestId: 'r-async' })).status).not.toBe('completed');
    release();
    await world.runner.settled();
    expect((await getUploadStatus(world.deps.storage, account, { requestId: upload.requestId })).status).toBe('completed');
  });

  it('switches a slow synchronous upload to asynchronous and keeps going', async () => {
    const { world, account } = await connectedWorld();
    const release = world.discord.hold();
    const { finished, upload } = await submitTextUpload(world.deps, account, post({ syncTimeoutMs: 20 }));
    expect(finished).toBe(false);
    expect((await getUploadStatus(world.deps.storage, account, { requestId: upload.requestId })).status).not.toBe('completed');
    release();
    await world.runner.settled();
    expect((await getUploadStatus(world.deps.storage, account, { requestId: upload.requestId })).status).toBe('completed');
  });

  it('returns the existing request for a repeated request id and publishes once', async () => {
    const { world, account } = await connectedWorld();
    const first = await submitTextUpload(world.deps, account, post({ requestId: 'same' }));
    const again = await submitTextUpload(world.deps, account, post({ requestId: 'same', title: 'different' }));
    expect(again.duplicate).toBe(true);
    expect(again.upload.requestId).toBe(first.upload.requestId);
    expect(world.discord.posts).toHaveLength(1);
  });

  it('admits a request once: one request-id lookup, one quota count, one profile read', async () => {
    const world = aWorld();
    const { account } = await world.operator('free');
    await createProfile(world.deps, account, { username: 'alice' });
    await connectWithCredentials(world.deps, account, 'discord', { profile_username: 'alice', secret: 'good' });
    // Only the intake's reads are counted: the workflow (which reads the upload) is not started.
    const deps = { ...world.deps, runner: { ...world.deps.runner, start: async () => {} } };
    const { uploads, profiles } = world.deps.storage;
    const calls = [jest.spyOn(uploads, 'find'), jest.spyOn(uploads, 'countSince'), jest.spyOn(profiles, 'find')];
    const input = post({ platforms: ['discord'], requestId: 'r-once', async: true });
    // As the API does: admission before the media is taken, then the submit with its result.
    const admission = await admitUpload(deps, account, input);
    await submitTextUpload(deps, account, input, admission);
    expect(calls.map((c) => c.mock.calls.length)).toEqual([1, 1, 1]);
    // A repeat is answered from admission alone.
    calls.forEach((c) => c.mockClear());
    const again = await admitUpload(deps, account, input);
    expect(again.existing?.requestId).toBe('r-once');
    expect(await submitTextUpload(deps, account, input, again)).toMatchObject({ duplicate: true });
    expect(calls.map((c) => c.mock.calls.length)).toEqual([1, 0, 0]);
  });

  it('rejects reddit with 503 reddit_unavailable', async () => {
    const { world, account } = await connectedWorld();
    await expect(submitTextUpload(world.deps, account, post({ platforms: ['discord', 'reddit'] })))
      .rejects.toMatchObject({ kind: 'unavailable', errorCode: 'reddit_unavailable' });
    expect(world.discord.posts).toHaveLength(0);
  });

  it('names every platform that is not connected, is too long or has no text, and sends nothing', async () => {
    const world = aWorld();
    const { account } = await world.operator();
    await createProfile(world.deps, account, { username: 'alice' });
    await connectWithCredentials(world.deps, account, 'discord', { profile_username: 'alice', secret: 'good' });
    const err = await submitTextUpload(world.deps, account, post({ title: 'x'.repeat(2001) })).catch((e) => e);
    expect(err).toMatchObject({ kind: 'invalid_input' });
    expect(err.details.violations).toEqual([
      expect.objectContaining({ platform: 'discord', type: 'text_too_long', limit: 2000, length: 2001 }),
      expect.objectContaining({ platform: 'telegram', type: 'not_connected' }),
    ]);
    await expect(submitTextUpload(world.deps, account, post({ platforms: ['discord'], title: ' ' })))
      .rejects.toMatchObject({ details: { violations: [expect.objectContaining({ type: 'empty_text' })] } });
    expect(world.discord.posts).toHaveLength(0);
  });

  it('refuses platforms without a text publisher with platform_not_supported', async () => {
    const { world, account } = await connectedWorld();
    await expect(submitTextUpload(world.deps, account, post({ platforms: ['x'] })))
      .rejects.toMatchObject({ kind: 'invalid_input', errorCode: 'platform_not_supported' });
  });

  it('404s for an unknown profile', async () => {
    const { world, account } = await connectedWorld();
    await expect(submitTextUpload(world.deps, account, post({ profileUsername: 'bob' })))
      .rejects.toMatchObject({ kind: 'not_found', errorCode: 'PROFILE_NOT_FOUND' });
  });

  it('one failing platform never blocks the other', async () => {
    const { world, account } = await connectedWorld();
    world.telegram.failNext({ kind: 'invalid_content' }, 'Bad Request: message is too long');
    const { upload } = await submitTextUpload(world.deps, account, post());
    const view = await getUploadStatus(world.deps.storage, account, { requestId: upload.requestId });
    expect(view).toMatchObject({
      all_succeeded: false,
      results: {
        discord: { success: true },
        telegram: { success: false, error: 'Bad Request: message is too long', error_code: 'invalid_content' },
      },
    });
  });

  it('carries the spec fields a network attaches to a refusal into the result (available_pages)', async () => {
    const { world, account } = await connectedWorld();
    const pages = [{ page_id: '1', page_name: 'North' }, { page_id: '2', page_name: 'South' }];
    world.discord.failNext({ kind: 'rejected', code: 'facebook_page_required' }, 'choose a page', { available_pages: pages });
    const { upload } = await submitTextUpload(world.deps, account, post({ platforms: ['discord'] }));
    expect(upload.results.discord).toMatchObject({ success: false, error_code: 'facebook_page_required', available_pages: pages });
  });

  it('marks the account reauth_required when the network says the credentials are gone', async () => {
    const { world, account } = await connectedWorld();
    world.discord.failNext({ kind: 'auth_expired', reason: 'webhook_deleted' }, 'Unknown Webhook');
    world.discord.setRefreshFails(true);
    await submitTextUpload(world.deps, account, post({ platforms: ['discord'] }));
    const conn = await world.deps.storage.connectedAccounts.find(account.id, 'alice', 'discord');
    expect(conn?.status).toBe('reauth_required');
    // The next post is refused at precheck (409, reauth_required) without calling the network.
    await expect(submitTextUpload(world.deps, account, post({ platforms: ['discord'] })))
      .rejects.toMatchObject({ kind: 'conflict', errorCode: 'reauth_required', details: { reauth_required: true, failure_stage: 'precheck' } });
    // With another platform it goes out there, and the expired one is reported in its result.
    const { upload } = await submitTextUpload(world.deps, account, post());
    expect(upload.results.discord).toMatchObject({ success: false, error_code: 'reauth_required', reauth_required: true });
    expect(upload.results.telegram).toMatchObject({ success: true });
    expect(world.discord.posts).toHaveLength(0);
  });

  it('lists history newest first with filters', async () => {
    const { world, account } = await connectedWorld();
    await submitTextUpload(world.deps, account, post({ requestId: 'one', platforms: ['discord'], externalId: 'ext-1' }));
    world.advance(1000);
    await submitTextUpload(world.deps, account, post({ requestId: 'two', platforms: ['telegram'] }));
    const all = await listUploadHistory(world.deps.storage, account, { page: 1, limit: 10 });
    expect(all.history.map((h) => h.request_id)).toEqual(['two', 'one']);
    expect(all).toMatchObject({ total: 2, has_more: false });
    const onlyTelegram = await listUploadHistory(world.deps.storage, account, { page: 1, limit: 10, platform: 'telegram' });
    expect(onlyTelegram.history.map((h) => h.request_id)).toEqual(['two']);
    const byExternal = await listUploadHistory(world.deps.storage, account, { page: 1, limit: 10, externalId: 'ext-1' });
    expect(byExternal.history.map((h) => h.external_id)).toEqual(['ext-1']);
    const paged = await listUploadHistory(world.deps.storage, account, { page: 1, limit: 1 });
    expect(paged).toMatchObject({ total: 2, has_more: true });
  });
});

describe('publishing one target', () => {
  async function pendingUpload() {
    const { world, account } = await connectedWorld();
    // Stored but not run: a runner that does nothing.
    const deps = { ...world.deps, runner: { start: async () => undefined, waitForCompletion: async () => false, reschedule: async () => undefined, cancel: async () => undefined } };
    const { upload } = await submitTextUpload(deps, account, post({ async: true, requestId: 'manual' }));
    const input = { accountId: account.id, requestId: upload.requestId, timing: DEFAULT_UPLOAD_TIMING, step: 0 };
    return { world, account, input };
  }

  it('asks the workflow to come back later on a rate limit, with the network delay', async () => {
    const { world, input } = await pendingUpload();
    world.discord.failNext({ kind: 'rate_limited', retryAfterMs: 1500 });
    const outcome = await publishTarget(world.deps, { ...input, platform: 'discord', round: 0, attempt: 1 });
    expect(outcome).toEqual({ kind: 'retry', afterMs: 1500, reason: 'rate_limited from discord' });
    const next = await publishTarget(world.deps, { ...input, platform: 'discord', round: 1, attempt: 1 });
    expect(next).toMatchObject({ kind: 'done', result: { success: true } });
    expect(world.discord.posts).toHaveLength(1);
  });

  it('runs a single-target upload in one step: begin, the call, finish', async () => {
    const { world, input, account } = await pendingUpload();
    const ran = await publishOnlyTarget(world.deps, { ...input, platform: 'discord', round: 0, attempt: 1 });
    expect(ran).toMatchObject({ begun: true, outcome: { kind: 'done', result: { success: true } } });
    expect((await world.deps.storage.uploads.find(account.id, input.requestId))?.status).toBe('completed');
    expect(world.discord.posts).toHaveLength(1);
  });

  it('leaves the upload in progress when its single call must come back later', async () => {
    const { world, input, account } = await pendingUpload();
    world.discord.failNext({ kind: 'rate_limited', retryAfterMs: 1500 });
    const ran = await publishOnlyTarget(world.deps, { ...input, platform: 'discord', round: 0, attempt: 1 });
    expect(ran).toMatchObject({ begun: true, outcome: { kind: 'retry', afterMs: 1500 } });
    expect((await world.deps.storage.uploads.find(account.id, input.requestId))?.status).toBe('in_progress');
  });

  it('does not call the network for an upload that must not run', async () => {
    const { world, input, account } = await pendingUpload();
    await world.deps.storage.uploads.markCompleted(account.id, input.requestId, new Date());
    const ran = await publishOnlyTarget(world.deps, { ...input, platform: 'discord', round: 0, attempt: 1 });
    expect(ran).toEqual({ begun: false });
    expect(world.discord.posts).toHaveLength(0);
  });

  it('gives up after the configured rounds', async () => {
    const { world, input } = await pendingUpload();
    world.discord.failNext({ kind: 'transient' }, 'HTTP 502');
    const outcome = await publishTarget(world.deps, { ...input, timing: { ...input.timing, maxPlatformRetries: 0 }, platform: 'discord', round: 0, attempt: 1 });
    expect(outcome).toMatchObject({ kind: 'done', result: { success: false, error_code: 'platform_unavailable', error: 'HTTP 502' } });
  });

  it('returns the stored result when run again: a finished target is never published twice', async () => {
    const { world, input } = await pendingUpload();
    const first = await publishTarget(world.deps, { ...input, platform: 'discord', round: 0, attempt: 1 });
    const again = await publishTarget(world.deps, { ...input, platform: 'discord', round: 0, attempt: 2 });
    expect(again).toEqual(first);
    expect(world.discord.posts).toHaveLength(1);
    expect(world.notifier.events.filter((e) => e.platform === 'discord' && e.event === 'upload_completed')).toHaveLength(1);
  });

  it('asks the workflow to wait while the network processes, then resumes with the state', async () => {
    const { world, input } = await pendingUpload();
    world.discord.setProcessingSteps(2);
    const first = await publishTarget(world.deps, { ...input, platform: 'discord', round: 0, attempt: 1 });
    expect(first).toEqual({ kind: 'wait', afterMs: 10, state: { left: 2 } });
    const second = await publishTarget(world.deps, { ...input, platform: 'discord', round: 0, step: 1, resume: { left: 2 }, attempt: 1 });
    expect(second).toEqual({ kind: 'wait', afterMs: 10, state: { left: 1 } });
    const last = await publishTarget(world.deps, { ...input, platform: 'discord', round: 0, step: 2, resume: { left: 1 }, attempt: 1 });
    expect(last).toMatchObject({ kind: 'done', result: { success: true, post_id: 'discord-post-1', warnings: [] } });
  });

  it('warns when an earlier attempt of the same round was interrupted mid-call', async () => {
    const { world, account, input } = await pendingUpload();
    await world.deps.storage.uploads.recordDispatch(account.id, input.requestId, 'discord', 1, world.deps.clock.now());
    const outcome = await publishTarget(world.deps, { ...input, platform: 'discord', round: 0, attempt: 2 });
    expect(outcome).toMatchObject({ kind: 'done', result: { success: true, warnings: [expect.stringContaining('interrupted')] } });
  });

  it('lets one execution of a call talk to the network; a second one at the same time is told to come back (busy)', async () => {
    const { world, input } = await pendingUpload();
    const release = world.discord.hold();
    const call = { ...input, platform: 'discord' as const, round: 0, attempt: 1, busyAware: true };
    const first = publishTarget(world.deps, call);
    while (world.discord.calls === 0) await new Promise((r) => setTimeout(r, 5));
    // A timed-out workflow task, or a worker starved past its heartbeat timeout, runs it again meanwhile.
    expect(await publishTarget(world.deps, call)).toEqual({ kind: 'busy', afterMs: expect.any(Number) });
    await expect(publishTarget(world.deps, { ...call, busyAware: false })).rejects.toThrow('still running');
    release();
    expect(await first).toMatchObject({ kind: 'done', result: { success: true, warnings: [] } });
    // Asked again later, the same call finds the stored result and publishes nothing more.
    expect(await publishTarget(world.deps, call)).toMatchObject({ kind: 'done', result: { success: true, post_id: 'discord-post-1' } });
    expect(world.discord.posts).toHaveLength(1);
  });

  it('warns when it takes over a call whose earlier execution died mid-call', async () => {
    const { world, input } = await pendingUpload();
    const takenOver: DispatchClaims = { claim: async () => ({ kind: 'taken_over', stop: () => undefined }) };
    const outcome = await publishTarget({ ...world.deps, claims: takenOver }, { ...input, platform: 'discord', round: 0, attempt: 2 });
    expect(outcome).toMatchObject({ kind: 'done', result: { success: true, warnings: [expect.stringContaining('interrupted')] } });
    expect(world.discord.posts).toHaveLength(1);
  });

  it('reports, without publishing, a result the earlier execution stored between this one\'s read and its takeover', async () => {
    const { world, account, input } = await pendingUpload();
    const now = world.deps.clock.now();
    const earlier = { platform: 'discord' as const, success: true, post_id: 'discord-earlier', warnings: [], finished_at: now.toISOString() };
    const finishedMeanwhile: DispatchClaims = {
      claim: async () => {
        await world.deps.storage.uploads.recordResult(account.id, input.requestId, earlier, now);
        return { kind: 'taken_over', stop: () => undefined };
      },
    };
    const outcome = await publishTarget({ ...world.deps, claims: finishedMeanwhile }, { ...input, platform: 'discord', round: 0, attempt: 2 });
    expect(outcome).toMatchObject({ kind: 'done', result: { post_id: 'discord-earlier' } });
    expect(world.discord.posts).toHaveLength(0);
  });

  it('does not warn on the first call, on a later round, nor on the first call of a retried upload', async () => {
    const { world, account, input } = await pendingUpload();
    const now = world.deps.clock.now();
    const first = await publishTarget(world.deps, { ...input, platform: 'discord', round: 0, attempt: 1 });
    expect(first).toMatchObject({ kind: 'done', result: { success: true, warnings: [] } });
    // The retried upload is a new generation: the old run's marker of round 0, attempt 1 is not an interruption.
    await world.deps.storage.uploads.recordDispatch(account.id, input.requestId, 'discord', 1, now);
    await world.deps.storage.uploads.markCompleted(account.id, input.requestId, now);
    expect(await world.deps.storage.uploads.resetForRetry(account.id, input.requestId, ['discord'], now)).toBe(1);
    const retried = await publishTarget(world.deps, { ...input, platform: 'discord', round: 0, attempt: 2 });
    expect(retried).toMatchObject({ kind: 'done', result: { success: true, warnings: [] } });

    const other = await pendingUpload();
    await other.world.deps.storage.uploads.recordDispatch(other.account.id, other.input.requestId, 'discord', 1, now);
    const later = await publishTarget(other.world.deps, { ...other.input, platform: 'discord', round: 1, attempt: 1 });
    expect(later).toMatchObject({ kind: 'done', result: { success: true, warnings: [] } });
  });
});

describe('tokens and first comments', () => {
  async function connected(credentialExtras: Record<string, string> = {}) {
    const world = aWorld();
    const { account } = await world.operator();
    await createProfile(world.deps, account, { username: 'alice' });
    await connectWithCredentials(world.deps, account, 'discord', { profile_username: 'alice', secret: 'good', ...credentialExtras });
    const stored = async () => {
      const conn = await world.deps.storage.connectedAccounts.find(account.id, 'alice', 'discord');
      return { conn, credentials: openCredentials(world.deps, conn!) };
    };
    return { world, account, stored };
  }

  it('refreshes a token that expires within five minutes before publishing, and stores the new one', async () => {
    const { world, account, stored } = await connected({ expires_at: '2026-01-01T00:03:00.000Z' });
    await submitTextUpload(world.deps, account, post({ platforms: ['discord'] }));
    expect(world.discord.refreshes).toHaveLength(1);
    expect(world.discord.posts[0].credentials.secret).toBe('refreshed-1');
    expect((await stored()).credentials).toMatchObject({ secret: 'refreshed-1', expires_at: '2099-01-01T00:00:00.000Z' });
  });

  it('leaves a token that is still valid alone', async () => {
    const { world, account } = await connected({ expires_at: '2026-01-01T02:00:00.000Z' });
    await submitTextUpload(world.deps, account, post({ platforms: ['discord'] }));
    expect(world.discord.refreshes).toHaveLength(0);
    expect(world.discord.posts[0].credentials.secret).toBe('good');
  });

  it('refreshes once when the network says the token expired, then publishes', async () => {
    const { world, account } = await connected();
    world.discord.failNext({ kind: 'auth_expired', reason: 'token_expired' });
    const { upload } = await submitTextUpload(world.deps, account, post({ platforms: ['discord'] }));
    expect(upload.results.discord).toMatchObject({ success: true });
    expect(world.discord.refreshes).toHaveLength(1);
    expect(world.discord.posts).toHaveLength(1);
  });

  it('marks the account reauth_required when the refresh is refused', async () => {
    const { world, account, stored } = await connected();
    world.discord.failNext({ kind: 'auth_expired', reason: 'token_expired' });
    world.discord.setRefreshFails(true);
    const { upload } = await submitTextUpload(world.deps, account, post({ platforms: ['discord'] }));
    expect(upload.results.discord).toMatchObject({ success: false, error_code: 'reauth_required' });
    expect((await stored()).conn?.status).toBe('reauth_required');
  });

  it('posts the first comment under the post, and turns a failing one into a warning', async () => {
    const { world, account } = await connected();
    const ok = await submitTextUpload(world.deps, account, post({ platforms: ['discord'], fields: { discord_first_comment: 'first!' } }));
    expect(ok.upload.results.discord).toMatchObject({ success: true, first_comment_posted: true, warnings: [] });
    expect(world.discord.comments).toEqual([{ postId: 'discord-post-1', text: 'first!' }]);
    const failed = await submitTextUpload(world.deps, account, post({ platforms: ['discord'], fields: { discord_first_comment: 'fail' } }));
    expect(failed.upload.results.discord).toMatchObject({
      success: true, first_comment_posted: false, warnings: ['The first comment was not posted: comments are closed'],
    });
  });
});

describe('duplicate protection', () => {
  it('returns the existing request for an identical upload within the window, and publishes once', async () => {
    const { world, account } = await connectedWorld();
    const deps = { ...world.deps, duplicateWindowMs: 60_000 };
    const first = await submitTextUpload(deps, account, post({ platforms: ['discord'] }));
    world.advance(30_000);
    const twin = await submitTextUpload(deps, account, post({ platforms: ['discord'] }));
    expect(twin).toMatchObject({ duplicate: true, upload: { requestId: first.upload.requestId } });
    // Different text, or the same text after the window, is a new upload.
    expect((await submitTextUpload(deps, account, post({ platforms: ['discord'], title: 'other' }))).duplicate).toBe(false);
    world.advance(31_000);
    expect((await submitTextUpload(deps, account, post({ platforms: ['discord'] }))).duplicate).toBe(false);
    expect(world.discord.posts.map((p) => p.text)).toEqual(['Hello both', 'other', 'Hello both']);
  });

  it('is not held by a cancelled post, nor by a request refused after it claimed the content', async () => {
    const { world, account } = await connectedWorld();
    const deps = { ...world.deps, duplicateWindowMs: 60_000 };
    const { cancelScheduledPost } = await import('../../core/usecases/scheduled-posts');
    const at = { at: new Date(world.deps.clock.now().getTime() + 3600_000), timezone: 'UTC' };
    const scheduled = await submitTextUpload(deps, account, post({ platforms: ['discord'], schedule: at }));
    expect((await submitTextUpload(deps, account, post({ platforms: ['discord'], schedule: at }))).upload.requestId).toBe(scheduled.upload.requestId);
    await cancelScheduledPost(deps, account, scheduled.upload.jobId!);
    const again = await submitTextUpload(deps, account, post({ platforms: ['discord'], schedule: at }));
    expect(again.duplicate).toBe(false);
    expect(again.upload.requestId).not.toBe(scheduled.upload.requestId);

    // The insert fails after the claim: the claim is given up, so the same post is not answered with a request that never existed.
    const insert = world.deps.storage.uploads.insert;
    world.deps.storage.uploads.insert = async () => { throw new Error('database down'); };
    await expect(submitTextUpload(deps, account, post({ platforms: ['discord'], title: 'flaky' }))).rejects.toThrow('database down');
    world.deps.storage.uploads.insert = insert;
    const retried = await submitTextUpload(deps, account, post({ platforms: ['discord'], title: 'flaky' }));
    expect(retried.duplicate).toBe(false);
    expect(retried.upload.status).toBe('completed');
  });
});

describe('retrying failed platforms', () => {
  it('sends only the failed platforms again, with the original post, and keeps the others', async () => {
    const { world, account } = await connectedWorld();
    const { retryFailedPlatforms } = await import('../../core/usecases/retry-upload');
    world.telegram.failNext({ kind: 'rejected' }, 'Bad Request: chat not found');
    const { upload } = await submitTextUpload(world.deps, account, post({ requestId: 'to-retry' }));
    expect(upload.results).toMatchObject({ discord: { success: true }, telegram: { success: false } });
    const { retried } = await retryFailedPlatforms(world.deps, account, { requestId: 'to-retry' });
    expect(retried).toEqual(['telegram']);
    await world.runner.settled();
    const after = await world.deps.storage.uploads.find(account.id, 'to-retry');
    expect(after).toMatchObject({ status: 'completed', retryCount: 1, results: { discord: { success: true }, telegram: { success: true } } });
    expect(world.discord.posts).toHaveLength(1);
    expect(world.telegram.posts.map((p) => p.text)).toEqual(['Hello both']);
    await expect(retryFailedPlatforms(world.deps, account, { requestId: 'to-retry' })).rejects.toMatchObject({ errorCode: 'nothing_to_retry' });
    await expect(retryFailedPlatforms(world.deps, account, { requestId: 'nope' })).rejects.toMatchObject({ kind: 'not_found' });
  });
});
