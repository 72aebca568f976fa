import type { ConnectLink } from '../../core/domain/connect-link';
import { DuplicateKeyError } from '../../core/ports/storage';
import type { ConnectLinkRepository } from '../../core/ports/connect-storage';
import { copy } from './values';

export function createMemoryConnectLinks(): ConnectLinkRepository {
  const links = new Map<string, ConnectLink>();
  return {
    async insert(link) {
      if (links.has(link.tokenHash)) throw new DuplicateKeyError('connect link');
      links.set(link.tokenHash, copy(link));
    },
    async findByTokenHash(tokenHash) {
      const found = links.get(tokenHash);
      return found ? copy(found) : null;
    },
    async deleteExpired(now) {
      let n = 0;
      for (const [k, link] of links) if (link.expiresAt <= now) { links.delete(k); n += 1; }
      return n;
    },
  };
}
