import type { NotificationStorage } from '../../../core/usecases/notifications';
import type { DeliveryAttemptRecord } from '../../../core/ports/storage/delivery-log';
import { defaultNotificationSettings } from '../../../core/domain/notifications';
import { anUploadCompletedEvent, at } from '../../support/mothers';
import { freshForEachTest, type MakeRepository } from './repository-under-test';

function anAttempt(overrides: Partial<DeliveryAttemptRecord> = {}): DeliveryAttemptRecord {
  return {
    id: `att_${Math.random().toString(36).slice(2)}`, accountId: 'acct-1', deliveryId: 'dlv_1', eventKey: 'k-1', event: 'upload_completed', channel: 'webhook',
    url: 'https://r.example.test/h', statusCode: 200, latencyMs: 12, error: null, response: 'ok', outcome: 'delivered', trigger: 'event',
    createdAt: at(0), expiresAt: at(60), ...overrides,
  };
}

/**
 * What every adapter of the notification repositories must show: settings (one document per
 * account), profile webhooks, the delivery log (filters, newest first, pages, expiry) and the
 * reading side of the event outbox (pending oldest first, handed once, cleanup).
 */
export function notificationStorageContract(name: string, make: MakeRepository<NotificationStorage>): void {
  describe(`Notification storage contract: ${name}`, () => {
    let s: NotificationStorage;
    freshForEachTest(make, (repository) => {
      s = repository;
    });

    it('keeps one settings document per account, replaced on save', async () => {
      expect(await s.settings.get('acct-1')).toBeNull();
      const first = { ...defaultNotificationSettings('acct-1', at(0)), webhookUrl: 'https://a.test/h', channels: { webhook: true, telegram: false, slack: false }, sealedWebhookSecret: 'sealed' };
      await s.settings.save(first);
      expect(await s.settings.get('acct-1')).toEqual(first);
      const second = { ...first, webhookUrl: null, webhookEvents: { upload_completed: true, social_account_connected: false, social_account_disconnected: true, social_account_reauth_required: true }, updatedAt: at(1) };
      await s.settings.save(second);
      expect(await s.settings.get('acct-1')).toEqual(second);
      expect(await s.settings.get('acct-2')).toBeNull();
    });

    it('keeps one webhook per profile of an account', async () => {
      const hook = { accountId: 'acct-1', profileUsername: 'alice', webhookUrl: 'https://a.test/p', webhookEvents: null, updatedAt: at(0) };
      await s.profileWebhooks.save(hook);
      await s.profileWebhooks.save({ ...hook, accountId: 'acct-2' });
      expect(await s.profileWebhooks.get('acct-1', 'alice')).toEqual(hook);
      await s.profileWebhooks.save({ ...hook, webhookUrl: 'https://b.test/p' });
      expect((await s.profileWebhooks.get('acct-1', 'alice'))?.webhookUrl).toBe('https://b.test/p');
      expect(await s.profileWebhooks.delete('acct-1', 'alice')).toBe(true);
      expect(await s.profileWebhooks.delete('acct-1', 'alice')).toBe(false);
      expect(await s.profileWebhooks.get('acct-1', 'alice')).toBeNull();
      expect(await s.profileWebhooks.get('acct-2', 'alice')).not.toBeNull();
    });

    it('lists delivery attempts newest first, filtered, paginated, per account', async () => {
      const rows = [
        anAttempt({ id: 'a1', createdAt: at(1), deliveryId: 'dlv_a' }),
        anAttempt({ id: 'a2', createdAt: at(2), outcome: 'failed', statusCode: 500, deliveryId: 'dlv_a' }),
        anAttempt({ id: 'a3', createdAt: at(3), channel: 'telegram', event: 'social_account_connected', deliveryId: 'dlv_b' }),
        anAttempt({ id: 'a4', createdAt: at(4), outcome: 'skipped', deliveryId: 'dlv_c' }),
        anAttempt({ id: 'x1', createdAt: at(5), accountId: 'acct-2' }),
      ];
      for (const r of rows) await s.deliveries.insert(r);
      const ids = async (q: Partial<Parameters<typeof s.deliveries.list>[0]>) =>
        (await s.deliveries.list({ accountId: 'acct-1', page: 1, limit: 10, ...q })).items.map((r) => r.id);
      expect(await ids({})).toEqual(['a4', 'a3', 'a2', 'a1']);
      expect(await ids({ outcome: 'failed' })).toEqual(['a2']);
      expect(await ids({ channel: 'telegram' })).toEqual(['a3']);
      expect(await ids({ event: 'upload_completed' })).toEqual(['a4', 'a2', 'a1']);
      expect(await ids({ since: at(2), until: at(4) })).toEqual(['a3', 'a2']);
      expect(await ids({ deliveryId: 'dlv_a' })).toEqual(['a2', 'a1']);
      const page1 = await s.deliveries.list({ accountId: 'acct-1', page: 1, limit: 3 });
      const page2 = await s.deliveries.list({ accountId: 'acct-1', page: 2, limit: 3 });
      expect([page1.hasMore, page2.hasMore]).toEqual([true, false]);
      expect(page2.items.map((r) => r.id)).toEqual(['a1']);
      expect((await s.deliveries.list({ accountId: 'acct-1', page: 1, limit: 10 })).items[1]).toEqual(rows[2]);
      expect((await s.deliveries.latest('acct-1', 'dlv_a'))?.id).toBe('a2');
      expect(await s.deliveries.latest('acct-2', 'dlv_a')).toBeNull();
    });

    it('removes delivery attempts past their expiry in the cleanup', async () => {
      await s.deliveries.insert(anAttempt({ id: 'old', expiresAt: at(10) }));
      await s.deliveries.insert(anAttempt({ id: 'new', expiresAt: at(100) }));
      expect(await s.deliveries.deleteExpired(at(50))).toBe(1);
      expect((await s.deliveries.list({ accountId: 'acct-1', page: 1, limit: 10 })).items.map((r) => r.id)).toEqual(['new']);
    });

    it('hands pending outbox events oldest first, each until marked, and cleans up handed ones', async () => {
      const notifier = s.outbox as unknown as { emit(e: unknown, k: string): Promise<void> };
      const e1 = anUploadCompletedEvent({ account_id: 'acct-1', title: 'one' });
      const e2 = anUploadCompletedEvent({ account_id: 'acct-1', title: 'two' });
      await notifier.emit(e1, 'k-1');
      await new Promise((r) => setTimeout(r, 5));
      await notifier.emit(e2, 'k-2');
      expect((await s.outbox.pending(10)).map((p) => p.key)).toEqual(['k-1', 'k-2']);
      expect((await s.outbox.pending(1)).map((p) => p.key)).toEqual(['k-1']);
      await s.outbox.markHanded('k-1', at(5));
      expect((await s.outbox.pending(10)).map((p) => p.key)).toEqual(['k-2']);
      expect(await s.outbox.find('k-1')).toMatchObject({ key: 'k-1', event: e1 });
      expect(await s.outbox.find('nope')).toBeNull();
      expect(await s.outbox.deleteHandedBefore(at(4))).toBe(0);
      expect(await s.outbox.deleteHandedBefore(at(6))).toBe(1);
      expect(await s.outbox.find('k-1')).toBeNull();
      expect((await s.outbox.pending(10)).map((p) => p.key)).toEqual(['k-2']);
    });
  });
}
