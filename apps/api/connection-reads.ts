import type { ApiDeps } from './deps';

/**
 * The API's dependencies as its routes use them when a connection cache is configured
 * (HERALD_CONNECTION_CACHE_MS): `deps` for every route, whose writes of connected accounts drop
 * the cached records, and `reads` for the synchronous read routes (media list, comments, lookups,
 * live analytics), whose connection lookups are answered from the cache within its TTL.
 * Publishing, connecting and disconnecting read storage every time.
 */
export function connectionReads(given: ApiDeps): { deps: ApiDeps; reads: ApiDeps } {
  const cache = given.connectionCache;
  if (!cache) return { deps: given, reads: given };
  const store = given.storage.connectedAccounts;
  const deps: ApiDeps = { ...given, storage: { ...given.storage, connectedAccounts: cache.tracking(store) } };
  return { deps, reads: { ...deps, storage: { ...deps.storage, connectedAccounts: cache.reading(store) } } };
}
