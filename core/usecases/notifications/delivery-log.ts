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

const intOf = (value: unknown, field: string, fallback: number, max: number) => {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) throw invalidInput(`${field} must be an integer from 1 to ${max}.`, { violations: [{ field, message: 'out of range' }] });
  return n;
};
const oneOf = <T extends string>(value: unknown, field: string, allowed: readonly T[], what: string): T | undefined => {
  if (value === undefined || value === '') return undefined;
  const text = String(value);
  if (!(allowed as readonly string[]).includes(text)) throw invalidInput(`${field} must be one of ${allowed.join(', ')}.`, { violations: [{ field, message: `unknown ${what}` }] });
  return text as T;
};

/**
 * The delivery log's filters, each read from its query value (absent or empty: not filtered):
 * the use case reads them with these, and the API's edge checks each field with the same rule.
 */
export const DELIVERY_FILTERS = {
  page: (v: unknown) => intOf(v, 'page', 1, 100_000),
  limit: (v: unknown) => intOf(v, 'limit', 50, 100),
  event: (v: unknown) => oneOf(v, 'event', [...HERALD_EVENT_NAMES, 'test'], 'event'),
  channel: (v: unknown) => oneOf(v, 'channel', CHANNEL_KINDS, 'channel'),
  outcome: (v: unknown) => oneOf(v, 'outcome', OUTCOMES, 'outcome'),
  start: (v: unknown) => dateOf(v, 'start'),
  end: (v: unknown) => dateOf(v, 'end'),
} as const;

/**
 * GET /users/notifications/deliveries: newest first, filtered, paginated. Page form (`page`,
 * `limit`) or cursor form (`cursor` = a previous page's `next_cursor`, with the same filters):
 * both read only the attempts of the page (docs/storage/lists.md).
 */
export async function listDeliveries(deps: NotificationDeps, account: OperatorAccount, query: Record<string, unknown>) {
  const page = DELIVERY_FILTERS.page(query.page);
  const limit = DELIVERY_FILTERS.limit(query.limit);
  const event = DELIVERY_FILTERS.event(query.event);
  const channel = DELIVERY_FILTERS.channel(query.channel);
  const outcome = DELIVERY_FILTERS.outcome(query.outcome);
  const since = DELIVERY_FILTERS.start(query.start ?? query.since);
  const until = DELIVERY_FILTERS.end(query.end ?? query.until);
  const deliveryId = query.delivery_id === undefined || query.delivery_id === '' ? undefined : String(query.delivery_id);
  const cursor = query.cursor === undefined || query.cursor === '' ? undefined : String(query.cursor);
  // A cursor belongs to its filters: sent with others it is a 400 invalid_cursor.
  const fingerprint = listFingerprint('deliveries', { event, channel, outcome, delivery_id: deliveryId, start: since, end: until });
  const after = cursor !== undefined ? decodePageCursor(cursor, fingerprint) : undefined;
  const { items, total, next } = await deps.notifications.deliveries.list({
    accountId: account.id, page, limit,
    ...(event ? { event } : {}), ...(channel ? { channel } : {}), ...(outcome ? { outcome } : {}),
    ...(since ? { since } : {}), ...(until ? { until } : {}), ...(deliveryId ? { deliveryId } : {}), ...(after ? { after } : {}),
  });
  return {
    deliveries: items.map(attemptView), page, limit, total, has_more: next !== undefined,
    next_cursor: next ? encodePageCursor(next, fingerprint) : null,
  };
}

