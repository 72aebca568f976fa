import type { HeraldEvent } from '../notifications';

/** An event as the outbox keeps it. */
export interface OutboxEvent {
  /** Unique per event (the emitter's delivery key). */
  key: string;
  event: HeraldEvent;
  createdAt: Date;
}

/**
 * The reading side of the notification outbox (the writing side is the Notifier port): the dispatcher
 * takes events not yet handed to their channels, oldest first, and marks each one handed.
 */
export interface NotificationOutboxRepository {
  /**
   * Up to `limit` events not yet handed to their channels, oldest first (by the hour of their
   * creation; within an hour in stored order). Reads a bounded number of events, not the outbox.
   */
  pending(limit: number): Promise<OutboxEvent[]>;
  /** Marks the events handed (keys unknown are skipped); one round's events go in one write. */
  markHanded(keys: string[], now: Date): Promise<void>;
  find(key: string): Promise<OutboxEvent | null>;
  /** Periodic cleanup of events handed before `before` (hour by hour, a bounded amount per call). Returns how many went. */
  deleteHandedBefore(before: Date): Promise<number>;
}
