import type { ConnectedAccount } from '../domain/connected-account';
import type { Platform } from '../domain/platforms';
import type { ConnectedAccountRepository } from '../ports/storage';
import type { Clock } from '../ports/system';

/** How long an API process reuses a connected-account record it read (HERALD_CONNECTION_CACHE_MS). */
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
 * lookups, live analytics), so that a request does not pay a database round trip for the same
 * record its predecessor read a moment ago. Two views over one store:
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
 * reconnects, a pause) is seen at most `ttlMs` later; the session drops the record itself when the
 * network answers auth_expired (core/usecases/connection-session.ts). Misses are not cached: a
 * connection made elsewhere is seen on the next request. A read that was in flight while a write
 * (or a drop) happened is not stored, so a slow read never brings back what a write replaced.
 */
export class ConnectionReadCache {
  private readonly entries = new Map<string, { record: ConnectedAccount; expiresAt: number }>();
  private readonly keyOfId = new Map<string, string>();
  private readonly pending = new Map<string, { epoch: number; read: Promise<ConnectedAccount | null> }>();
  /** Moves on every write and drop: reads begun before it are neither stored nor joined. */
  private epoch = 0;
  private readonly maxEntries: number;

  constructor(private readonly opts: ConnectionReadCacheOptions) {
    this.maxEntries = Math.max(1, opts.maxEntries ?? DEFAULT_CONNECTION_CACHE_ENTRIES);
  }

  get ttlMs(): number {
    return this.opts.ttlMs;
  }

  /** Records held now (expired ones included until they are next touched). */
  get size(): number {
    return this.entries.size;
  }

  /** Drops the record of connection `id` (its credentials or state may have changed elsewhere). */
  forget(id: string): void {
    this.epoch += 1;
    const key = this.keyOfId.get(id);
    if (key !== undefined) this.drop(key);
  }

  /** `store` with every write dropping the record it touches. Reads go to `store`. */
  tracking(store: ConnectedAccountRepository): ConnectedAccountRepository {
    const dropping = <R>(id: string, write: Promise<R>) => this.after(write, () => this.forget(id));
    return {
      upsert: (account) => this.after(store.upsert(account), () => {
        this.forget(account.id);
        this.dropKey(keyOf(account.accountId, account.profileUsername, account.platform));
      }),
      findById: (id) => store.findById(id),
      find: (accountId, profileUsername, platform) => store.find(accountId, profileUsername, platform),
      listByProfile: (accountId, profileUsername) => store.listByProfile(accountId, profileUsername),
      listByPlatform: (platform, page) => store.listByPlatform(platform, page),
      setStatus: (id, status, at) => dropping(id, store.setStatus(id, status, at)),
      setRestriction: (id, restriction, at) => dropping(id, store.setRestriction(id, restriction, at)),
      setCheckpointRequired: (id, required, at) => dropping(id, store.setCheckpointRequired(id, required, at)),
      updateCredentials: (id, sealed, at) => dropping(id, store.updateCredentials(id, sealed, at)),
      setStatusIf: (id, connectedAt, status, at, reason) => dropping(id, store.setStatusIf(id, connectedAt, status, at, reason)),
      countFailure: (id, connectedAt, counter, at) => dropping(id, store.countFailure(id, connectedAt, counter, at)),
      clearFailures: (id, at) => dropping(id, store.clearFailures(id, at)),
      deleteIf: (id, connectedAt) => dropping(id, store.deleteIf(id, connectedAt)),
      deleteByProfile: (accountId, profileUsername) => this.after(store.deleteByProfile(accountId, profileUsername), () => {
        this.epoch += 1;
        const prefix = profilePrefix(accountId, profileUsername);
        for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.drop(key);
      }),
    };
  }

  /** `tracking(store)` whose `find` answers from memory within the TTL. */
  reading(store: ConnectedAccountRepository): ConnectedAccountRepository {
    const tracked = this.tracking(store);
    if (this.opts.ttlMs <= 0) return tracked;
    return { ...tracked, find: (accountId, profileUsername, platform) => this.find(store, keyOf(accountId, profileUsername, platform), accountId, profileUsername, platform) };
  }

  private async find(store: ConnectedAccountRepository, key: string, accountId: string, profileUsername: string, platform: Platform): Promise<ConnectedAccount | null> {
    const now = this.opts.clock.now().getTime();
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt > now) {
      // Most recently used last: the oldest is evicted first.
      this.entries.delete(key);
      this.entries.set(key, entry);
      return { ...entry.record };
    }
    if (entry) this.drop(key);
    // Concurrent misses of one record share one read, unless a write came in between.
    const joined = this.pending.get(key);
    if (joined && joined.epoch === this.epoch) return copy(await joined.read);
    const epoch = this.epoch;
    const read = store.find(accountId, profileUsername, platform);
    this.pending.set(key, { epoch, read });
    try {
      const record = await read;
      if (record && epoch === this.epoch) this.store(key, record, this.opts.clock.now().getTime() + this.opts.ttlMs);
      return copy(record);
    } finally {
      if (this.pending.get(key)?.read === read) this.pending.delete(key);
    }
  }

  private store(key: string, record: ConnectedAccount, expiresAt: number): void {
    this.drop(key);
    this.entries.set(key, { record: { ...record }, expiresAt });
    this.keyOfId.set(record.id, key);
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.drop(oldest);
    }
  }

  private dropKey(key: string): void {
    this.epoch += 1;
    this.drop(key);
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    if (this.keyOfId.get(entry.record.id) === key) this.keyOfId.delete(entry.record.id);
  }

  /** `write`'s outcome, with `dropped` run once it has settled (a failed write may have landed). */
  private async after<R>(write: Promise<R>, dropped: () => void): Promise<R> {
    try {
      return await write;
    } finally {
      dropped();
    }
  }
}

const copy = (record: ConnectedAccount | null): ConnectedAccount | null => (record ? { ...record } : null);
