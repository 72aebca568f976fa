import type { ChannelKind } from '../../domain/notifications';
import type { PagePosition } from '../../domain/page-cursor';
import type { ListPage } from './uploads';

export type DeliveryOutcome = 'delivered' | 'failed' | 'skipped';
export type DeliveryTrigger = 'event' | 'redelivery' | 'test';

/** One attempt to deliver one event to one channel (one document each: no concurrent updates). */
export interface DeliveryAttemptRecord {
  id: string;
  accountId: string;
  /** Unique per event and channel, stable across retries and redeliveries (the Delivery header). */
  deliveryId: string;
  /** The outbox key of the event (to redeliver it). */
  eventKey: string;
  event: string;
  channel: ChannelKind;
  profileUsername?: string;
  /** Where it went (a Slack webhook URL masked, a Telegram chat as `telegram:<chat id>`); null when skipped before an address was known. */
  url: string | null;
  statusCode: number | null;
  latencyMs: number | null;
  error: string | null;
  /** The first 1 KB of the receiver's answer. */
  response: string | null;
  outcome: DeliveryOutcome;
  trigger: DeliveryTrigger;
  createdAt: Date;
  /** Removed by the periodic cleanup after this instant (no TTL indexes on FerretDB). */
  expiresAt: Date;
}

export interface NotificationDeliveryLogQuery {
  accountId: string;
  event?: string;
  channel?: ChannelKind;
  outcome?: DeliveryOutcome;
  deliveryId?: string;
  /** createdAt >= since, < until. */
  since?: Date;
  until?: Date;
  /** 1-based page (ignored when `after` is given). */
  page: number;
  limit: number;
  /** Cursor form: the page after this position (a previous page's `next`). */
  after?: PagePosition;
}

export interface NotificationDeliveryLogRepository {
  insert(record: DeliveryAttemptRecord): Promise<void>;
  /**
   * One page of the account's attempts, newest first (createdAt, then id), filtered; its total and
   * where the next page starts (`next`, absent on the last page). The adapters read the attempts
   * of the page, not every attempt of the account (docs/storage/lists.md).
   */
  list(query: NotificationDeliveryLogQuery): Promise<ListPage<DeliveryAttemptRecord>>;
  /** The newest attempt of a delivery id of the account (equality lookup of that delivery's attempts), or null. */
  latest(accountId: string, deliveryId: string): Promise<DeliveryAttemptRecord | null>;
  /** Periodic cleanup: removes attempts past their expiry (`expiresAt <= now`). Returns how many went. */
  deleteExpired(now: Date): Promise<number>;
}
