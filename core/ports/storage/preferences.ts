import type { OperatorPreferences } from '../../domain/connect-link';

/** An operator account's preferences (`/users/preferences`): one document per account. */
export interface PreferencesRepository {
  /** null when the account never saved any (the caller applies the defaults). */
  get(accountId: string): Promise<OperatorPreferences | null>;
  set(accountId: string, preferences: OperatorPreferences, at: Date): Promise<void>;
}
