import { invalidInput, notFound } from '../../domain/errors';
import { channelId, parseChannelId, publicPayload, testPayload, type ChannelRef } from '../../domain/notifications';
import type { OperatorAccount } from '../../domain/operator';
import type { DeliveryAttemptRecord, DeliveryOutcome, DeliveryTrigger } from '../../ports/storage/notification-delivery-log';
import { send, targetOf } from './channels';
import { attemptView, newAttempt, type AttemptView } from './delivery-log';
import type { NotificationDeps } from './deps';
import { settingsOf } from './settings';

export interface DeliverInput {
  channelId: string;
  deliveryId: string;
  eventKey: string;
}

/** What an attempt means for the breaker: skipped attempts (channel off, event gone) do not count. */
export type AttemptResult = { outcome: DeliveryOutcome };

/** One automatic attempt (the breaker workflow's activity): send, then log the attempt. */
export async function deliverToChannel(deps: NotificationDeps, input: DeliverInput, trigger: DeliveryTrigger = 'event'): Promise<AttemptResult & { record: DeliveryAttemptRecord }> {
  const ref = parseChannelId(input.channelId);
  if (!ref) throw new Error(`not a channel id: ${input.channelId}`);
  const stored = await deps.notifications.outbox.find(input.eventKey);
  const base = { accountId: ref.accountId, deliveryId: input.deliveryId, eventKey: input.eventKey, channel: ref.kind, ...(ref.profileUsername ? { profileUsername: ref.profileUsername } : {}) };
  if (!stored) {
    const row = newAttempt(deps, { ...base, event: 'unknown', url: null, statusCode: null, latencyMs: null, error: 'the event is no longer kept (past retention)', response: null, outcome: 'skipped', trigger });
    await deps.notifications.deliveries.insert(row);
    return { outcome: 'skipped', record: row };
  }
  const target = await targetOf(deps, ref, await settingsOf(deps, ref.accountId));
  if (typeof target === 'string') {
    const row = newAttempt(deps, { ...base, event: stored.event.event, url: null, statusCode: null, latencyMs: null, error: `skipped: ${target}`, response: null, outcome: 'skipped', trigger });
    await deps.notifications.deliveries.insert(row);
    return { outcome: 'skipped', record: row };
  }
  const sent = await send(deps, target, stored.event.event, input.deliveryId, publicPayload(stored.event));
  const row = newAttempt(deps, {
    ...base, event: stored.event.event, url: sent.target, statusCode: sent.statusCode, latencyMs: sent.latencyMs, error: sent.error, response: sent.response,
    outcome: sent.ok ? 'delivered' : 'failed', trigger,
  });
  await deps.notifications.deliveries.insert(row);
  return { outcome: row.outcome, record: row };
}

/**
 * Several deliveries of one channel in a row (the breaker workflow's activity), stopping at the
 * first failure so the breaker sees every failure. `done` are outcomes of an earlier try of this
 * same batch (a worker died mid-batch): those deliveries are not sent again.
 */
export async function deliverBatch(deps: NotificationDeps, input: { channelId: string; deliveries: Array<{ deliveryId: string; eventKey: string }> }, done: DeliveryOutcome[] = [], progress?: (outcomes: DeliveryOutcome[]) => void): Promise<DeliveryOutcome[]> {
  const outcomes = [...done];
  for (const d of input.deliveries.slice(outcomes.length)) {
    const { outcome } = await deliverToChannel(deps, { channelId: input.channelId, ...d });
    outcomes.push(outcome);
    progress?.(outcomes);
    if (outcome === 'failed') break;
  }
  return outcomes;
}

/** A delivery the open breaker skips: logged, not retried. */
export async function recordSkipped(deps: NotificationDeps, input: DeliverInput & { pausedUntil: string }): Promise<void> {
  const ref = parseChannelId(input.channelId);
  if (!ref) throw new Error(`not a channel id: ${input.channelId}`);
  const stored = await deps.notifications.outbox.find(input.eventKey);
  await deps.notifications.deliveries.insert(newAttempt(deps, {
    accountId: ref.accountId, deliveryId: input.deliveryId, eventKey: input.eventKey, channel: ref.kind,
    ...(ref.profileUsername ? { profileUsername: ref.profileUsername } : {}),
    event: stored?.event.event ?? 'unknown', url: null, statusCode: null, latencyMs: null,
    error: `skipped: the channel is paused until ${input.pausedUntil} after consecutive failed deliveries (circuit breaker)`, response: null,
    outcome: 'skipped', trigger: 'event',
  }));
}

/** POST /users/notifications/test: a test event to every enabled channel of the account, now. */
export async function sendTestNotification(deps: NotificationDeps, account: OperatorAccount): Promise<AttemptView[]> {
  const settings = await settingsOf(deps, account.id);
  const kinds = (['webhook', 'telegram', 'slack'] as const).filter((k) => settings.channels[k]);
  if (!kinds.length) throw invalidInput('No notification channel is turned on: save a webhook_url, telegram_chat_id or slack_webhook_url first.', undefined, 'no_channel_enabled');
  const now = deps.clock.now();
  const payload = testPayload(account.email, now);
  const eventKey = `test:${account.id}:${deps.ids.next('t')}`;
  return Promise.all(kinds.map(async (kind) => {
    const ref: ChannelRef = { accountId: account.id, kind };
    const id = channelId(ref);
    const deliveryId = deps.crypto.deliveryId(eventKey, id);
    const target = await targetOf(deps, ref, settings);
    if (typeof target === 'string') throw new Error(target);
    const sent = await send(deps, target, 'test', deliveryId, payload);
    const row = newAttempt(deps, {
      accountId: account.id, deliveryId, eventKey, channel: kind, event: 'test', url: sent.target, statusCode: sent.statusCode, latencyMs: sent.latencyMs,
      error: sent.error, response: sent.response, outcome: sent.ok ? 'delivered' : 'failed', trigger: 'test',
    });
    await deps.notifications.deliveries.insert(row);
    return attemptView(row);
  }));
}

/** POST /users/notifications/deliveries/{id}/redeliver: the same event to the same channel, same delivery id, signed anew. */
export async function redeliver(deps: NotificationDeps, account: OperatorAccount, deliveryId: string): Promise<AttemptView> {
  const last = await deps.notifications.deliveries.latest(account.id, deliveryId);
  if (!last) throw notFound(`No delivery ${deliveryId} in the delivery log.`, 'DELIVERY_NOT_FOUND');
  if (last.trigger === 'test') throw invalidInput('A test delivery cannot be redelivered; send a new test instead.', undefined, 'not_redeliverable');
  const id = channelId({ accountId: account.id, kind: last.channel, ...(last.profileUsername ? { profileUsername: last.profileUsername } : {}) });
  const result = await deliverToChannel(deps, { channelId: id, deliveryId, eventKey: last.eventKey }, 'redelivery');
  return attemptView(result.record);
}

