import type { ApiKey, OperatorAccount } from '../../core/domain/operator';
import type { Profile } from '../../core/domain/profile';
import type { QueueSettings } from '../../core/domain/queue';
import type { ConnectedAccount } from '../../core/domain/connected-account';
import type { Platform } from '../../core/domain/platforms';
import type { TargetResult, UploadRequest } from '../../core/domain/upload';
import {
  DuplicateKeyError,
  type ApiKeyRepository,
  type ConnectedAccountRepository,
  type OperatorAccountRepository,
  type ProfileRepository,
  type Storage,
  type UploadHistoryQuery,
  type UploadRepository,
  type OAuthState,
  type OAuthStateRepository,
  type QueueRepository,
} from '../../core/ports/storage';

/**
 * In-memory Storage with the semantics of the Mongo adapter: the same unique constraints
 * (reported as DuplicateKeyError), the same orderings, and values copied in and out so callers
 * never share state with the store. Object properties set to `undefined` are dropped, as the
 * Mongo adapter does.
 */
export function createMemoryStorage(): Storage {
  return {
    operators: memoryOperators(),
    apiKeys: memoryApiKeys(),
    profiles: memoryProfiles(),
    connectedAccounts: memoryConnectedAccounts(),
    uploads: memoryUploads(),
    oauthStates: memoryOAuthStates(),
    queues: memoryQueues(),
  };
}

function memoryQueues(): QueueRepository {
  const settings = new Map<string, QueueSettings>();
  const places = new Map<string, { accountId: string; profileUsername: string; slotAt: number; requestId: string }>();
  const key = (a: string, p: string) => `${a}|${p}`;
  return {
    async getSettings(accountId, profileUsername) {
      const found = settings.get(key(accountId, profileUsername));
      return found ? copy(found) : null;
    },
    async putSettings(value) {
      settings.set(key(value.accountId, value.profileUsername), copy(value));
    },
    async reserve(accountId, profileUsername, slotAt, capacity, requestId) {
      for (let place = 0; place < capacity; place += 1) {
        const id = `${key(accountId, profileUsername)}|${slotAt.toISOString()}|${place}`;
        if (!places.has(id)) {
          places.set(id, { accountId, profileUsername, slotAt: slotAt.getTime(), requestId });
          return true;
        }
      }
      return false;
    },
    async release(accountId, profileUsername, slotAt, requestId) {
      for (const [id, p] of places) {
        if (p.accountId === accountId && p.profileUsername === profileUsername && p.slotAt === slotAt.getTime() && p.requestId === requestId) places.delete(id);
      }
    },
    async countInSlot(accountId, profileUsername, slotAt) {
      return [...places.values()].filter((p) => p.accountId === accountId && p.profileUsername === profileUsername && p.slotAt === slotAt.getTime()).length;
    },
  };
}

function memoryOAuthStates(): OAuthStateRepository {
  const states = new Map<string, OAuthState>();
  return {
    async insert(state) {
      if (states.has(state.id)) throw new DuplicateKeyError('oauth state');
      states.set(state.id, copy(state));
    },
    async take(id, now) {
      const found = states.get(id);
      states.delete(id);
      return found && found.expiresAt > now ? copy(found) : null;
    },
    async deleteExpired(now) {
      let n = 0;
      for (const [id, state] of states) {
        if (state.expiresAt <= now) {
          states.delete(id);
          n += 1;
        }
      }
      return n;
    },
  };
}

/** Deep copy of plain data (objects, arrays, Dates); drops `undefined` object properties. */
function copy<T>(value: T): T {
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (Array.isArray(value)) return value.map((v) => copy(v)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (v !== undefined) out[k] = copy(v);
    }
    return out as T;
  }
  return value;
}

const key = (...parts: string[]): string => JSON.stringify(parts);

