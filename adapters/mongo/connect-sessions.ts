import type { Db } from 'mongodb';
import type { ConnectSession } from '../../core/domain/connect-link';
import type { ConnectSessionRepository } from '../../core/ports/connect-storage';
import { clean, ensureIndexes, mapDuplicate, strip, type IdDoc } from './collections';
import { expiryHour, expirySweep, type HourSweepOptions } from './hour-sweep';

export { backfillExpiryHour as backfillConnectSession } from './hour-sweep';

export const CONNECT_SESSIONS = 'connect_sessions';

/**
 * One session per connect link, `_id` = the link's token hash: claiming a link is a unique-key
 * insert, which FerretDB decides reliably between racing browsers. The cookie's hash is a unique
 * field looked up by equality. Expiry is `xh` (the hour of expiresAt) plus the hour-by-hour
 * cleanup (adapters/mongo/hour-sweep.ts).
 */
export async function createMongoConnectSessions(db: Db, opts: { sweep?: HourSweepOptions } = {}): Promise<ConnectSessionRepository> {
  const col = db.collection<IdDoc>(CONNECT_SESSIONS);
  await ensureIndexes(col, [
    { key: { sessionHash: 1 }, name: 'sessionHash_unique', unique: true },
    { key: { xh: 1 }, name: 'xh' },
  ]);
  const sweep = expirySweep(db, db.collection(CONNECT_SESSIONS), opts.sweep);
  const fromDoc = (doc: IdDoc | null): ConnectSession | null => (doc ? ({ ...strip(doc, 'xh'), tokenHash: doc._id } as unknown as ConnectSession) : null);
  return {
    async claim(session) {
      const { tokenHash, ...rest } = clean(session);
      await mapDuplicate('connect session', () => col.insertOne({ ...rest, _id: tokenHash, xh: expiryHour(session.expiresAt) }));
    },
    async findBySessionHash(sessionHash, now) {
      const session = fromDoc(await col.findOne({ sessionHash }));
      return session && session.expiresAt > now ? session : null;
    },
    async findByTokenHash(tokenHash) {
      return fromDoc(await col.findOne({ _id: tokenHash }));
    },
    deleteExpired: (now) => sweep(now),
  };
}
