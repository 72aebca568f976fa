import type { ProfileWebhook } from '../../domain/notifications';

/** One document per profile webhook (`_id` = account id + profile username). */
export interface NotificationProfileWebhookRepository {
  get(accountId: string, profileUsername: string): Promise<ProfileWebhook | null>;
  /** Creates or replaces the profile's webhook. */
  save(hook: ProfileWebhook): Promise<void>;
  /** True when there was one. */
  delete(accountId: string, profileUsername: string): Promise<boolean>;
}
