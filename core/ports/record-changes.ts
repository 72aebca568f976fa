import type { Platform } from '../domain/platforms';

/**
 * What changed in storage that processes may hold in memory: a connected account (by id, or the
 * profile and network it is for) or a profile with everything under it. Writers announce each
 * settled write; every API process drops what it cached of it (core/usecases/record-caches.ts).
 */
export type RecordChange =
  | { kind: 'connection'; id: string }
  | { kind: 'connection-slot'; accountId: string; profileUsername: string; platform: Platform }
  | { kind: 'profile'; accountId: string; username: string };

export interface RecordChangePublisher {
  /** Announces a settled write. Never throws: a lost announcement is bounded by the readers' TTL. */
  publish(change: RecordChange): Promise<void>;
}

export interface RecordChangeFeed {
  /**
   * `onChange` for every announcement from any process; `onReset` whenever announcements may
   * have been missed (the subscription dropped and came back): everything cached must go.
   * Returns the unsubscribe.
   */
  subscribe(onChange: (change: RecordChange) => void, onReset: () => void): () => void;
  /** True while announcements arrive: a reader may serve from memory only then. */
  live(): boolean;
}
