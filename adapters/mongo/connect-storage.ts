import type { Db } from 'mongodb';
import type { ConnectStorage } from '../../core/ports/connect-storage';
import { createMongoConnectLinks } from './connect-links';
import { createMongoConnectSessions } from './connect-sessions';
import { createMongoPreferences } from './preferences';

/** The connect page's repositories on `db` (indexes created one after the other). */
export async function createMongoConnectStorage(db: Db): Promise<ConnectStorage> {
  const connectLinks = await createMongoConnectLinks(db);
  const connectSessions = await createMongoConnectSessions(db);
  const preferences = await createMongoPreferences(db);
  return { connectLinks, connectSessions, preferences };
}
