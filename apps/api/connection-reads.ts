import type { ApiDeps } from './deps';

/**
 * The API's dependencies as its routes use them when caches are configured
 * (HERALD_CONNECTION_CACHE_MS):
 * - `deps` for every route: writes of profiles and connected accounts drop the cached records;
 * - `reads` for the synchronous read routes (media list, comments, lookups, live analytics):
 *   connection lookups answered from the cache within its TTL, while the change feed is live
 *   (without a feed at all: within the TTL);
 * - `intake` for the upload routes: the post's profile and connections answered from the caches
 *   only while the change feed is live (every daemon's writes are announced and dropped as they
 *   land), from storage otherwise. The worker reads storage again before it publishes anything.
 * Connecting and disconnecting read storage every time.
 */
export function connectionReads(given: ApiDeps): { deps: ApiDeps; reads: ApiDeps; intake: ApiDeps } {
  const { connectionCache: connections, profileCache: profiles, changeFeed: feed } = given;
  if (!connections) return { deps: given, reads: given, intake: given };
  const store = given.storage;
  const deps: ApiDeps = {
    ...given,
    storage: { ...store, connectedAccounts: connections.tracking(store.connectedAccounts), ...(profiles ? { profiles: profiles.tracking(store.profiles) } : {}) },
  };
  if (!feed) return { deps, reads: { ...deps, storage: { ...deps.storage, connectedAccounts: connections.reading(store.connectedAccounts) } }, intake: deps };
  const live = () => feed.live();
  // The read routes as intake: from memory only while every daemon's writes are heard, so a
  // disconnect or reconnect on another process is never answered from memory here (issue 29 h).
  const cached = connections.reading(store.connectedAccounts, live);
  const reads: ApiDeps = { ...deps, storage: { ...deps.storage, connectedAccounts: cached } };
  const intake: ApiDeps = {
    ...deps,
    storage: {
      ...deps.storage,
      connectedAccounts: cached,
      ...(profiles ? { profiles: profiles.reading(store.profiles, live) } : {}),
    },
  };
  return { deps, reads, intake };
}
