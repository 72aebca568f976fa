import type { QueueSettings } from '../../domain/queue';

export interface QueueRepository {
  getSettings(accountId: string, profileUsername: string): Promise<QueueSettings | null>;
  putSettings(settings: QueueSettings): Promise<void>;
  /**
   * Takes one of the `capacity` places of a slot for an upload; false when the slot is full.
   * Each place is a unique key, so concurrent requests never overfill a slot (no transactions needed).
   */
  reserve(accountId: string, profileUsername: string, slotAt: Date, capacity: number, requestId: string): Promise<boolean>;
  release(accountId: string, profileUsername: string, slotAt: Date, requestId: string): Promise<void>;
  countInSlot(accountId: string, profileUsername: string, slotAt: Date): Promise<number>;
}
