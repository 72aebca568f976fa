import type { ConnectStorage } from '../../core/ports/connect-storage';
import { createMemoryConnectLinks } from './connect-links';
import { createMemoryConnectSessions } from './connect-sessions';
import { createMemoryPreferences } from './preferences';

export function createMemoryConnectStorage(): ConnectStorage {
  return { connectLinks: createMemoryConnectLinks(), connectSessions: createMemoryConnectSessions(), preferences: createMemoryPreferences() };
}
