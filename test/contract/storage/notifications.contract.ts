import { listDeliveries } from '../../../core/usecases/notifications/delivery-log';
import type { NotificationDeps, NotificationStorage } from '../../../core/usecases/notifications/deps';
import type { DeliveryAttemptRecord, NotificationDeliveryLogQuery, DeliveryOutcome } from '../../../core/ports/storage/notification-delivery-log';
import { defaultNotificationSettings, type ChannelKind } from '../../../core/domain/notifications';
import { anOperator, anUploadCompletedEvent, at } from '../../support/mothers';
import { freshForEachTest, type MakeRepository } from './repository-under-test';

function anAttempt(overrides: Partial<DeliveryAttemptRecord> = {}): DeliveryAttemptRecord {
  return {
    id: `att_${Math.random().toString(36).slice(2)}`, accountId: 'acct-1', deliveryId: 'dlv_1', eventKey: 'k-1', event: 'upload_completed', channel: 'webhook',
    url: 'https://r.example.test/h', statusCode: 200, latencyMs: 12, error: null, response: 'ok', outcome: 'delivered', trigger: 'event',
    createdAt: at(0), expiresAt: at(60), ...overrides,
  };
}

const CHANNELS: ChannelKind[] = ['webhook', 'telegram', 'slack', 'profile_webhook'];
const EVENTS = ['upload_completed', 'social_account_connected', 'test'];
const OUTCOMES: DeliveryOutcome[] = ['delivered', 'failed', 'skipped'];

/** 50 attempts of acct-1 over about 14 hours, pairs of them at the same instant, filters spread. */
function fiftyAttempts(): DeliveryAttemptRecord[] {
  return Array.from({ length: 50 }, (_, i) => anAttempt({
    id: `att_${String((i * 37) % 100).padStart(3, '0')}`,
    createdAt: at(Math.floor(i / 2) * 35),
    deliveryId: `dlv_${i % 7}`,
    event: EVENTS[i % 3]!, channel: CHANNELS[Math.floor(i / 3) % 4]!, outcome: OUTCOMES[Math.floor(i / 2) % 3]!,
  }));
}

const newestFirst = (a: DeliveryAttemptRecord, b: DeliveryAttemptRecord) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

function matches(r: DeliveryAttemptRecord, f: Partial<NotificationDeliveryLogQuery>): boolean {
  return (f.event === undefined || r.event === f.event) && (f.channel === undefined || r.channel === f.channel) && (f.outcome === undefined || r.outcome === f.outcome)
    && (f.deliveryId === undefined || r.deliveryId === f.deliveryId)
    && (f.since === undefined || r.createdAt >= f.since) && (f.until === undefined || r.createdAt < f.until);
}

/**
 * What every adapter of the notification repositories must show: settings (one document per
 * account), profile webhooks, the delivery log (filters, newest first, pages, expiry) and the
 * reading side of the notification outbox (pending oldest first, handed once, cleanup).
 */
