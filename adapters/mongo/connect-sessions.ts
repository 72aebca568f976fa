import type { Db } from 'mongodb';
import type { ConnectSession } from '../../core/domain/connect-link';
import type { ConnectSessionRepository } from '../../core/ports/connect-storage';
import { clean, ensureIndexes, mapDuplicate, strip, type IdDoc } from './collections';

export const CONNECT_SESSIONS = 'connect_sessions';

/**
 * One session per connect link, `_id` = the link's token hash: claiming a link is a unique-key
 * insert, which FerretDB decides reliably between racing browsers. The cookie's hash is a unique
 * field looked up by equality.
 */
export async function createMongoConnectSessions(db: Db): Promise<ConnectSessionRepository> {
  const col = db.collection<IdDoc>(CONNECT_SESSIONS);
  await ensureIndexes(col, [
    { key: { sessionHash: 1 }, name: 'sessionHash_unique', unique: true },
    { key: { expiresAt: 1 }, name: 'expiresAt' },
  ]);
  const fromDoc = (doc: IdDoc | null): ConnectSession | null => (doc ? ({ ...strip(doc), tokenHash: doc._id } as unknown as ConnectSession) : null);
  return {
    async claim(session) {
      const { tokenHash, ...rest } = clean(session);
      await mapDuplicate('connect session', () => col.insertOne({ ...rest, _id: tokenHash }));
    },
    async findBySessionHash(sessionHash, now) {
      const session = fromDoc(await col.findOne({ sessionHash }));
      return session && session.expiresAt > now ? session : null;
    },
    async findByTokenHash(tokenHash) {
      return fromDoc(await col.findOne({ _id: tokenHash }));
    },
    async deleteExpired(now) {
      return (await col.deleteMany({ expiresAt: { $lte: now } })).deletedCount;
    },
  };
}
