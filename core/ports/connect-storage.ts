import type { ConnectLinkRepository } from './storage/connect-links';
import type { ConnectSessionRepository } from './storage/connect-sessions';
import type { PreferencesRepository } from './storage/preferences';

export type { ConnectLinkRepository } from './storage/connect-links';
export type { ConnectSessionRepository } from './storage/connect-sessions';
export type { PreferencesRepository } from './storage/preferences';

/**
 * The repositories of the hosted connect page (links, their sessions, the operator's
 * preferences), built beside Storage by the API and web composition roots.
 */
export interface ConnectStorage {
  connectLinks: ConnectLinkRepository;
  connectSessions: ConnectSessionRepository;
  preferences: PreferencesRepository;
}
