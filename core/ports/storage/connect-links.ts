import type { ConnectLink } from '../../domain/connect-link';

/** Connect links by the hash of their token (the token itself is never stored). */
export interface ConnectLinkRepository {
  /** Throws DuplicateKeyError when a link with that token hash exists. */
  insert(link: ConnectLink): Promise<void>;
  /** The link, expired or not (the caller tells expired from unknown). */
  findByTokenHash(tokenHash: string): Promise<ConnectLink | null>;
  /** Periodic cleanup (no TTL indexes on FerretDB). Returns how many went. */
  deleteExpired(now: Date): Promise<number>;
}
