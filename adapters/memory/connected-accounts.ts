import type { ConnectedAccount } from '../../core/domain/connected-account';
import type { Platform } from '../../core/domain/platforms';
import { DuplicateKeyError, type ConnectedAccountRepository } from '../../core/ports/storage';
import { compare, copy } from './values';

/** Connected accounts, one per (account, profile, platform). */
export function createMemoryConnectedAccounts(): ConnectedAccountRepository {
  const byId = new Map<string, ConnectedAccount>();
  /** The hour each connection was first stored (its place in the sweep, as the Mongo adapter's `pk`). */
  const firstHour = new Map<string, string>();
  const sweepKey = (id: string) => `${firstHour.get(id) ?? ''}|${id}`;
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
      firstHour.set(stored.id, account.connectedAt.toISOString().slice(0, 13));
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
        delete found.refreshFailures;
        found.updatedAt = new Date(at.getTime());
      }
    },
    async setStatusIf(id, connectedAt, status, at, reauthReason) {
      const found = byId.get(id);
      if (!found || found.connectedAt.getTime() !== connectedAt.getTime()) return false;
      found.status = status;
      found.updatedAt = new Date(at.getTime());
      if (status === 'reauth_required') {
        found.reauthSince = new Date(at.getTime());
        if (reauthReason) found.reauthReason = reauthReason;
      } else {
        delete found.reauthSince;
        delete found.reauthReason;
      }
      return true;
    },
    async countFailure(id, connectedAt, counter, at) {
      const found = byId.get(id);
      if (!found || found.connectedAt.getTime() !== connectedAt.getTime()) return null;
      found[counter] = (found[counter] ?? 0) + 1;
      found.updatedAt = new Date(at.getTime());
      return found[counter]!;
    },
    async clearFailures(id, at) {
      const found = byId.get(id);
      if (!found) return;
      delete found.refreshFailures;
      delete found.authStrikes;
      found.updatedAt = new Date(at.getTime());
    },
    async deleteIf(id, connectedAt) {
      const found = byId.get(id);
      if (!found || found.connectedAt.getTime() !== connectedAt.getTime()) return false;
      byId.delete(id);
      firstHour.delete(id);
      return true;
    },
    async listByPlatform(platform, page) {
      // A position handed out (`<hour>|<id>`), or a connection id (resumes after that connection, from the start when it is gone).
      const after = page.afterId === undefined ? undefined
        : page.afterId.includes('|') ? page.afterId : byId.has(page.afterId) ? sweepKey(page.afterId) : undefined;
      const sorted = [...byId.values()].filter((c) => c.platform === platform).sort((a, b) => compare(sweepKey(a.id), sweepKey(b.id)));
      const rest = after === undefined ? sorted : sorted.filter((c) => sweepKey(c.id) > after);
      const items = rest.slice(0, Math.max(0, page.limit));
      const last = items[items.length - 1];
      return { items: items.map((c) => copy(c)), ...(rest.length > items.length && last ? { next: sweepKey(last.id) } : {}) };
    },
    async deleteByProfile(accountId, profileUsername) {
      let n = 0;
      for (const [id, c] of byId) {
        if (c.accountId === accountId && c.profileUsername === profileUsername) {
          byId.delete(id);
          firstHour.delete(id);
          n += 1;
        }
      }
      return n;
    },
  };
}
