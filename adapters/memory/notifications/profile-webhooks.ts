import type { ProfileWebhook } from '../../../core/domain/notifications';
import type { NotificationProfileWebhookRepository } from '../../../core/ports/storage/notification-profile-webhooks';
import { copy, key } from '../values';

export function createMemoryNotificationProfileWebhooks(): NotificationProfileWebhookRepository {
  const hooks = new Map<string, ProfileWebhook>();
  return {
    async get(accountId, profileUsername) {
      const found = hooks.get(key(accountId, profileUsername));
      return found ? copy(found) : null;
    },
    async save(hook) {
      hooks.set(key(hook.accountId, hook.profileUsername), copy(hook));
    },
    async delete(accountId, profileUsername) {
      return hooks.delete(key(accountId, profileUsername));
    },
  };
}
