import type { ConnectSession } from '../../domain/connect-link';

/**
 * The browser sessions connect links were exchanged for: at most one per link (the link's token
 * hash is the unique key: a unique-key insert, the one race FerretDB decides reliably).
 */
export interface ConnectSessionRepository {
  /** Throws DuplicateKeyError when the link already has its session: the link was used. */
  claim(session: ConnectSession): Promise<void>;
  /** The session whose cookie secret hashes to `sessionHash`; expired sessions are not returned. */
  findBySessionHash(sessionHash: string, now: Date): Promise<ConnectSession | null>;
  findByTokenHash(tokenHash: string): Promise<ConnectSession | null>;
  /** Periodic cleanup. Returns how many went. */
  deleteExpired(now: Date): Promise<number>;
}
