import type { ConnectSession } from '../../core/domain/connect-link';
import { DuplicateKeyError } from '../../core/ports/storage';
import type { ConnectSessionRepository } from '../../core/ports/connect-storage';
import { copy } from './values';

export function createMemoryConnectSessions(): ConnectSessionRepository {
  const byToken = new Map<string, ConnectSession>();
  return {
    async claim(session) {
      if (byToken.has(session.tokenHash)) throw new DuplicateKeyError('connect session');
      if ([...byToken.values()].some((s) => s.sessionHash === session.sessionHash)) throw new DuplicateKeyError('connect session');
      byToken.set(session.tokenHash, copy(session));
    },
    async findBySessionHash(sessionHash, now) {
      const found = [...byToken.values()].find((s) => s.sessionHash === sessionHash);
      return found && found.expiresAt > now ? copy(found) : null;
    },
    async findByTokenHash(tokenHash) {
      const found = byToken.get(tokenHash);
      return found ? copy(found) : null;
    },
    async deleteExpired(now) {
      let n = 0;
      for (const [k, s] of byToken) if (s.expiresAt <= now) { byToken.delete(k); n += 1; }
      return n;
    },
  };
}
