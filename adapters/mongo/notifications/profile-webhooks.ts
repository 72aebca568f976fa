import type { Db } from 'mongodb';
import type { ProfileWebhook } from '../../../core/domain/notifications';
import type { NotificationProfileWebhookRepository } from '../../../core/ports/storage/notification-profile-webhooks';
import { COLLECTIONS, clean, retryDuplicateUpsert, strip, type IdDoc } from '../collections';

const idOf = (accountId: string, profileUsername: string) => `${accountId}|${profileUsername}`;

/** Profile webhooks, `_id` = `<account>|<profile>`: equality lookups only. */
export async function createMongoNotificationProfileWebhooks(db: Db): Promise<NotificationProfileWebhookRepository> {
  const col = db.collection<IdDoc>(COLLECTIONS.profileWebhooks);
  return {
    async get(accountId, profileUsername) {
      const doc = await col.findOne({ _id: idOf(accountId, profileUsername) });
      return doc ? (strip(doc) as unknown as ProfileWebhook) : null;
    },
    async save(hook) {
      await retryDuplicateUpsert(() => col.replaceOne({ _id: idOf(hook.accountId, hook.profileUsername) }, clean(hook), { upsert: true }), 'profile webhook');
    },
    async delete(accountId, profileUsername) {
      return (await col.deleteOne({ _id: idOf(accountId, profileUsername) })).deletedCount === 1;
    },
  };
}
