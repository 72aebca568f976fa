import { createPlatformRegistry } from '../../adapters/platforms/registry';
import { connectWithCredentials } from '../../core/usecases/connect-with-credentials';
import { createProfile } from '../../core/usecases/profiles';
import { submitUpload, type UploadInput } from '../../core/usecases/submit-upload';
import { postponeIfCapped } from '../../core/usecases/caps';
import { saveQueueSettings } from '../../core/usecases/queue';
import { editScheduledPost } from '../../core/usecases/scheduled-posts';
import { fakeTextPlatform } from '../support/fake-platform';
import { aWorld } from '../support/world';

async function limitsWorld(plan: string) {
  const world = aWorld();
  const x = fakeTextPlatform('x');
  const tiktok = fakeTextPlatform('tiktok', { endpoints: ['text', 'video', 'photo'] });
  const deps = { ...world.deps, platforms: createPlatformRegistry([x.adapter, tiktok.adapter, world.discord.adapter]) };
  const { account } = await world.operator(plan);
  await createProfile(deps, account, { username: 'alice' });
  for (const p of ['x', 'discord'] as const) await connectWithCredentials(deps, account, p, { profile_username: 'alice', secret: 'good' });
  const post = (over: Partial<UploadInput> = {}): UploadInput => ({
    kind: 'text', profileUsername: 'alice', platforms: ['discord'], title: 'hi', media: [], fields: {}, async: true, warnings: [], syncTimeoutMs: 100, ...over,
  });
  return { world, deps, account, post };
}

/** What submitUpload resolves to when it accepts a new upload (not an earlier request answered again). */
const accepted = (status: 'pending' | 'scheduled', platforms: string[]) => ({
  duplicate: false,
  upload: { requestId: expect.stringMatching(/^req_[\w-]+$/), status, targets: platforms.map((platform) => expect.objectContaining({ platform })) },
});

