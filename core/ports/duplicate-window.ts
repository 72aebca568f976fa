/**
 * Duplicate protection: the first upload of a content (per operator account) claims its digest
 * for the duplicate window; an identical upload within the window finds who holds the claim and
 * answers with that request. Shared by every API process (Redis) or per process (memory).
 */
export interface DuplicateWindow {
  /**
   * Claims `key` for `requestId` for `ttlMs`. Answers null when the claim is ours now, else the
   * request id holding it (nothing changed).
   */
  claim(key: string, requestId: string, ttlMs: number): Promise<string | null>;
  /** Gives the claim up, only while `requestId` holds it (a request refused after claiming). */
  release(key: string, requestId: string): Promise<void>;
}
