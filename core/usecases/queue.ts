import { HeraldError, invalidInput, notFound } from '../domain/errors';
import type { OperatorAccount } from '../domain/operator';
import { upcomingSlots, validateQueueSettings, type QueueSettings } from '../domain/queue';
import type { Storage } from '../ports/storage';
import type { Clock } from '../ports/system';
import { requireProfile } from './profiles';

export interface QueueDeps {
  storage: Pick<Storage, 'queues' | 'profiles'>;
  clock: Clock;
}

export interface QueueSettingsView {
  profile_username: string;
  timezone: string;
  slots: Array<{ day: string; time: string }>;
  posts_per_slot: number;
  updated_at: string;
}

const view = (s: QueueSettings): QueueSettingsView => ({
  profile_username: s.profileUsername, timezone: s.timezone, slots: s.slots, posts_per_slot: s.postsPerSlot, updated_at: s.updatedAt.toISOString(),
});

export async function saveQueueSettings(deps: QueueDeps, account: OperatorAccount, input: { profile_username?: unknown; timezone?: unknown; slots?: unknown; posts_per_slot?: unknown }): Promise<QueueSettingsView> {
  if (typeof input.profile_username !== 'string' || !input.profile_username) throw invalidInput('profile_username is required.');
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

/** The next `count` slots that still have room, with how full each is. */
export async function previewQueue(deps: QueueDeps, account: OperatorAccount, profileUsername: string, count: number): Promise<Array<{ slot_at: string; used: number; capacity: number }>> {
  const settings = await requireQueue(deps, account, profileUsername);
  const out: Array<{ slot_at: string; used: number; capacity: number }> = [];
  for (const slot of upcomingSlots(settings, deps.clock.now())) {
    const used = await deps.storage.queues.countInSlot(account.id, profileUsername, slot);
    if (used < settings.postsPerSlot) out.push({ slot_at: slot.toISOString(), used, capacity: settings.postsPerSlot });
    if (out.length >= count) break;
  }
  return out;
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
  for (const slot of upcomingSlots(settings, deps.clock.now(), 365)) {
    if (await deps.storage.queues.reserve(account.id, profileUsername, slot, capacity, requestId)) return slot;
  }
  throw new HeraldError('conflict', 'The posting queue has no free slot in the next 365 days: add slots or raise posts_per_slot.', 'queue_full');
}