describe('plan limits and caps', () => {
  it('stops the free plan at 10 uploads a month with 429 and the usage', async () => {
    const { deps, account, post, world } = await limitsWorld('free');
    for (let i = 0; i < 10; i += 1) await submitUpload(deps, account, post());
    await expect(submitUpload(deps, account, post())).rejects.toMatchObject({
      kind: 'too_many_requests', errorCode: 'monthly_quota_exceeded', details: { usage: { used: 10, limit: 10, plan: 'free' } },
    });
    // A new month starts a new count.
    world.advance(32 * 24 * 3600_000);
    await expect(submitUpload(deps, account, post())).resolves.toMatchObject(accepted('pending', ['discord']));
  });

  it('does not count or refuse an edit of a scheduled post against the monthly quota', async () => {
    const { deps, account, post, world } = await limitsWorld('free');
    const inAnHour = new Date(world.deps.clock.now().getTime() + 3600_000);
    const scheduled = await submitUpload(deps, account, post({ title: 'later', schedule: { at: inAnHour, timezone: 'UTC' } }));
    for (let i = 1; i < 10; i += 1) await submitUpload(deps, account, post({ title: `now ${i}` }));
    const edited = await editScheduledPost(deps, account, scheduled.upload.jobId!, { title: 'later, edited', scheduled_date: new Date(inAnHour.getTime() + 3600_000).toISOString() });
    expect(edited).toMatchObject({ job_id: scheduled.upload.jobId, status: 'scheduled', scheduled_date: new Date(inAnHour.getTime() + 3600_000).toISOString() });
    // The edit took no upload of the month: the 11th new upload is still the one refused.
    await expect(submitUpload(deps, account, post({ title: 'one more' }))).rejects.toMatchObject({
      kind: 'too_many_requests', errorCode: 'monthly_quota_exceeded', details: { usage: { used: 10, limit: 10, plan: 'free' } },
    });
  });

  it('refuses TikTok on the free plan with 403', async () => {
    const { deps, account, post } = await limitsWorld('free');
    await expect(submitUpload(deps, account, post({ platforms: ['tiktok'] }))).rejects.toMatchObject({ kind: 'forbidden', errorCode: 'tiktok_not_in_plan' });
  });

  it('caps one connected account at its daily cap over a rolling 24 hours, with the spec body', async () => {
    const { deps, account, post, world } = await limitsWorld('business');
    for (let i = 0; i < 50; i += 1) {
      await submitUpload(deps, account, post({ platforms: ['x'] }));
      world.advance(60_000);
    }
    const err = await submitUpload(deps, account, post({ platforms: ['x', 'discord'] })).catch((e) => e);
    expect(err).toMatchObject({ kind: 'too_many_requests', errorCode: 'daily_cap_reached', details: { violations: [{ platform: 'x', type: 'hard_cap', used_last_24h: 50, cap: 50 }] } });
    // Discord has no cap; once the oldest posts leave the 24-hour window, x takes posts again.
    await expect(submitUpload(deps, account, post({ platforms: ['discord'] }))).resolves.toMatchObject(accepted('pending', ['discord']));
    world.advance(24 * 3600_000 - 49 * 60_000);
    await expect(submitUpload(deps, account, post({ platforms: ['x'] }))).resolves.toMatchObject(accepted('pending', ['x']));
  });

  it('does not refuse a scheduled post at intake for a cap; when it is due and the cap is reached it moves to the next day with a warning', async () => {
    const { deps, account, post, world } = await limitsWorld('business');
    const inAnHour = new Date(world.deps.clock.now().getTime() + 3600_000);
    const scheduled = await submitUpload(deps, account, post({ platforms: ['x', 'discord'], title: 'later', schedule: { at: inAnHour, timezone: 'UTC' } }));
    for (let i = 0; i < 50; i += 1) await submitUpload(deps, account, post({ platforms: ['x'], title: `now ${i}` }));
    // Intake of another scheduled post is not refused: the caps are met when it runs.
    await expect(submitUpload(deps, account, post({ platforms: ['x'], title: 'later too', schedule: { at: inAnHour, timezone: 'UTC' } }))).resolves.toMatchObject(accepted('scheduled', ['x']));

    world.advance(3600_000);
    const ids = { accountId: account.id, requestId: scheduled.upload.requestId };
    const moved = await postponeIfCapped(deps, ids);
    const nextDay = new Date(inAnHour.getTime() + 24 * 3600_000);
    expect(moved).toEqual({ postponedTo: nextDay.toISOString() });
    const stored = (await deps.storage.uploads.find(account.id, scheduled.upload.requestId))!;
    expect(stored).toMatchObject({ status: 'scheduled', scheduledFor: nextDay });
    // 50 immediate posts and the other post due at the same time: one of the two moves, not both.
    expect(stored.warnings.join(' ')).toContain('the x account had 51 posts in the last 24 hours when this post was due (daily cap 50)');

    // The next day the 50 posts have left the window: it may run (and the other moved post does not count yet).
    world.advance(24 * 3600_000);
    expect(await postponeIfCapped(deps, ids)).toBeNull();
    expect((await deps.storage.uploads.find(account.id, scheduled.upload.requestId))!.scheduledFor).toEqual(nextDay);
  });

  it('moves a queued post that meets a cap and gives its slot place back', async () => {
    const { deps, account, post, world } = await limitsWorld('business');
    const now = world.deps.clock.now();
    const everyDay = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => ({ day, time: '12:00' }));
    await saveQueueSettings(deps, account, { profile_username: 'alice', timezone: 'UTC', slots: everyDay, posts_per_slot: 1 });
    const queued = await submitUpload(deps, account, post({ platforms: ['x'], queue: {} }));
    const slot = queued.upload.queueSlot!;
    expect(slot.getTime()).toBeGreaterThan(now.getTime());
    for (let i = 0; i < 50; i += 1) await submitUpload(deps, account, post({ platforms: ['x'], title: `now ${i}` }));
    world.advance(slot.getTime() - now.getTime());
    expect(await deps.storage.queues.countInSlot(account.id, 'alice', slot)).toBe(1);
    expect(await postponeIfCapped(deps, { accountId: account.id, requestId: queued.upload.requestId })).not.toBeNull();
    expect((await deps.storage.uploads.find(account.id, queued.upload.requestId))!.queueSlot).toBeUndefined();
    expect(await deps.storage.queues.countInSlot(account.id, 'alice', slot)).toBe(0);
  });
});
