/**
 * The writes of profiles and connected accounts, each followed (once settled: a failed write may
 * have landed) by the change it made. One wrapper serves two listeners: a process's own read
 * caches (core/usecases/connection-read-cache.ts) and the announcement to every other process
 * (`announcingChanges`, wired in every daemon that opens storage).
 */
import type { RecordChange, RecordChangePublisher } from '../ports/record-changes';
import type { ConnectedAccountRepository, ProfileRepository, Storage } from '../ports/storage';

/** Told of each change; an announcement returns its publish, awaited before the write resolves. */
type Changed = (change: RecordChange) => void | Promise<void>;

async function settled<R>(write: Promise<R>, after: () => void | Promise<void>): Promise<R> {
  try {
    return await write;
  } finally {
    await after();
  }
}

export function connectionWrites(store: ConnectedAccountRepository, changed: Changed): ConnectedAccountRepository {
  const byId = <R>(id: string, write: Promise<R>) => settled(write, () => changed({ kind: 'connection', id }));
  return {
    upsert: (account) => settled(store.upsert(account), async () => {
      await changed({ kind: 'connection', id: account.id });
      await changed({ kind: 'connection-slot', accountId: account.accountId, profileUsername: account.profileUsername, platform: account.platform });
    }),
    findById: (id) => store.findById(id),
    find: (accountId, profileUsername, platform) => store.find(accountId, profileUsername, platform),
    listByProfile: (accountId, profileUsername) => store.listByProfile(accountId, profileUsername),
    listByPlatform: (platform, page) => store.listByPlatform(platform, page),
    setStatus: (id, status, at) => byId(id, store.setStatus(id, status, at)),
    setRestriction: (id, restriction, at) => byId(id, store.setRestriction(id, restriction, at)),
    setCheckpointRequired: (id, required, at) => byId(id, store.setCheckpointRequired(id, required, at)),
    updateCredentials: (id, sealed, at) => byId(id, store.updateCredentials(id, sealed, at)),
    setStatusIf: (id, connectedAt, status, at, reason) => byId(id, store.setStatusIf(id, connectedAt, status, at, reason)),
    countFailure: (id, connectedAt, counter, at) => byId(id, store.countFailure(id, connectedAt, counter, at)),
    clearFailures: (id, at) => byId(id, store.clearFailures(id, at)),
    deleteIf: (id, connectedAt) => byId(id, store.deleteIf(id, connectedAt)),
    deleteByProfile: (accountId, profileUsername) => settled(store.deleteByProfile(accountId, profileUsername), () => changed({ kind: 'profile', accountId, username: profileUsername })),
  };
}

export function profileWrites(store: ProfileRepository, changed: Changed): ProfileRepository {
  const of = <R>(accountId: string, username: string, write: Promise<R>) => settled(write, () => changed({ kind: 'profile', accountId, username }));
  return {
    find: (accountId, username) => store.find(accountId, username),
    list: (accountId) => store.list(accountId),
    count: (accountId) => store.count(accountId),
    insert: (profile, opts) => of(profile.accountId, profile.username, store.insert(profile, opts)),
    delete: (accountId, username) => of(accountId, username, store.delete(accountId, username)),
    setPin: (accountId, username, field, value) => of(accountId, username, store.setPin(accountId, username, field, value)),
    setUiLabels: (accountId, username, labels) => of(accountId, username, store.setUiLabels(accountId, username, labels)),
  };
}

/**
 * `storage` whose profile and connected-account writes are announced to every other process. A
 * write resolves once its announcement is published (Redis has handed it to every subscriber's
 * connection), so whatever the writer does next is ordered after it.
 */
export function announcingChanges<S extends Pick<Storage, 'profiles' | 'connectedAccounts'>>(storage: S, publisher: RecordChangePublisher): S {
  const announce: Changed = (change) => publisher.publish(change);
  return { ...storage, profiles: profileWrites(storage.profiles, announce), connectedAccounts: connectionWrites(storage.connectedAccounts, announce) };
}
