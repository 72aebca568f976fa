import type { Db } from 'mongodb';
import type { NotificationSettings } from '../../../core/domain/notifications';
import type { NotificationSettingsRepository } from '../../../core/ports/storage/notification-settings';
import { COLLECTIONS, clean, strip, type IdDoc } from '../collections';

/** Notification settings, `_id` = the account id: one document per account, written by the API only. */
export async function createMongoNotificationSettings(db: Db): Promise<NotificationSettingsRepository> {
  const col = db.collection<IdDoc>(COLLECTIONS.notificationSettings);
  return {
    async get(accountId) {
      const doc = await col.findOne({ _id: accountId });
      return doc ? ({ ...strip(doc), accountId } as NotificationSettings) : null;
    },
    async save(settings) {
      const { accountId, ...rest } = clean(settings);
      await col.replaceOne({ _id: accountId }, rest, { upsert: true });
    },
  };
}