export function notificationStorageContract(name: string, make: MakeRepository<NotificationStorage>): void {
  describe(`Notification storage contract: ${name}`, () => {
    let s: NotificationStorage;
    freshForEachTest(make, (repository) => {
      s = repository;
    });

    /** Every page of a list by cursor, limit 7: the ids in order and the distinct totals seen. */
    const walk = async (f: Partial<NotificationDeliveryLogQuery>) => {
      const ids: string[] = [];
      const totals = new Set<number>();
      let after: NotificationDeliveryLogQuery['after'];
      for (let pages = 0; pages < 20; pages += 1) {
        const page = await s.deliveries.list({ accountId: 'acct-1', page: 1, limit: 7, ...f, ...(after ? { after } : {}) });
        ids.push(...page.items.map((r) => r.id));
        totals.add(page.total);
        if (!page.next) break;
        after = page.next;
      }
      return { ids, totals: [...totals] };
    };

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
      expect([page1.next !== undefined, page2.next !== undefined]).toEqual([true, false]);
      expect([page1.total, page2.total]).toEqual([4, 4]);
      expect(page2.items.map((r) => r.id)).toEqual(['a1']);
      expect((await s.deliveries.list({ accountId: 'acct-1', page: 1, limit: 10 })).items[1]).toEqual(rows[2]);
      expect((await s.deliveries.latest('acct-1', 'dlv_a'))?.id).toBe('a2');
      expect(await s.deliveries.latest('acct-2', 'dlv_a')).toBeNull();
    });

    it('walks a log of 50 attempts over several hours by cursor: every attempt once, newest first, the same total on every page', async () => {
      const rows = fiftyAttempts();
      for (const r of [...rows].reverse()) await s.deliveries.insert(r);
      const expected = [...rows].sort(newestFirst).map((r) => r.id);
      expect(await walk({})).toEqual({ ids: expected, totals: [50] });
      // Across more than a few hour buckets, ties of createdAt broken by id.
      expect(new Set(rows.map((r) => r.createdAt.toISOString().slice(0, 13))).size).toBeGreaterThanOrEqual(8);
    });

    it('walks every filter of the route by cursor, as the page form lists it', async () => {
      const rows = fiftyAttempts();
      for (const r of rows) await s.deliveries.insert(r);
      await s.deliveries.insert(anAttempt({ id: 'other-account', accountId: 'acct-2', createdAt: at(30) }));
      const filters: Array<Partial<NotificationDeliveryLogQuery>> = [
        { outcome: 'failed' }, { channel: 'telegram' }, { event: 'social_account_connected' },
        { event: 'upload_completed', channel: 'webhook' }, { event: 'upload_completed', outcome: 'delivered' }, { channel: 'slack', outcome: 'skipped' },
        { event: 'upload_completed', channel: 'webhook', outcome: 'failed' },
        { since: at(100), until: at(400) }, { since: at(95), outcome: 'failed' }, { until: at(233) }, { since: at(50), until: at(51) },
        { deliveryId: 'dlv_3' }, { deliveryId: 'dlv_3', outcome: 'failed' }, { deliveryId: 'dlv_3', since: at(200) }, { deliveryId: 'dlv_none' },
      ];
      for (const f of filters) {
        const expected = rows.filter((r) => matches(r, f)).sort(newestFirst).map((r) => r.id);
        const walked = await walk(f);
        expect({ f, ids: walked.ids }).toEqual({ f, ids: expected });
        expect(walked.totals).toEqual([expected.length]);
        const paged = (await s.deliveries.list({ accountId: 'acct-1', page: 1, limit: 100, ...f })).items.map((r) => r.id);
        expect({ f, ids: paged }).toEqual({ f, ids: expected });
      }
    });

    it('serves the page form\'s first, middle and last pages and the total', async () => {
      const rows = fiftyAttempts();
      for (const r of rows) await s.deliveries.insert(r);
      const expected = [...rows].sort(newestFirst).map((r) => r.id);
      const page = (n: number, q: Partial<NotificationDeliveryLogQuery> = {}) => s.deliveries.list({ accountId: 'acct-1', page: n, limit: 7, ...q });
      const first = await page(1);
      expect(first.items.map((r) => r.id)).toEqual(expected.slice(0, 7));
      const middle = await page(4);
      expect(middle.items.map((r) => r.id)).toEqual(expected.slice(21, 28));
      expect(middle.total).toBe(50);
      const stop = middle.items[middle.items.length - 1]!;
      expect(middle.next).toEqual({ hour: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}$/), t: stop.createdAt.getTime(), id: stop.id });
      const last = await page(8);
      expect(last.items.map((r) => r.id)).toEqual(expected.slice(49));
      expect(last.next).toBeUndefined();
      expect(last.total).toBe(50);
      expect((await page(9)).items).toEqual([]);
      // The cursor of a middle page goes on where the page form would.
      const after = await s.deliveries.list({ accountId: 'acct-1', page: 1, limit: 7, after: middle.next! });
      expect(after.items.map((r) => r.id)).toEqual(expected.slice(28, 35));
      const failed = rows.filter((r) => r.outcome === 'failed').sort(newestFirst).map((r) => r.id);
      const lastFailed = await page(Math.ceil(failed.length / 7), { outcome: 'failed' });
      expect(lastFailed.items.map((r) => r.id)).toEqual(failed.slice((Math.ceil(failed.length / 7) - 1) * 7));
      expect(lastFailed.total).toBe(failed.length);
    });

    it('answers a cursor sent with other filters with 400 invalid_cursor (use case)', async () => {
      for (const r of fiftyAttempts()) await s.deliveries.insert(r);
      const deps = { notifications: s } as unknown as NotificationDeps;
      const account = anOperator({ id: 'acct-1' });
      const first = await listDeliveries(deps, account, { limit: '7', outcome: 'failed' });
      expect(first).toMatchObject({ has_more: true, next_cursor: expect.any(String), total: expect.any(Number) });
      const second = await listDeliveries(deps, account, { limit: '7', outcome: 'failed', cursor: first.next_cursor });
      expect(second.deliveries[0]!.attempt_id).not.toBe(first.deliveries[0]!.attempt_id);
      await expect(listDeliveries(deps, account, { limit: '7', outcome: 'delivered', cursor: first.next_cursor })).rejects.toMatchObject({ kind: 'invalid_input', errorCode: 'invalid_cursor' });
      await expect(listDeliveries(deps, account, { limit: '7', cursor: first.next_cursor })).rejects.toMatchObject({ errorCode: 'invalid_cursor' });
      await expect(listDeliveries(deps, account, { cursor: 'not-a-cursor' })).rejects.toMatchObject({ errorCode: 'invalid_cursor' });
      // Walking the failed ones to the end by cursor.
      let page = first;
      const seen = [...first.deliveries.map((d) => d.attempt_id)];
      while (page.next_cursor) {
        page = await listDeliveries(deps, account, { limit: '7', outcome: 'failed', cursor: page.next_cursor });
        seen.push(...page.deliveries.map((d) => d.attempt_id));
      }
      expect(seen).toHaveLength(first.total);
      expect(new Set(seen).size).toBe(first.total);
    });

    it('finds the latest attempt of a delivery among its retries and redeliveries', async () => {
      await s.deliveries.insert(anAttempt({ id: 'r1', deliveryId: 'dlv_r', createdAt: at(10), outcome: 'failed' }));
      await s.deliveries.insert(anAttempt({ id: 'r3', deliveryId: 'dlv_r', createdAt: at(200), trigger: 'redelivery' }));
      await s.deliveries.insert(anAttempt({ id: 'r2', deliveryId: 'dlv_r', createdAt: at(70), outcome: 'skipped' }));
      await s.deliveries.insert(anAttempt({ id: 'o1', deliveryId: 'dlv_o', createdAt: at(300) }));
      expect((await s.deliveries.latest('acct-1', 'dlv_r'))?.id).toBe('r3');
      expect(await s.deliveries.latest('acct-1', 'dlv_x')).toBeNull();
    });

    it('removes expired attempts hour by hour, only those due, and the totals follow', async () => {
      // Expiring in several hours; the cleanup runs at hours' ends and inside an hour.
      for (let i = 0; i < 20; i += 1) {
        await s.deliveries.insert(anAttempt({ id: `e${String(i).padStart(2, '0')}`, createdAt: at(i), expiresAt: at(60 + i * 20), outcome: i % 2 ? 'failed' : 'delivered' }));
      }
      const left = async (q: Partial<NotificationDeliveryLogQuery> = {}) => {
        const page = await s.deliveries.list({ accountId: 'acct-1', page: 1, limit: 100, ...q });
        return { ids: page.items.map((r) => r.id), total: page.total };
      };
      const expires = (i: number) => at(60 + i * 20).getTime();
      const alive = (now: Date, outcome?: string) => Array.from({ length: 20 }, (_, i) => i)
        .filter((i) => expires(i) > now.getTime() && (outcome === undefined || (i % 2 ? 'failed' : 'delivered') === outcome))
        .map((i) => `e${String(i).padStart(2, '0')}`).reverse();
      expect(await s.deliveries.deleteExpired(at(59))).toBe(0);
      expect(await s.deliveries.deleteExpired(at(60))).toBe(1);
      expect(await left()).toEqual({ ids: alive(at(60)), total: 19 });
      // 02:10: the hours up to 02:00 wholly, and what is due in the hour 02:xx.
      expect(await s.deliveries.deleteExpired(at(130))).toBe(3);
      expect(await left()).toEqual({ ids: alive(at(130)), total: 16 });
      expect(await left({ outcome: 'failed' })).toEqual({ ids: alive(at(130), 'failed'), total: alive(at(130), 'failed').length });
      // Five hours on, at once.
      const later = at(130 + 5 * 60);
      const gone = 16 - alive(later).length;
      expect(await s.deliveries.deleteExpired(later)).toBe(gone);
      expect(await left()).toEqual({ ids: alive(later), total: alive(later).length });
      expect(await s.deliveries.deleteExpired(later)).toBe(0);
      expect(await s.deliveries.deleteExpired(at(10_000))).toBe(alive(later).length);
      expect(await left()).toEqual({ ids: [], total: 0 });
    });

    it('removes delivery attempts past their expiry in the cleanup', async () => {
      await s.deliveries.insert(anAttempt({ id: 'old', expiresAt: at(10) }));
      await s.deliveries.insert(anAttempt({ id: 'new', expiresAt: at(100) }));
      expect(await s.deliveries.deleteExpired(at(50))).toBe(1);
      expect((await s.deliveries.list({ accountId: 'acct-1', page: 1, limit: 10 })).items.map((r) => r.id)).toEqual(['new']);
    });

    it('cleans up handed outbox events hour by hour, by when they were handed, never a pending one', async () => {
      const notifier = s.outbox as unknown as { emit(e: unknown, k: string): Promise<void> };
      for (const k of ['h0', 'h1', 'h2', 'h5', 'pending']) await notifier.emit(anUploadCompletedEvent({ account_id: 'acct-1', title: k }), k);
      await s.outbox.markHanded(['h0'], at(0));
      await s.outbox.markHanded(['h1'], at(70));
      await s.outbox.markHanded(['h2', 'unknown'], at(130));
      await s.outbox.markHanded(['h5'], at(300));
      await s.outbox.markHanded([], at(300));
      expect(await s.outbox.deleteHandedBefore(at(60))).toBe(1);
      expect(await s.outbox.deleteHandedBefore(at(130))).toBe(1);
      expect(await s.outbox.find('h2')).not.toBeNull();
      expect(await s.outbox.deleteHandedBefore(at(10_000))).toBe(2);
      expect((await s.outbox.pending(10)).map((p) => p.key)).toEqual(['pending']);
      expect(await s.outbox.find('pending')).not.toBeNull();
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
      await s.outbox.markHanded(['k-1'], at(5));
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
