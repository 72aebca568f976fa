import type { ApiKey } from '../../core/domain/operator';
import { DuplicateKeyError, type ApiKeyRepository } from '../../core/ports/storage';
import { compare, copy } from './values';

/** API keys; ids and hashes are unique. */
export function createMemoryApiKeys(): ApiKeyRepository {
  const byId = new Map<string, ApiKey>();
  return {
    async insert(apiKey) {
      if (byId.has(apiKey.id)) throw new DuplicateKeyError('api key id');
      for (const existing of byId.values()) {
        if (existing.hash === apiKey.hash) throw new DuplicateKeyError('api key hash');
      }
      byId.set(apiKey.id, copy(apiKey));
    },
    async findByHash(hash) {
      for (const existing of byId.values()) {
        if (existing.hash === hash) return copy(existing);
      }
      return null;
    },
    async listByAccount(accountId) {
      return [...byId.values()]
        .filter((k) => k.accountId === accountId)
        .sort((a, b) => compare(a.createdAt.getTime(), b.createdAt.getTime()) || compare(a.id, b.id))
        .map((k) => copy(k));
    },
    async revoke(accountId, keyId, at) {
      const found = byId.get(keyId);
      if (!found || found.accountId !== accountId || found.revokedAt !== null) return false;
      found.revokedAt = new Date(at.getTime());
      return true;
    },
    async touch(keyId, at) {
      const found = byId.get(keyId);
      if (found) found.lastUsedAt = new Date(at.getTime());
    },
  };
}
