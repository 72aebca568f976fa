import { invalidInput } from '../../domain/errors';
import { CHANNEL_KINDS, type ChannelKind } from '../../domain/notifications';
import type { OperatorAccount } from '../../domain/operator';
import { decodePageCursor, encodePageCursor, listFingerprint } from '../../domain/page-cursor';
import { HERALD_EVENT_NAMES } from '../../ports/notifications';
import type { DeliveryAttemptRecord, DeliveryOutcome, DeliveryTrigger } from '../../ports/storage/notification-delivery-log';
import type { NotificationDeps } from './deps';

/** A new attempt for the delivery log: its id, and its expiry after the retention. */
export function newAttempt(deps: Pick<NotificationDeps, 'ids' | 'clock' | 'retentionMs'>, base: Omit<DeliveryAttemptRecord, 'id' | 'createdAt' | 'expiresAt'>): DeliveryAttemptRecord {
  const now = deps.clock.now();
  return { ...base, id: deps.ids.next('att'), createdAt: now, expiresAt: new Date(now.getTime() + deps.retentionMs) };
}

export interface AttemptView {
  attempt_id: string;
  delivery_id: string;
  event: string;
  channel: ChannelKind;
  profile_username?: string;
  url: string | null;
  status_code: number | null;
  latency_ms: number | null;
  error: string | null;
  response_body: string | null;
  outcome: DeliveryOutcome;
  trigger: DeliveryTrigger;
  created_at: string;
}

export function attemptView(r: DeliveryAttemptRecord): AttemptView {
  return {
    attempt_id: r.id, delivery_id: r.deliveryId, event: r.event, channel: r.channel, ...(r.profileUsername ? { profile_username: r.profileUsername } : {}),
    url: r.url, status_code: r.statusCode, latency_ms: r.latencyMs, error: r.error, response_body: r.response, outcome: r.outcome, trigger: r.trigger,
    created_at: r.createdAt.toISOString(),
  };
}

const OUTCOMES: readonly DeliveryOutcome[] = ['delivered', 'failed', 'skipped'];

function dateOf(value: unknown, field: string): Date | undefined {
  if (value === undefined || value === '') return undefined;
  const text = String(value);
  const date = /^\d+$/.test(text) ? new Date(Number(text) * 1000) : new Date(text);
  if (Number.isNaN(date.getTime())) throw invalidInput(`${field} must be an ISO-8601 date or Unix seconds.`, { violations: [{ field, message: 'invalid date' }] });
  return date;
}

/**
 * GET /users/notifications/deliveries: newest first, filtered, paginated. Page form (`page`,
 * `limit`) or cursor form (`cursor` = a previous page's `next_cursor`, with the same filters):
 * both read only the attempts of the page (docs/storage/lists.md).
 */
export async function listDeliveries(deps: NotificationDeps, account: OperatorAccount, query: Record<string, unknown>) {
  const intOf = (value: unknown, field: string, fallback: number, max: number) => {
    if (value === undefined || value === '') return fallback;
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1 || n > max) throw invalidInput(`${field} must be an integer from 1 to ${max}.`, { violations: [{ field, message: 'out of range' }] });
    return n;
  };
  const page = intOf(query.page, 'page', 1, 100_000);
  const limit = intOf(query.limit, 'limit', 50, 100);
  const event = query.event === undefined || query.event === '' ? undefined : String(query.event);
  if (event && event !== 'test' && !(HERALD_EVENT_NAMES as readonly string[]).includes(event)) throw invalidInput(`event must be one of ${HERALD_EVENT_NAMES.join(', ')}, test.`, { violations: [{ field: 'event', message: 'unknown event' }] });
  const channel = query.channel === undefined || query.channel === '' ? undefined : String(query.channel);
  if (channel && !(CHANNEL_KINDS as readonly string[]).includes(channel)) throw invalidInput(`channel must be one of ${CHANNEL_KINDS.join(', ')}.`, { violations: [{ field: 'channel', message: 'unknown channel' }] });
  const outcome = query.outcome === undefined || query.outcome === '' ? undefined : String(query.outcome);
  if (outcome && !(OUTCOMES as readonly string[]).includes(outcome)) throw invalidInput(`outcome must be one of ${OUTCOMES.join(', ')}.`, { violations: [{ field: 'outcome', message: 'unknown outcome' }] });
  const since = dateOf(query.start ?? query.since, 'start');
  const until = dateOf(query.end ?? query.until, 'end');
  const deliveryId = query.delivery_id === undefined || query.delivery_id === '' ? undefined : String(query.delivery_id);
  const cursor = query.cursor === undefined || query.cursor === '' ? undefined : String(query.cursor);
  // A cursor belongs to its filters: sent with others it is a 400 invalid_cursor.
  const fingerprint = listFingerprint('deliveries', { event, channel, outcome, delivery_id: deliveryId, start: since, end: until });
  const after = cursor !== undefined ? decodePageCursor(cursor, fingerprint) : undefined;
  const { items, total, next } = await deps.notifications.deliveries.list({
    accountId: account.id, page, limit,
    ...(event ? { event } : {}), ...(channel ? { channel: channel as ChannelKind } : {}), ...(outcome ? { outcome: outcome as DeliveryOutcome } : {}),
    ...(since ? { since } : {}), ...(until ? { until } : {}), ...(deliveryId ? { deliveryId } : {}), ...(after ? { after } : {}),
  });
  return {
    deliveries: items.map(attemptView), page, limit, total, has_more: next !== undefined,
    next_cursor: next ? encodePageCursor(next, fingerprint) : null,
  };
}

