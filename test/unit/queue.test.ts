import { upcomingSlots, validateQueueSettings } from '../../core/domain/queue';
import { connectWithCredentials } from '../../core/usecases/connect-with-credentials';
import { createProfile } from '../../core/usecases/profiles';
import { getQueueSettings, nextQueueSlot, previewQueue, saveQueueSettings } from '../../core/usecases/queue';
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

describe('queue settings in both layouts', () => {
  const flat = (over: Record<string, unknown> = {}) => ({ timezone: 'Europe/Paris', slots: [{ hour: 9 }, { hour: 17, minute: 30 }], days_of_week: [0, 2], max_posts_per_slot: 2, ...over });

  it('reads the flat layout: each slot time on each listed day (0 = Monday), minute 0 when left out', () => {
    expect(validateQueueSettings(flat())).toEqual({
      timezone: 'Europe/Paris', postsPerSlot: 2,
      slots: [{ day: 'mon', time: '09:00' }, { day: 'mon', time: '17:30' }, { day: 'wed', time: '09:00' }, { day: 'wed', time: '17:30' }],
    });
    // Without days_of_week the times apply every day.
    const everyDay = validateQueueSettings(flat({ days_of_week: undefined, slots: [{ hour: 8, minute: 5 }] }));
    expect(everyDay.slots.map((s) => `${s.day} ${s.time}`)).toEqual(['mon 08:05', 'tue 08:05', 'wed 08:05', 'thu 08:05', 'fri 08:05', 'sat 08:05', 'sun 08:05']);
    expect(everyDay.postsPerSlot).toBe(2);
  });

  it('names the field of a mixed or ambiguous body', () => {
    const fields = (input: Record<string, unknown>) => {
      try {
        validateQueueSettings(input);
      } catch (err) {
        return ((err as { details: { violations: Array<{ field: string }> } }).details.violations).map((v) => v.field);
      }
      return [];
    };
    expect(fields({ slots: [{ day: 'mon', time: '09:00' }, { hour: 10 }] })).toEqual(['slots[1].day']);
    expect(fields({ slots: [{ day: 'mon', time: '09:00', hour: 10, minute: 0 }] })).toEqual(['slots[0].hour']);
    expect(fields({ slots: [{ time: '09:00', minute: 15 }], days_of_week: [1] })).toEqual(['slots[0].minute']);
    expect(fields({ slots: [{ day: 'mon', time: '09:00' }], posts_per_slot: 2, max_posts_per_slot: 3 })).toEqual(['max_posts_per_slot']);
    expect(fields({ slots: [{ day: 'mon', time: '09:00' }], days_of_week: [0, 1] })).toEqual(['days_of_week']);
    expect(fields({ slots: [{ hour: 9 }], days_of_week: [7] })).toEqual(['days_of_week']);
    expect(fields({ slots: [{ hour: 9 }], days_of_week: [] })).toEqual(['days_of_week']);
    expect(fields({ slots: [{ hour: 9 }], days_of_week: 'mon' })).toEqual(['days_of_week']);
    expect(fields({ slots: [{ hour: 24 }, { hour: 9, minute: 60 }, { minute: 5 }, {}] })).toEqual(['slots[0].hour', 'slots[1].minute', 'slots[2].hour', 'slots[3].time']);
    expect(fields({ slots: [{ hour: '9' }] })).toEqual(['slots[0].hour']);
    expect(fields({ slots: [{ hour: 9 }], max_posts_per_slot: 0 })).toEqual(['max_posts_per_slot']);
  });

  async function settingsWorld() {
    const world = aWorld();
    world.advance(Date.parse('2026-03-02T08:00:00Z') - world.deps.clock.now().getTime()); // a Monday
    const { account } = await world.operator();
    await createProfile(world.deps, account, { username: 'alice' });
    await connectWithCredentials(world.deps, account, 'discord', { profile_username: 'alice', secret: 'good' });
    return { world, account };
  }

  it('answers both layouts side by side, and the answer can be posted back unchanged in either', async () => {
    const { world, account } = await settingsWorld();
    const saved = await saveQueueSettings(world.deps, account, { profile_username: 'alice', ...flat() });
    expect(saved).toEqual({
      profile_username: 'alice', timezone: 'Europe/Paris', updated_at: world.deps.clock.now().toISOString(),
      slots: [
        { day: 'mon', time: '09:00', hour: 9, minute: 0 }, { day: 'mon', time: '17:30', hour: 17, minute: 30 },
        { day: 'wed', time: '09:00', hour: 9, minute: 0 }, { day: 'wed', time: '17:30', hour: 17, minute: 30 },
      ],
      days_of_week: [0, 2], posts_per_slot: 2, max_posts_per_slot: 2,
    });
    const read = await getQueueSettings(world.deps, account, 'alice');
    expect(read).toEqual(saved);
    // The whole answer, as read.
    expect((await saveQueueSettings(world.deps, account, { ...read })).slots).toEqual(saved.slots);
    // Only our fields, as our clients know them.
    const ours = { profile_username: 'alice', timezone: read.timezone, slots: read.slots.map(({ day, time }) => ({ day, time })), posts_per_slot: read.posts_per_slot };
    expect(await saveQueueSettings(world.deps, account, ours)).toEqual(saved);
    // Only the flat fields, as flat-layout clients know them.
    const theirs = { profile_username: 'alice', timezone: read.timezone, slots: read.slots.map(({ hour, minute }) => ({ hour, minute })), days_of_week: read.days_of_week, max_posts_per_slot: read.max_posts_per_slot };
    expect(await saveQueueSettings(world.deps, account, theirs)).toEqual(saved);
  });

  it('answers the next free slot like a preview entry, and 404 for a profile without a queue', async () => {
    const { world, account } = await settingsWorld();
    await saveQueueSettings(world.deps, account, { profile_username: 'alice', timezone: 'UTC', slots: [{ hour: 10 }], days_of_week: [0, 1], max_posts_per_slot: 1 });
    expect(await nextQueueSlot(world.deps, account, 'alice')).toEqual({
      profile_username: 'alice', timezone: 'UTC', next_slot: '2026-03-02T10:00:00.000Z', slot: { slot_at: '2026-03-02T10:00:00.000Z', used: 0, capacity: 1 },
    });
    await submitUpload(world.deps, account, { kind: 'text', profileUsername: 'alice', platforms: ['discord'], title: 'queued', media: [], fields: {}, async: true, warnings: [], syncTimeoutMs: 100, queue: {} });
    expect(await nextQueueSlot(world.deps, account, 'alice')).toMatchObject({ next_slot: '2026-03-03T10:00:00.000Z', slot: { slot_at: '2026-03-03T10:00:00.000Z', used: 0, capacity: 1 } });
    await createProfile(world.deps, account, { username: 'bob' });
    await expect(nextQueueSlot(world.deps, account, 'bob')).rejects.toMatchObject({ kind: 'not_found', errorCode: 'QUEUE_NOT_CONFIGURED' });
    await expect(nextQueueSlot(world.deps, account, 'nobody')).rejects.toMatchObject({ kind: 'not_found', errorCode: 'PROFILE_NOT_FOUND' });
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