function compare(a: string | number, b: string | number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function memoryOperators(): OperatorAccountRepository {
  const byId = new Map<string, OperatorAccount>();
  return {
    async insert(account) {
      if (byId.has(account.id)) throw new DuplicateKeyError('operator account id');
      for (const existing of byId.values()) {
        if (existing.email === account.email) throw new DuplicateKeyError('operator account email');
      }
      byId.set(account.id, copy(account));
    },
    async findById(id) {
      const found = byId.get(id);
      return found ? copy(found) : null;
    },
    async findByEmail(email) {
      for (const existing of byId.values()) {
        if (existing.email === email) return copy(existing);
      }
      return null;
    },
    async updatePlan(id, plan) {
      const found = byId.get(id);
      if (found) found.plan = plan;
    },
  };
}

function memoryApiKeys(): ApiKeyRepository {
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

function memoryProfiles(): ProfileRepository {
  const byKey = new Map<string, Profile>();
  return {
    async insert(profile) {
      const k = key(profile.accountId, profile.username);
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
    async delete(accountId, username) {
      return byKey.delete(key(accountId, username));
    },
  };
}

function memoryConnectedAccounts(): ConnectedAccountRepository {
  const byId = new Map<string, ConnectedAccount>();
  const findByKey = (accountId: string, profileUsername: string, platform: Platform): ConnectedAccount | undefined => {
    for (const c of byId.values()) {
      if (c.accountId === accountId && c.profileUsername === profileUsername && c.platform === platform) return c;
    }
    return undefined;
  };
  return {
    async upsert(account) {
      const existing = findByKey(account.accountId, account.profileUsername, account.platform);
      if (existing) {
        const replaced = { ...copy(account), id: existing.id };
        byId.set(existing.id, replaced);
        return copy(replaced);
      }
      if (byId.has(account.id)) throw new DuplicateKeyError('connected account id');
      const stored = copy(account);
      byId.set(stored.id, stored);
      return copy(stored);
    },
    async findById(id) {
      const found = byId.get(id);
      return found ? copy(found) : null;
    },
    async find(accountId, profileUsername, platform) {
      const found = findByKey(accountId, profileUsername, platform);
      return found ? copy(found) : null;
    },
    async listByProfile(accountId, profileUsername) {
      return [...byId.values()]
        .filter((c) => c.accountId === accountId && c.profileUsername === profileUsername)
        .sort((a, b) => compare(a.platform, b.platform))
        .map((c) => copy(c));
    },
    async setStatus(id, status, at) {
      const found = byId.get(id);
      if (found) {
        found.status = status;
        found.updatedAt = new Date(at.getTime());
      }
    },
    async setRestriction(id, restriction, at) {
      const found = byId.get(id);
      if (!found) return;
      if (restriction) found.restriction = copy(restriction);
      else delete found.restriction;
      found.updatedAt = new Date(at.getTime());
    },
    async setCheckpointRequired(id, required, at) {
      const found = byId.get(id);
      if (!found) return;
      if (required) found.checkpointRequired = true;
      else delete found.checkpointRequired;
      found.updatedAt = new Date(at.getTime());
    },
    async updateCredentials(id, sealedCredentials, at) {
      const found = byId.get(id);
      if (found) {
        found.sealedCredentials = sealedCredentials;
        found.updatedAt = new Date(at.getTime());
      }
    },
    async deleteByProfile(accountId, profileUsername) {
      let n = 0;
      for (const [id, c] of byId) {
        if (c.accountId === accountId && c.profileUsername === profileUsername) {
          byId.delete(id);
          n += 1;
        }
      }
      return n;
    },
  };
}

function matchesHistory(u: UploadRequest, q: UploadHistoryQuery): boolean {
  if (u.accountId !== q.accountId) return false;
  if (q.platform !== undefined && !u.targets.some((t) => t.platform === q.platform)) return false;
  if (q.status !== undefined && u.status !== q.status) return false;
  if (q.profileUsername !== undefined && u.profileUsername !== q.profileUsername) return false;
  if (q.start !== undefined && u.createdAt.getTime() < q.start.getTime()) return false;
  if (q.end !== undefined && u.createdAt.getTime() > q.end.getTime()) return false;
  if (q.requestId !== undefined && u.requestId !== q.requestId) return false;
  if (q.jobId !== undefined && u.jobId !== q.jobId) return false;
  if (q.externalId !== undefined && u.externalId !== q.externalId) return false;
  return true;
}

function memoryUploads(): UploadRepository {
  const byKey = new Map<string, UploadRequest>();
  const get = (accountId: string, requestId: string) => byKey.get(key(accountId, requestId));
  return {
    async insert(upload) {
      const k = key(upload.accountId, upload.requestId);
      if (byKey.has(k)) throw new DuplicateKeyError(`upload ${upload.requestId}`);
      byKey.set(k, copy(upload));
    },
    async find(accountId, requestId) {
      const found = get(accountId, requestId);
      return found ? copy(found) : null;
    },
    async findByJobId(accountId, jobId) {
      for (const u of byKey.values()) {
        if (u.accountId === accountId && u.jobId === jobId) return copy(u);
      }
      return null;
    },
    async markInProgress(accountId, requestId, at) {
      const found = get(accountId, requestId);
      if (found && (found.status === 'pending' || found.status === 'scheduled')) {
        found.status = 'in_progress';
        found.startedAt = new Date(at.getTime());
        found.updatedAt = new Date(at.getTime());
      }
      return found ? found.status : null;
    },
    async cancelScheduled(accountId, requestId, at) {
      const found = get(accountId, requestId);
      if (!found || found.status !== 'scheduled') return false;
      found.status = 'cancelled';
      found.completedAt = new Date(at.getTime());
      found.updatedAt = new Date(at.getTime());
      return true;
    },
    async updateScheduled(accountId, requestId, patch, at) {
      const found = get(accountId, requestId);
      if (!found || found.status !== 'scheduled') return false;
      Object.assign(found, copy(patch), { updatedAt: new Date(at.getTime()) });
      return true;
    },
    async setMedia(accountId, requestId, media, at) {
      const found = get(accountId, requestId);
      if (!found) return false;
      found.content = { ...found.content, media: copy(media) };
      found.updatedAt = new Date(at.getTime());
      return true;
    },
    // Per-target writes leave the upload's updatedAt alone, as the Mongo adapter does (they live in their own documents there).
    async recordDispatch(accountId, requestId, platform, attempt, at) {
      const found = get(accountId, requestId);
      if (found) found.dispatches[platform] = { attempt, at: new Date(at.getTime()) };
    },
    async recordResult(accountId, requestId, result: TargetResult) {
      const found = get(accountId, requestId);
      if (found && found.results[result.platform] === undefined) found.results[result.platform] = copy(result);
      return copy(found?.results[result.platform] ?? result);
    },
    async resetForRetry(accountId, requestId, platforms, at) {
      const found = get(accountId, requestId);
      if (!found || found.status !== 'completed') return null;
      found.status = 'pending';
      delete found.completedAt;
      found.updatedAt = new Date(at.getTime());
      found.retryCount = (found.retryCount ?? 0) + 1;
      for (const platform of platforms) delete found.results[platform];
      return found.retryCount;
    },
    async markCompleted(accountId, requestId, at) {
      const found = get(accountId, requestId);
      if (found && found.status !== 'completed') {
        found.status = 'completed';
        found.completedAt = new Date(at.getTime());
        found.updatedAt = new Date(at.getTime());
      }
    },
    async history(query) {
      const matching = [...byKey.values()]
        .filter((u) => matchesHistory(u, query))
        .sort((a, b) => compare(b.createdAt.getTime(), a.createdAt.getTime()) || compare(b.requestId, a.requestId));
      const limit = Math.max(0, Math.floor(query.limit));
      const skip = Math.max(0, (Math.floor(query.page) - 1) * limit);
      return { items: matching.slice(skip, skip + limit).map((u) => copy(u)), total: matching.length };
    },
    async findByContentHash(accountId, contentHash, since) {
      const found = [...byKey.values()]
        .filter((u) => u.accountId === accountId && u.contentHash === contentHash && u.createdAt >= since && u.status !== 'cancelled')
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0];
      return found ? copy(found) : null;
    },
    async countSince(accountId, since) {
      return [...byKey.values()].filter((u) => u.accountId === accountId && u.createdAt >= since && u.status !== 'cancelled').length;
    },
    async countForConnection(connectionId, from, to, excludeRequestId) {
      return [...byKey.values()].filter((u) => {
        const capAt = (u.scheduledFor ?? u.createdAt).getTime();
        return u.targets.some((t) => t.connectedAccountId === connectionId) && capAt >= from.getTime() && capAt <= to.getTime()
          && u.status !== 'cancelled' && u.requestId !== excludeRequestId;
      }).length;
    },
    async postponeScheduled(accountId, requestId, to, warning, at) {
      const found = get(accountId, requestId);
      if (!found || found.status !== 'scheduled') return false;
      found.scheduledFor = new Date(to.getTime());
      found.warnings = [...found.warnings, warning];
      delete found.queueSlot;
      found.updatedAt = new Date(at.getTime());
      return true;
    },
    async listStalePending(olderThan, limit) {
      return [...byKey.values()]
        .filter((u) => u.status === 'pending' && u.createdAt.getTime() < olderThan.getTime())
        .sort(
          (a, b) =>
            compare(a.createdAt.getTime(), b.createdAt.getTime()) ||
            compare(a.accountId, b.accountId) ||
            compare(a.requestId, b.requestId),
        )
        .slice(0, Math.max(0, Math.floor(limit)))
        .map((u) => copy(u));
    },
  };
}
