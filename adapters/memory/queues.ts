import type { QueueSettings } from '../../core/domain/queue';
import type { QueueRepository } from '../../core/ports/storage';
import { copy } from './values';

/** Queue settings per profile and the taken places of queue slots (one key per place, as in Mongo). */
export function createMemoryQueues(): QueueRepository {
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
