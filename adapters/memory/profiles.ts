import type { Profile } from '../../core/domain/profile';
import { DuplicateKeyError, ProfileLimitError, type ProfileRepository } from '../../core/ports/storage';
import { compare, copy, key } from './values';

/** Profiles, unique per (account, username). */
export function createMemoryProfiles(): ProfileRepository {
  const byKey = new Map<string, Profile>();
  return {
    async insert(profile, opts = {}) {
      const k = key(profile.accountId, profile.username);
      if (opts.limit !== undefined && [...byKey.values()].filter((p) => p.accountId === profile.accountId).length >= opts.limit) throw new ProfileLimitError(opts.limit);
      if (byKey.has(k)) throw new DuplicateKeyError(`profile ${profile.username}`);
      byKey.set(k, copy(profile));
    },
    async find(accountId, username) {
      const found = byKey.get(key(accountId, username));
      return found ? copy(found) : null;
    },
    async list(accountId) {
      return [...byKey.values()]
        .filter((p) => p.accountId === accountId)
        .sort((a, b) => compare(a.createdAt.getTime(), b.createdAt.getTime()) || compare(a.username, b.username))
        .map((p) => copy(p));
    },
    async count(accountId) {
      let n = 0;
      for (const p of byKey.values()) if (p.accountId === accountId) n += 1;
      return n;
    },
    async setPin(accountId, username, field, value) {
      const found = byKey.get(key(accountId, username));
      if (!found) return;
      const pins = { ...(found.pins ?? {}) };
      if (value === null) delete pins[field];
      else pins[field] = value;
      found.pins = pins;
    },
    async setUiLabels(accountId, username, labels) {
      const found = byKey.get(key(accountId, username));
      if (found) found.uiLabels = copy(labels);
    },
    async delete(accountId, username) {
      return byKey.delete(key(accountId, username));
    },
  };
}
