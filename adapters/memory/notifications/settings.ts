import type { NotificationSettings } from '../../../core/domain/notifications';
import type { NotificationSettingsRepository } from '../../../core/ports/storage/notification-settings';
import { copy } from '../values';

export function createMemoryNotificationSettings(): NotificationSettingsRepository {
  const byAccount = new Map<string, NotificationSettings>();
  return {
    async get(accountId) {
      const found = byAccount.get(accountId);
      return found ? copy(found) : null;
    },
    async save(settings) {
      byAccount.set(settings.accountId, copy(settings));
    },
  };
}
