/**
 * Status reads that are never stale after a write (core/ports/upload-versions.ts): every daemon
 * that writes uploads moves the account's stamp once each write has settled, before the write
 * resolves, so whatever the writer answers next (an edit's 200) is ordered after it; an API
 * process reuses a status answer only while the stamp it took before reading storage is still
 * the account's, checked on every read. The cache saves the database read, not the stamp's.
 */
import type { UploadRepository } from '../ports/storage';
import type { UploadVersions } from '../ports/upload-versions';
import type { Clock } from '../ports/system';

async function settled<R>(write: Promise<R>, after: () => Promise<void>): Promise<R> {
  try {
    return await write;
  } finally {
    await after();
  }
}

/**
 * `store` whose writes move their account's stamp. Not `insert`: a status read of an upload that
 * is not stored yet is a 404, and errors are never cached.
 */
export function stampedUploadWrites(store: UploadRepository, versions: UploadVersions): UploadRepository {
  const of = <R>(accountId: string, write: Promise<R>) => settled(write, () => versions.advance(accountId));
  // Every method named (no spread): a write added to the port is a compile error here until stamped.
  return {
    insert: (upload) => store.insert(upload),
    find: (accountId, requestId) => store.find(accountId, requestId),
    findByJobId: (accountId, jobId) => store.findByJobId(accountId, jobId),
    findRequestIdByPostId: (accountId, platform, postId) => store.findRequestIdByPostId(accountId, platform, postId),
    findByPostId: (accountId, platform, postId) => store.findByPostId(accountId, platform, postId),
    history: (query) => store.history(query),
    listScheduled: (accountId, page) => store.listScheduled(accountId, page),
    listStalePending: (olderThan, limit) => store.listStalePending(olderThan, limit),
    countSince: (accountId, since) => store.countSince(accountId, since),
    countForConnection: (connectionId, from, to, excludeRequestId) => store.countForConnection(connectionId, from, to, excludeRequestId),
    markInProgress: (accountId, requestId, at) => of(accountId, store.markInProgress(accountId, requestId, at)),
    begin: (accountId, requestId, at) => of(accountId, store.begin(accountId, requestId, at)),
    cancelScheduled: (accountId, requestId, at) => of(accountId, store.cancelScheduled(accountId, requestId, at)),
    updateScheduled: (accountId, requestId, patch, at) => of(accountId, store.updateScheduled(accountId, requestId, patch, at)),
    setMedia: (accountId, requestId, media, at) => of(accountId, store.setMedia(accountId, requestId, media, at)),
    recordDispatch: (accountId, requestId, platform, attempt, at) => of(accountId, store.recordDispatch(accountId, requestId, platform, attempt, at)),
    recordResult: (accountId, requestId, result, at, listing) => of(accountId, store.recordResult(accountId, requestId, result, at, listing)),
    resetForRetry: (accountId, requestId, platforms, at) => of(accountId, store.resetForRetry(accountId, requestId, platforms, at)),
    markCompleted: (accountId, requestId, at) => of(accountId, store.markCompleted(accountId, requestId, at)),
    recordPostOperation: (operation, listing) => of(operation.accountId, store.recordPostOperation(operation, listing)),
    postponeScheduled: (accountId, requestId, to, warning, at) => of(accountId, store.postponeScheduled(accountId, requestId, to, warning, at)),
  };
}

/** Entries kept before expired ones are swept. */
const SWEEP_ABOVE = 10_000;

/**
 * Status answers of one API process, reused for `ttlMs` (HERALD_STATUS_CACHE_MS) while their
 * account's stamp has not moved. Without stamps, or when the stamp cannot be read, every read
 * goes to storage: an answer that cannot be proven current is not served. Errors are not cached.
 */
export class StatusReadCache {
  private readonly entries = new Map<string, { stamp: string; at: number; value: unknown }>();

  constructor(private readonly opts: { ttlMs: number; versions?: UploadVersions; clock: Clock }) {}

  async get<T>(accountId: string, key: string, load: () => Promise<T>): Promise<T> {
    const { ttlMs, versions } = this.opts;
    if (ttlMs <= 0 || !versions) return load();
    const stamp = await versions.current(accountId).catch(() => undefined);
    if (stamp === undefined) return load();
    const id = `${accountId}\u0000${key}`;
    const now = this.opts.clock.now().getTime();
    const hit = this.entries.get(id);
    if (hit && hit.stamp === stamp && now - hit.at < ttlMs) return hit.value as T;
    // The stamp was taken before this read: a write landing during it moves the stamp past the entry.
    const value = await load();
    if (this.entries.size > SWEEP_ABOVE) for (const [k, e] of this.entries) if (now - e.at >= ttlMs) this.entries.delete(k);
    this.entries.set(id, { stamp, at: now, value });
    return value;
  }
}
