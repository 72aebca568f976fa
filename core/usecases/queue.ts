import { HeraldError, invalidInput, notFound } from '../domain/errors';
import type { OperatorAccount } from '../domain/operator';
import { DAYS_FROM_MONDAY, upcomingSlots, validateQueueSettings, type QueueSettings, type QueueSettingsInput, type Weekday } from '../domain/queue';
import type { Storage } from '../ports/storage';
import type { Clock } from '../ports/system';
import { requireProfile } from './profiles';

export interface QueueDeps {
  storage: Pick<Storage, 'queues' | 'profiles'>;
  clock: Clock;
}

/**
 * Queue settings as reads answer them: our per-day layout and the flat layout side by side, so
 * clients of either read their own fields, and the answer can be posted back as it is.
 * `slots` has one entry per day and time (the flat layout's `days_of_week` × times when the queue
 * was set that way); each entry carries both `day` + `time` and `hour` + `minute`.
 */
export interface QueueSettingsView {
  profile_username: string;
  timezone: string;
  slots: Array<{ day: Weekday; time: string; hour: number; minute: number }>;
  /** The days that have slots, 0 = Monday … 6 = Sunday. */
  days_of_week: number[];
  posts_per_slot: number;
  /** The flat layout's name for posts_per_slot; always the same value. */
  max_posts_per_slot: number;
  updated_at: string;
}

const view = (s: QueueSettings): QueueSettingsView => ({
  profile_username: s.profileUsername,
  timezone: s.timezone,
  slots: s.slots.map(({ day, time }) => ({ day, time, hour: Number(time.slice(0, 2)), minute: Number(time.slice(3, 5)) })),
  days_of_week: DAYS_FROM_MONDAY.flatMap((d, n) => (s.slots.some((slot) => slot.day === d) ? [n] : [])),
  posts_per_slot: s.postsPerSlot,
  max_posts_per_slot: s.postsPerSlot,
  updated_at: s.updatedAt.toISOString(),
});

/** Posts may be scheduled at most 365 days ahead, so slots beyond that are never offered. */
const HORIZON_DAYS = 365;

export async function saveQueueSettings(deps: QueueDeps, account: OperatorAccount, input: QueueSettingsInput & { profile_username?: unknown }): Promise<QueueSettingsView> {
  if (typeof input.profile_username !== 'string' || !input.profile_username) throw invalidInput('profile_username is required.', { violations: [{ field: 'profile_username', message: 'required' }] });
  await requireProfile(deps.storage, account.id, input.profile_username);
  const valid = validateQueueSettings(input);
  const settings: QueueSettings = { accountId: account.id, profileUsername: input.profile_username, ...valid, updatedAt: deps.clock.now() };
  await deps.storage.queues.putSettings(settings);
  return view(settings);
}

async function requireQueue(deps: QueueDeps, account: OperatorAccount, profileUsername: string): Promise<QueueSettings> {
  await requireProfile(deps.storage, account.id, profileUsername);
  const settings = await deps.storage.queues.getSettings(account.id, profileUsername);
  if (!settings) throw notFound(`Profile "${profileUsername}" has no posting queue yet: POST its settings (timezone, slots, posts_per_slot) first.`, 'QUEUE_NOT_CONFIGURED');
  return settings;
}

export async function getQueueSettings(deps: QueueDeps, account: OperatorAccount, profileUsername: string): Promise<QueueSettingsView> {
  return view(await requireQueue(deps, account, profileUsername));
}

export interface QueueSlotView {
  slot_at: string;
  used: number;
  capacity: number;
}

async function freeSlots(deps: QueueDeps, settings: QueueSettings, count: number): Promise<QueueSlotView[]> {
  const out: QueueSlotView[] = [];
  for (const slot of upcomingSlots(settings, deps.clock.now(), HORIZON_DAYS)) {
    const used = await deps.storage.queues.countInSlot(settings.accountId, settings.profileUsername, slot);
    if (used < settings.postsPerSlot) out.push({ slot_at: slot.toISOString(), used, capacity: settings.postsPerSlot });
    if (out.length >= count) break;
  }
  return out;
}

/** The next `count` slots that still have room, with how full each is. */
export async function previewQueue(deps: QueueDeps, account: OperatorAccount, profileUsername: string, count: number): Promise<QueueSlotView[]> {
  return freeSlots(deps, await requireQueue(deps, account, profileUsername), count);
}

/**
 * Where the next `add_to_queue` post would go: the first entry of the preview, also as a plain
 * `next_slot` instant for clients of the flat layout. Both are null when the queue has no room
 * within the scheduling horizon (an upload would then answer 409 `queue_full`).
 */
export async function nextQueueSlot(
  deps: QueueDeps, account: OperatorAccount, profileUsername: string,
): Promise<{ profile_username: string; timezone: string; next_slot: string | null; slot: QueueSlotView | null }> {
  const settings = await requireQueue(deps, account, profileUsername);
  const [slot] = await freeSlots(deps, settings, 1);
  return { profile_username: profileUsername, timezone: settings.timezone, next_slot: slot?.slot_at ?? null, slot: slot ?? null };
}

/**
 * Takes a place in the next slot with room (`maxPostsPerSlot` overrides the queue's capacity for
 * this post). Places are unique keys, so concurrent requests never overfill a slot.
 */
export async function reserveQueueSlot(
  deps: QueueDeps, account: OperatorAccount, profileUsername: string, requestId: string, maxPostsPerSlot?: number,
): Promise<Date> {
  const settings = await requireQueue(deps, account, profileUsername);
  const capacity = maxPostsPerSlot ?? settings.postsPerSlot;
  for (const slot of upcomingSlots(settings, deps.clock.now(), HORIZON_DAYS)) {
    if (await deps.storage.queues.reserve(account.id, profileUsername, slot, capacity, requestId)) return slot;
  }
  throw new HeraldError('conflict', 'The posting queue has no free slot in the next 365 days: add slots or raise posts_per_slot.', 'queue_full');
}
