import type { NotificationSettings } from '../../domain/notifications';

/** One document per operator account (`_id` = account id): only the API writes it. */
export interface NotificationSettingsRepository {
  /** The stored settings, or null when the account never saved any. */
  get(accountId: string): Promise<NotificationSettings | null>;
  /** Replaces the account's settings (upsert). */
  save(settings: NotificationSettings): Promise<void>;
}
