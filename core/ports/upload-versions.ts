/**
 * A stamp per operator account that every settled write of its uploads moves (an edit, a cancel,
 * a retry, the worker's status moves and results, an operation on a published post), shared by
 * every process (Redis). A reader that took the stamp before it read storage may reuse what it
 * read for as long as the stamp has not moved: none of the account's uploads changed since.
 */
export interface UploadVersions {
  /** The account's stamp now; throws when it cannot be read (the reader then reads storage). */
  current(accountId: string): Promise<string>;
  /** Moves the account's stamp. Never throws: a lost move is bounded by the readers' TTL. */
  advance(accountId: string): Promise<void>;
}
