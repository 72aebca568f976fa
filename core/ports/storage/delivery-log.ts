import type { ChannelKind } from '../../domain/notifications';

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

export interface DeliveryLogQuery {
  accountId: string;
  event?: string;
  channel?: ChannelKind;
  outcome?: DeliveryOutcome;
  deliveryId?: string;
  /** createdAt >= since, < until. */
  since?: Date;
  until?: Date;
  page: number;
  limit: number;
}

export interface DeliveryLogRepository {
  insert(record: DeliveryAttemptRecord): Promise<void>;
  /** Newest first; `hasMore` when another page exists. */
  list(query: DeliveryLogQuery): Promise<{ items: DeliveryAttemptRecord[]; hasMore: boolean }>;
  /** The newest attempt of a delivery id of the account (equality lookup), or null. */
  latest(accountId: string, deliveryId: string): Promise<DeliveryAttemptRecord | null>;
  /** Periodic cleanup: removes attempts past their expiry. Returns how many went. */
  deleteExpired(now: Date): Promise<number>;
}
