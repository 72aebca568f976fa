import type { ConnectedAccount } from '../domain/connected-account';
import type { Platform } from '../domain/platforms';
import type { Profile } from '../domain/profile';
import type { RecordChange, RecordChangeFeed } from '../ports/record-changes';
import type { ConnectedAccountRepository, ProfileRepository } from '../ports/storage';
import type { Clock } from '../ports/system';
import { KeyedReadCache } from './keyed-read-cache';
import { connectionWrites, profileWrites } from './record-changes';

/** How long an API process reuses a connected-account or profile record it read (HERALD_CONNECTION_CACHE_MS). */
export const DEFAULT_CONNECTION_CACHE_MS = 3_000;
/** Records kept at most; the least recently used goes first. */
export const DEFAULT_CONNECTION_CACHE_ENTRIES = 10_000;

export interface ConnectionReadCacheOptions {
  /** 0 turns the cache off: every read goes to storage. */
  ttlMs: number;
  maxEntries?: number;
  clock: Clock;
}

const keyOf = (accountId: string, profileUsername: string, platform: Platform) => `${accountId}\u0000${profileUsername}\u0000${platform}`;
const profilePrefix = (accountId: string, profileUsername: string) => `${accountId}\u0000${profileUsername}\u0000`;

/**
 * Connected-account records for the synchronous read paths of one process (media list, comments,
 * lookups, live analytics) and, while a change feed is live, for intake, so that a request does
 * not pay a database round trip for the same record its predecessor read a moment ago. Two views
 * over one store:
 *
 * - `tracking(store)`: what every writer in the process uses. Each write of a connection
 *   (credentials, status, counters, restriction, upsert, delete) drops its record once the write
 *   has settled, so this process never reads its own writes stale: a rotated refresh token stored
 *   here is the one the next call sees.
 * - `reading(store)`: the same, except that `find` (account, profile, network) answers from
 *   memory for `ttlMs` after a read. `findById` is never cached: the connection session re-reads
 *   the stored credentials with it under the refresh lease, and that read must see what another
 *   process stored.
 *
 * What other processes write (the worker's refreshes and reauth marks, the connect page's
 * reconnects, a pause) is dropped when their announcement arrives (`follow(feed)`), and seen at
 * most `ttlMs` later without one; the session drops the record itself when the network answers
 * auth_expired (core/usecases/connection-session.ts). Misses are not cached: a connection made
 * elsewhere is seen on the next request.
 */
export class ConnectionReadCache {
  private readonly records: KeyedReadCache<ConnectedAccount>;
  private readonly keyOfId = new Map<string, string>();

  constructor(private readonly opts: ConnectionReadCacheOptions) {
    this.records = new KeyedReadCache<ConnectedAccount>({
      ttlMs: opts.ttlMs, maxEntries: opts.maxEntries ?? DEFAULT_CONNECTION_CACHE_ENTRIES, clock: opts.clock,
      onDrop: (key, record) => {
        if (this.keyOfId.get(record.id) === key) this.keyOfId.delete(record.id);
      },
    });
  }

  get ttlMs(): number {
    return this.opts.ttlMs;
  }

  /** Records held now (expired ones included until they are next touched). */
  get size(): number {
    return this.records.size;
  }

  /** Drops the record of connection `id` (its credentials or state may have changed elsewhere). */
  forget(id: string): void {
    const key = this.keyOfId.get(id);
    if (key !== undefined) this.records.drop(key);
    else this.records.bump();
  }

  /** Applies one announced change (or, with `reset`, drops everything). */
  apply(change: RecordChange | 'reset'): void {
    if (change === 'reset') this.records.clear();
    else if (change.kind === 'connection') this.forget(change.id);
    else if (change.kind === 'connection-slot') this.records.drop(keyOf(change.accountId, change.profileUsername, change.platform));
    else this.records.dropPrefix(profilePrefix(change.accountId, change.username));
  }

  /** Drops what other processes announce they changed. Returns the unsubscribe. */
  follow(feed: RecordChangeFeed): () => void {
    return feed.subscribe((change) => this.apply(change), () => this.apply('reset'));
  }

  /** `store` with every write dropping the record it touches. Reads go to `store`. */
  tracking(store: ConnectedAccountRepository): ConnectedAccountRepository {
    return connectionWrites(store, (change) => this.apply(change));
  }

  /**
   * `tracking(store)` whose `find` answers from memory within the TTL; with `when`, only while it
   * answers true (intake: only while the change feed is live), storage otherwise.
   */
  reading(store: ConnectedAccountRepository, when?: () => boolean): ConnectedAccountRepository {
    const tracked = this.tracking(store);
    if (this.opts.ttlMs <= 0) return tracked;
    return {
      ...tracked,
      find: (accountId, profileUsername, platform) => {
        if (when && !when()) return store.find(accountId, profileUsername, platform);
        const key = keyOf(accountId, profileUsername, platform);
        return this.records.find(key, async () => {
          const record = await store.find(accountId, profileUsername, platform);
          if (record) this.keyOfId.set(record.id, key);
          return record;
        });
      },
    };
  }
}

/**
 * Profiles for intake (the post's profile and its pinned pages), kept `ttlMs` while the change
 * feed is live; every profile write in this process drops its entry once settled, and other
 * processes' writes (a pin set on the connect page, a delete) are dropped when announced.
 */
export class ProfileReadCache {
  private readonly records: KeyedReadCache<Profile>;

  constructor(private readonly opts: ConnectionReadCacheOptions) {
    this.records = new KeyedReadCache<Profile>({ ttlMs: opts.ttlMs, maxEntries: opts.maxEntries ?? DEFAULT_CONNECTION_CACHE_ENTRIES, clock: opts.clock });
  }

  get size(): number {
    return this.records.size;
  }

  apply(change: RecordChange | 'reset'): void {
    if (change === 'reset') this.records.clear();
    else if (change.kind === 'profile') this.records.drop(profileKey(change.accountId, change.username));
  }

  follow(feed: RecordChangeFeed): () => void {
    return feed.subscribe((change) => this.apply(change), () => this.apply('reset'));
  }

  /** `store` with every write dropping its profile. Reads go to `store`. */
  tracking(store: ProfileRepository): ProfileRepository {
    return profileWrites(store, (change) => this.apply(change));
  }

  /** `tracking(store)` whose `find` answers from memory within the TTL while `when()` is true. */
  reading(store: ProfileRepository, when: () => boolean = () => true): ProfileRepository {
    const tracked = this.tracking(store);
    if (this.opts.ttlMs <= 0) return tracked;
    return {
      ...tracked,
      find: (accountId, username) => (when() ? this.records.find(profileKey(accountId, username), () => store.find(accountId, username)) : store.find(accountId, username)),
    };
  }
}

const profileKey = (accountId: string, username: string) => `${accountId}\u0000${username}`;
