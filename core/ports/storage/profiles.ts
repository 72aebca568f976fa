import type { Profile } from '../../domain/profile';

export interface ProfileRepository {
  /** Throws DuplicateKeyError when the username exists for this account. */
  insert(profile: Profile): Promise<void>;
  find(accountId: string, username: string): Promise<Profile | null>;
  list(accountId: string): Promise<Profile[]>;
  count(accountId: string): Promise<number>;
  /** Returns false when there was nothing to delete. */
  delete(accountId: string, username: string): Promise<boolean>;
  /** Sets (or, with null, removes) one pinned target field of a profile. */
  setPin(accountId: string, username: string, field: string, value: string | null): Promise<void>;
  /** Replaces the profile's connect-page label overrides (`{}` clears them). */
  setUiLabels(accountId: string, username: string, labels: Record<string, string>): Promise<void>;
}
