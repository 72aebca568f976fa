import type { Profile } from '../../domain/profile';

/** `insert` with a limit: the account holds that many profiles already. */
export class ProfileLimitError extends Error {
  constructor(readonly limit: number) {
    super(`the account holds ${limit} profiles already`);
    this.name = 'ProfileLimitError';
  }
}

/**
 * Profiles, unique per (account, username). An account's profiles are a short list by design: a
 * profile is only made by `insert` with the plan's limit, which is strict (counted before the
 * insert, checked after: racing inserts near the limit may both be refused, never both stored
 * past it), so an account holds at most the largest plan's limit (225, core/domain/plans.ts)
 * even after a downgrade. `list` reads them all; `count` reads counters.
 */
export interface ProfileRepository {
  /**
   * Throws DuplicateKeyError when the username exists for this account, and, with `limit`,
   * ProfileLimitError when the account holds `limit` profiles already.
   */
  insert(profile: Profile, opts?: { limit?: number }): Promise<void>;
  find(accountId: string, username: string): Promise<Profile | null>;
  /** Every profile of the account, oldest first (createdAt, then username): at most the largest plan's limit. */
  list(accountId: string): Promise<Profile[]>;
  /** How many profiles the account holds (counted by the writers, not by reading the profiles). */
  count(accountId: string): Promise<number>;
  /** Returns false when there was nothing to delete. */
  delete(accountId: string, username: string): Promise<boolean>;
  /** Sets (or, with null, removes) one pinned target field of a profile. */
  setPin(accountId: string, username: string, field: string, value: string | null): Promise<void>;
  /** Replaces the profile's connect-page label overrides (`{}` clears them). */
  setUiLabels(accountId: string, username: string, labels: Record<string, string>): Promise<void>;
}
