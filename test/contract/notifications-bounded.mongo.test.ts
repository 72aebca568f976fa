import { MongoClient, type Db, type Document } from 'mongodb';
import { bucketReadBound } from '../../adapters/mongo/bucket-list';
import { createMongoNotificationDeliveryLog, deliveryAttemptCounterDeltas, toDeliveryAttemptDoc } from '../../adapters/mongo/notifications/delivery-log';
import { createMongoNotificationOutbox } from '../../adapters/mongo/notifications/outbox';
import { createMongoOAuthStates } from '../../adapters/mongo/oauth-states';
import { hourBucket, listCountersFor } from '../../adapters/mongo/list-counters';
import type { DeliveryAttemptRecord, NotificationDeliveryLogRepository } from '../../core/ports/storage/notification-delivery-log';
import { anUploadCompletedEvent } from '../support/mothers';
import { MONGODB_URI, testDatabaseName } from '../support/mongo-db';

/**
 * The delivery log, the outbox's pending walk and an expiry sweep read a bounded number of
 * documents however much history is stored (docs/storage/lists.md): 2,000 records in old hours,
 * and the commands each read issues, counted with the driver's command monitoring.
 */
const HOUR = 3600_000;

interface Reads {
  /** find / getMore commands per collection. */
  finds: Record<string, number>;
  /** Documents those commands returned, per collection. */
  docs: Record<string, number>;
  /** Other commands by name (delete, update, insert). */
  other: Record<string, number>;
}

function monitor(client: MongoClient) {
  let reads: Reads = { finds: {}, docs: {}, other: {} };
  const pending = new Map<number, string>();
  client.on('commandStarted', (e) => {
    const cmd = e.command as Document;
    if (e.commandName === 'find' || e.commandName === 'getMore') {
      const col = String(e.commandName === 'find' ? cmd.find : cmd.collection);
      reads.finds[col] = (reads.finds[col] ?? 0) + 1;
      pending.set(e.requestId, col);
    } else {
      reads.other[e.commandName] = (reads.other[e.commandName] ?? 0) + 1;
    }
  });
  client.on('commandSucceeded', (e) => {
    const col = pending.get(e.requestId);
    if (col === undefined) return;
    pending.delete(e.requestId);
    const cursor = (e.reply as Document).cursor as Document | undefined;
    const batch = (cursor?.firstBatch ?? cursor?.nextBatch ?? []) as unknown[];
    reads.docs[col] = (reads.docs[col] ?? 0) + batch.length;
  });
  return {
    async measure<T>(op: () => Promise<T>): Promise<{ result: T; reads: Reads }> {
      reads = { finds: {}, docs: {}, other: {} };
      const result = await op();
      return { result, reads };
    },
  };
}

