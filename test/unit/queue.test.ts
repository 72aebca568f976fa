import { upcomingSlots, validateQueueSettings } from '../../core/domain/queue';
import { connectWithCredentials } from '../../core/usecases/connect-with-credentials';
import { createProfile } from '../../core/usecases/profiles';
import { previewQueue, saveQueueSettings } from '../../core/usecases/queue';
import { cancelScheduledPost } from '../../core/usecases/scheduled-posts';
import { submitUpload, type UploadInput } from '../../core/usecases/submit-upload';
import { aWorld } from '../support/world';

describe('queue slots', () => {
  it('lists weekly slots in the queue time zone, soonest first, daylight saving included', () => {
    // 2026-03-27 is a Friday; Paris moves to summer time on Sunday 29 March.
    const slots = [...upcomingSlots({ timezone: 'Europe/Paris', slots: [{ day: 'fri', time: '09:00' }, { day: 'mon', time: '18:30' }] }, new Date('2026-03-27T07:30:00Z'), 10)];
    expect(slots.map((d) => d.toISOString())).toEqual([
      '2026-03-27T08:00:00.000Z', // Fri 09:00 CET
      '2026-03-30T16:30:00.000Z', // Mon 18:30 CEST
      '2026-04-03T07:00:00.000Z', // Fri 09:00 CEST
    ]);
  });

  it('names every bad setting', () => {
    expect(() => validateQueueSettings({ timezone: 'Nowhere/City', slots: [{ day: 'funday', time: '25:00' }], posts_per_slot: 0 }))
      .toThrow(/timezone.*slots\[0\]\.day.*slots\[0\]\.time.*posts_per_slot/);
  });
});

describe('add_to_queue', () => {
  async function queueWorld() {
    const world = aWorld();
    world.advance(Date.parse('2026-03-02T08:00:00Z') - world.deps.clock.now().getTime()); // a Monday
    const { account } = await world.operator();
    await createProfile(world.deps, account, { username: 'alice' });
    await connectWithCredentials(world.deps, account, 'discord', { profile_username: 'alice', secret: 'good' });
    await saveQueueSettings(world.deps, account, { profile_username: 'alice', timezone: 'UTC', slots: [{ day: 'mon', time: '10:00' }, { day: 'tue', time: '10:00' }], posts_per_slot: 2 });
    let n = 0;
    const post = (over: Partial<UploadInput> = {}): UploadInput => ({
      kind: 'text', profileUsername: 'alice', platforms: ['discord'], title: `queued ${(n += 1)}`, media: [], fields: {}, async: true, warnings: [], syncTimeoutMs: 100, queue: {}, ...over,
    });
    return { world, account, post };
  }

  it('fills slots in order, never beyond their capacity, even when requests race', async () => {
    const { world, account, post } = await queueWorld();
    const results = await Promise.all(Array.from({ length: 5 }, () => submitUpload(world.deps, account, post())));
    const slots = results.map((r) => r.upload.queueSlot!.toISOString()).sort();
    expect(slots).toEqual([
      '2026-03-02T10:00:00.000Z', '2026-03-02T10:00:00.000Z', '2026-03-03T10:00:00.000Z', '2026-03-03T10:00:00.000Z', '2026-03-09T10:00:00.000Z',
    ]);
    expect(results.every((r) => r.upload.status === 'scheduled' && r.upload.jobId)).toBe(true);
    const preview = await previewQueue(world.deps, account, 'alice', 2);
    expect(preview).toEqual([{ slot_at: '2026-03-09T10:00:00.000Z', used: 1, capacity: 2 }, { slot_at: '2026-03-10T10:00:00.000Z', used: 0, capacity: 2 }]);
  });

  it('honours max_posts_per_slot, and a cancelled post gives its place back', async () => {
    const { world, account, post } = await queueWorld();
    const first = await submitUpload(world.deps, account, post({ queue: { maxPostsPerSlot: 1 } }));
    const second = await submitUpload(world.deps, account, post({ queue: { maxPostsPerSlot: 1 } }));
    expect([first.upload.queueSlot?.toISOString(), second.upload.queueSlot?.toISOString()]).toEqual(['2026-03-02T10:00:00.000Z', '2026-03-03T10:00:00.000Z']);
    await cancelScheduledPost(world.deps, account, first.upload.jobId!);
    const third = await submitUpload(world.deps, account, post({ queue: { maxPostsPerSlot: 1 } }));
    expect(third.upload.queueSlot?.toISOString()).toBe('2026-03-02T10:00:00.000Z');
  });

  it('needs queue settings first', async () => {
    const { world, account, post } = await queueWorld();
    await createProfile(world.deps, account, { username: 'bob' });
    await connectWithCredentials(world.deps, account, 'discord', { profile_username: 'bob', secret: 'good' });
    await expect(submitUpload(world.deps, account, post({ profileUsername: 'bob' }))).rejects.toMatchObject({ kind: 'not_found', errorCode: 'QUEUE_NOT_CONFIGURED' });
  });
});
