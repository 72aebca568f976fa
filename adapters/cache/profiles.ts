import type { Profile } from '../../core/domain/profile';
import type { ProfileRepository } from '../../core/ports/storage/profiles';
import type { Clock } from '../../core/ports/system';

/**
 * Profiles remembered by one API process for `ttlMs`, so an accept does not read its profile
 * from the database each time. Only found profiles are kept (a profile created elsewhere is found
 * at once); this process's own writes drop the entry, and a read that raced a write is not kept;
 * a write made by another process is seen within `ttlMs`. `ttlMs` 0 = the repository itself.
 */
export function cacheProfiles(repo: ProfileRepository, opts: { ttlMs: number; clock: Clock; maxEntries?: number }): ProfileRepository {
  if (opts.ttlMs <= 0) return repo;
  const maxEntries = opts.maxEntries ?? 10_000;
  const entries = new Map<string, { profile: Profile; until: number }>();
  // Bumped by every write of a key: a read started before it must not store what it found.
  const generations = new Map<string, number>();
  const keyOf = (accountId: string, username: string) => `${accountId}\u0000${username}`;
  const written = (key: string) => {
    entries.delete(key);
    generations.set(key, (generations.get(key) ?? 0) + 1);
    if (generations.size > maxEntries) generations.clear();
  };
  const write = async <T>(accountId: string, username: string, run: () => Promise<T>): Promise<T> => {
    const key = keyOf(accountId, username);
    written(key);
    try {
      return await run();
    } finally {
      written(key);
    }
  };
  return {
    ...repo,
    async find(accountId, username) {
      const key = keyOf(accountId, username);
      const now = opts.clock.now().getTime();
      const hit = entries.get(key);
      if (hit && hit.until > now) return structuredClone(hit.profile);
      const generation = generations.get(key) ?? 0;
      const profile = await repo.find(accountId, username);
      if (profile && (generations.get(key) ?? 0) === generation) {
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
        entries.set(key, { profile: structuredClone(profile), until: now + opts.ttlMs });
      }
      return profile;
    },
    insert: (profile) => write(profile.accountId, profile.username, () => repo.insert(profile)),
    delete: (accountId, username) => write(accountId, username, () => repo.delete(accountId, username)),
    setPin: (accountId, username, field, value) => write(accountId, username, () => repo.setPin(accountId, username, field, value)),
    setUiLabels: (accountId, username, labels) => write(accountId, username, () => repo.setUiLabels(accountId, username, labels)),
  };
}