describe('bounded reads on FerretDB (mongo only)', () => {
  let client: MongoClient;
  let db: Db;
  let watch: ReturnType<typeof monitor>;
  const now = new Date(Math.floor(Date.now() / HOUR) * HOUR + 20 * 60_000);

  beforeAll(async () => {
    client = new MongoClient(MONGODB_URI, { monitorCommands: true, serverSelectionTimeoutMS: 5000 });
    await client.connect();
    db = client.db(testDatabaseName());
    watch = monitor(client);
  });
  afterAll(async () => {
    await db.dropDatabase().catch(() => undefined);
    await client.close();
  });

  describe('the delivery log', () => {
    let log: NotificationDeliveryLogRepository;
    const attempt = (i: number, createdAt: Date): DeliveryAttemptRecord => ({
      id: `att_${String(i).padStart(5, '0')}`, accountId: 'acct-big', deliveryId: `dlv_${i % 500}`, eventKey: `k-${i}`,
      event: i % 4 === 0 ? 'social_account_connected' : 'upload_completed', channel: i % 3 === 0 ? 'telegram' : 'webhook',
      url: 'https://r.example.test/h', statusCode: 200, latencyMs: 5, error: null, response: null,
      outcome: i % 5 === 0 ? 'failed' : 'delivered', trigger: 'event', createdAt, expiresAt: new Date(createdAt.getTime() + 60 * 24 * HOUR),
    });
    const OLD = 2000;
    const RECENT = 30;

    beforeAll(async () => {
      log = await createMongoNotificationDeliveryLog(db);
      // 2,000 attempts 10 an hour over 200 hours a month ago, 30 in the last three hours.
      const old = Array.from({ length: OLD }, (_, i) => attempt(i, new Date(now.getTime() - 30 * 24 * HOUR + Math.floor(i / 10) * HOUR + (i % 10) * 60_000)));
      const recent = Array.from({ length: RECENT }, (_, i) => attempt(OLD + i, new Date(now.getTime() - 3 * HOUR + i * 6 * 60_000)));
      const all = [...old, ...recent];
      const counters = await listCountersFor(db);
      await counters.add(all.flatMap((r) => deliveryAttemptCounterDeltas(r)));
      await db.collection('delivery_attempts').insertMany(all.map(toDeliveryAttemptDoc));
    }, 120_000);

    const bucketsOnly = (reads: Reads, maxBuckets: number, maxDocs: number) => {
      expect(reads.finds.list_counters).toBe(1);
      expect(reads.finds.delivery_attempts ?? 0).toBeLessThanOrEqual(maxBuckets);
      expect(reads.docs.delivery_attempts ?? 0).toBeLessThanOrEqual(maxDocs);
    };

    it('reads the counters and only the hours a page falls in: first, middle and last page, cursor, filter', async () => {
      const first = await watch.measure(() => log.list({ accountId: 'acct-big', page: 1, limit: 10 }));
      expect(first.result.total).toBe(OLD + RECENT);
      expect(first.result.items.map((r) => r.id)).toEqual(Array.from({ length: 10 }, (_, i) => `att_${String(OLD + RECENT - 1 - i).padStart(5, '0')}`));
      bucketsOnly(first.reads, 3, 30);

      const middle = await watch.measure(() => log.list({ accountId: 'acct-big', page: 100, limit: 10 }));
      expect(middle.result.items).toHaveLength(10);
      expect(middle.result.items[0]!.id).toBe(`att_${String(OLD + RECENT - 1 - 990).padStart(5, '0')}`);
      bucketsOnly(middle.reads, 2, 20);

      const last = await watch.measure(() => log.list({ accountId: 'acct-big', page: 203, limit: 10 }));
      expect(last.result.items.map((r) => r.id)).toEqual(Array.from({ length: 10 }, (_, i) => `att_${String(9 - i).padStart(5, '0')}`));
      expect(last.result.next).toBeUndefined();
      bucketsOnly(last.reads, 1, 10);

      const second = await watch.measure(() => log.list({ accountId: 'acct-big', page: 1, limit: 10, after: first.result.next! }));
      expect(second.result.items[0]!.id).toBe(`att_${String(OLD + RECENT - 11).padStart(5, '0')}`);
      bucketsOnly(second.reads, 3, 30);

      const failed = await watch.measure(() => log.list({ accountId: 'acct-big', page: 20, limit: 10, outcome: 'failed', channel: 'webhook' }));
      expect(failed.result.items.every((r) => r.outcome === 'failed' && r.channel === 'webhook')).toBe(true);
      expect(failed.result.items).toHaveLength(10);
      // Under 10 such attempts an hour: the page falls in a day read whole once (bucket-list.ts), or in a few hours each read once.
      bucketsOnly(failed.reads, 10, bucketReadBound(10));

      // 120 and 121 hours into the old ones: the range's two edge hours are read (counted exactly), nothing else.
      const since = new Date(now.getTime() - 30 * 24 * HOUR + 120 * HOUR);
      const range = await watch.measure(() => log.list({ accountId: 'acct-big', page: 1, limit: 10, since, until: new Date(since.getTime() + 90 * 60_000) }));
      expect(range.result.total).toBe(20);
      expect(range.result.items[0]!.id).toBe('att_01219');
      bucketsOnly(range.reads, 2, 20);

      const oneDelivery = await watch.measure(() => log.list({ accountId: 'acct-big', page: 1, limit: 10, deliveryId: 'dlv_7' }));
      // dlv_7: attempts 7, 507, 1007, 1507 and 2007.
      expect(oneDelivery.result.total).toBe(5);
      expect(oneDelivery.reads.docs.delivery_attempts).toBe(5);
      expect(oneDelivery.reads.finds.list_counters ?? 0).toBe(0);

      const latest = await watch.measure(() => log.latest('acct-big', 'dlv_7'));
      expect(latest.result?.id).toBe('att_02007');
      expect(latest.reads.docs.delivery_attempts).toBe(5);
    }, 60_000);

    it('sweeps expiry hour by hour: no attempt read but the due ones, one equality delete per hour', async () => {
      const sweep = await watch.measure(() => log.deleteExpired(now));
      expect(sweep.result).toBe(0);
      // The current hour's bucket (none due), and the cursor.
      expect(sweep.reads.docs.delivery_attempts ?? 0).toBe(0);
      expect(sweep.reads.finds.delivery_attempts ?? 0).toBeLessThanOrEqual(7 * 24 + 1);
      const again = await watch.measure(() => log.deleteExpired(new Date(now.getTime() + 60_000)));
      expect(again.reads.finds.delivery_attempts ?? 0).toBe(1);
      expect(again.reads.finds.hour_sweeps).toBe(1);
    }, 60_000);
  });

  describe('the notification outbox', () => {
    it('finds pending events without reading the handed ones, and cleans handed ones hour by hour', async () => {
      const outbox = await createMongoNotificationOutbox(db);
      const events = db.collection('events');
      const base = now.getTime() - 100 * HOUR;
      await events.insertMany(Array.from({ length: 2000 }, (_, i) => {
        const createdAt = new Date(base + Math.floor(i / 20) * HOUR);
        const deliveredAt = new Date(createdAt.getTime() + 1000);
        return { deliveryKey: `old-${i}`, event: anUploadCompletedEvent({ account_id: 'acct-big' }), createdAt, deliveredAt, hh: hourBucket(deliveredAt) };
      }));
      await outbox.emit(anUploadCompletedEvent({ account_id: 'acct-big', title: 'one' }), 'new-1');
      await outbox.emit(anUploadCompletedEvent({ account_id: 'acct-big', title: 'two' }), 'new-2');

      const first = await watch.measure(() => outbox.pending(10));
      expect(first.result.map((e) => e.key)).toEqual(['new-1', 'new-2']);
      expect(first.reads.docs.events).toBe(2);
      const second = await watch.measure(() => outbox.pending(10));
      expect(second.result.map((e) => e.key)).toEqual(['new-1', 'new-2']);
      // The walk left the empty hours behind: the last hour or two from now.
      expect(second.reads.finds.events).toBeLessThanOrEqual(2);
      expect(second.reads.docs.events).toBe(2);
      const one = await watch.measure(() => outbox.pending(1));
      expect(one.result.map((e) => e.key)).toEqual(['new-1']);
      expect(one.reads.docs.events).toBe(1);

      // Handed 100 to 50 hours ago: the cleanup of those handed before 60 hours ago.
      const cleanup = await watch.measure(() => outbox.deleteHandedBefore(new Date(now.getTime() - 60 * HOUR)));
      expect(cleanup.result).toBe(40 * 20);
      expect(cleanup.reads.docs.events ?? 0).toBeLessThanOrEqual(20);
      expect(await events.countDocuments({})).toBe(2000 - 800 + 2);
    }, 60_000);
  });

  describe('an expiry sweep (oauth states)', () => {
    it('reads none of the records not yet due', async () => {
      const states = await createMongoOAuthStates(db);
      const year = now.getTime() + 200 * 24 * HOUR;
      await db.collection('oauth_states').insertMany(Array.from({ length: 2000 }, (_, i) => {
        const expiresAt = new Date(year + i * 60_000);
        return { _id: `s-${i}` as unknown as Document['_id'], accountId: 'a', profileUsername: 'p', platform: 'x', redirectUri: 'https://r.test', expiresAt, xh: hourBucket(expiresAt) };
      }));
      await states.insert({ id: 'due', accountId: 'a', profileUsername: 'p', platform: 'x', redirectUri: 'https://r.test', expiresAt: new Date(now.getTime() - 60_000) });
      const sweep = await watch.measure(() => states.deleteExpired(now));
      expect(sweep.result).toBe(1);
      expect(sweep.reads.docs.oauth_states ?? 0).toBe(1);
      expect(await db.collection('oauth_states').countDocuments({})).toBe(2000);
    }, 60_000);
  });
});
