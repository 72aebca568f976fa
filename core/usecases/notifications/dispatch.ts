import { channelId, channelWants, type ChannelRef } from '../../domain/notifications';
import type { NotificationChannelQueue } from '../../ports/notification-channels';
import type { OutboxEvent } from '../../ports/storage/notification-outbox';
import type { NotificationDeps } from './deps';
import { hasSlackUrl } from './secrets';

/** Reads made once per dispatch round: a batch of events of one account reads its settings once. */
type RoundCache = Map<string, Promise<unknown>>;

function once<T>(cache: RoundCache | undefined, key: string, read: () => Promise<T>): Promise<T> {
  if (!cache) return read();
  let hit = cache.get(key) as Promise<T> | undefined;
  if (!hit) {
    hit = read();
    cache.set(key, hit);
  }
  return hit;
}

/** The channels an event goes to, each with its delivery id. */
export async function channelsFor(deps: Pick<NotificationDeps, 'notifications' | 'clock' | 'crypto'>, stored: OutboxEvent, cache?: RoundCache): Promise<{ channelId: string; deliveryId: string }[]> {
  const event = stored.event;
  const settings = await once(cache, `s|${event.account_id}`, () => deps.notifications.settings.get(event.account_id));
  const refs: ChannelRef[] = [];
  if (settings) {
    const on = (kind: 'webhook' | 'telegram' | 'slack', addressed: boolean) => settings.channels[kind] && addressed && channelWants({ accountId: event.account_id, kind }, event, settings.webhookEvents);
    if (on('webhook', Boolean(settings.webhookUrl))) refs.push({ accountId: event.account_id, kind: 'webhook' });
    if (on('telegram', Boolean(settings.telegramChatId))) refs.push({ accountId: event.account_id, kind: 'telegram' });
    if (on('slack', hasSlackUrl(settings))) refs.push({ accountId: event.account_id, kind: 'slack' });
  }
  if (event.profile_username) {
    const profile = event.profile_username;
    const hook = await once(cache, `p|${event.account_id}|${profile}`, () => deps.notifications.profileWebhooks.get(event.account_id, profile));
    const ref: ChannelRef = { accountId: event.account_id, kind: 'profile_webhook', profileUsername: event.profile_username };
    if (hook && channelWants(ref, event, hook.webhookEvents)) refs.push(ref);
  }
  return refs.map((ref) => {
    const id = channelId(ref);
    return { channelId: id, deliveryId: deps.crypto.deliveryId(stored.key, id) };
  });
}

/**
 * The outbox dispatcher's one round: every pending event is handed to the breaker workflow of
 * each channel that wants it, then marked handed. A crash between the two hands it again on the
 * next round (same delivery ids: the channel workflow drops what it already has).
 */
export async function dispatchPendingEvents(deps: Pick<NotificationDeps, 'notifications' | 'clock' | 'crypto'> & { queue: NotificationChannelQueue }, limit = 100): Promise<number> {
  const pending = await deps.notifications.outbox.pending(limit);
  const cache: RoundCache = new Map();
  // The round's deliveries by channel, in event order: one signal per channel carries them all.
  const byChannel = new Map<string, { deliveryId: string; eventKey: string }[]>();
  for (const stored of pending) {
    for (const c of await channelsFor(deps, stored, cache)) {
      const list = byChannel.get(c.channelId) ?? [];
      list.push({ deliveryId: c.deliveryId, eventKey: stored.key });
      byChannel.set(c.channelId, list);
    }
  }
  const CONCURRENCY = 8;
  const run = async <T>(items: T[], work: (item: T) => Promise<void>) => {
    let next = 0;
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }));
  };
  await run([...byChannel], ([channel, deliveries]) => deps.queue.enqueue(channel, deliveries));
  // Marked only once every channel has them: a crash before this hands them again (same ids).
  const now = deps.clock.now();
  if (pending.length > 0) await deps.notifications.outbox.markHanded(pending.map((p) => p.key), now);
  return pending.length;
}
