import Redis from 'ioredis';
import { createMongoStorage } from '../../adapters/mongo/storage';
import { createRedisRecordChangeFeed, createRedisRecordChangePublisher } from '../../adapters/redis/record-changes';
import type { ConnectedAccount } from '../../core/domain/connected-account';
import type { RecordChange } from '../../core/ports/record-changes';
import { ConnectionReadCache, ProfileReadCache } from '../../core/usecases/connection-read-cache';
import { announcingChanges } from '../../core/usecases/record-changes';
import { connectionReads } from '../../apps/api/connection-reads';
import type { ApiDeps } from '../../apps/api/deps';
import { systemClock } from '../../adapters/crypto/node-crypto';
import { useTestDatabase } from '../support/mongo-db';
import { useTestRedis } from '../support/redis';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Generous bounds: the tests wait on state, never on the machine being fast. */
const WAIT_MS = 20_000;

async function until(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Record change announcements on the real Redis (PUBLISH / SUBSCRIBE), and the API's intake caches
 * following them over the real MongoDB-wire database: a write by "another daemon" (its own
 * storage, announcing) is what intake reads next, even with a TTL far longer than the test.
 */
describe('record changes on Redis', () => {
  const { redis, prefix } = useTestRedis('changes');
  const db = useTestDatabase();
  const feeds: Array<{ close(): Promise<void> }> = [];
  afterAll(async () => {
    for (const f of feeds) await f.close();
  });

  const feedOn = (channel: string) => {
    const feed = createRedisRecordChangeFeed(REDIS_URL, { channel, connectionName: `${prefix}-${channel.split(':').pop()}` });
    feeds.push(feed);
    return feed;
  };

  it('delivers each announcement to every subscriber, live once subscribed, ignoring what is not one', async () => {
    const channel = `${prefix}:a`;
    const feeds2 = [feedOn(channel), feedOn(channel)];
    const got: RecordChange[][] = [[], []];
    feeds2.forEach((f, i) => f.subscribe((c) => got[i]!.push(c), () => undefined));
    await until('both feeds live', () => feeds2.every((f) => f.live()));
    const publisher = createRedisRecordChangePublisher(redis(), { channel });
    await redis().publish(channel, 'not json');
    await redis().publish(channel, JSON.stringify({ k: 'x' }));
    const changes: RecordChange[] = [
      { kind: 'connection', id: 'c1' },
      { kind: 'connection-slot', accountId: 'a1', profileUsername: 'alice', platform: 'x' },
      { kind: 'profile', accountId: 'a1', username: 'alice' },
    ];
    for (const c of changes) await publisher.publish(c);
    await until('three announcements on both', () => got.every((g) => g.length >= 3));
    expect(got).toEqual([changes, changes]);
  });

  it('goes not live and resets when its connection drops, live again once resubscribed', async () => {
    const channel = `${prefix}:b`;
    const feed = feedOn(channel);
    let resets = 0;
    const got: RecordChange[] = [];
    feed.subscribe((c) => got.push(c), () => { resets += 1; });
    await until('live', () => feed.live());
    // This feed's own subscriber connection, by its name.
    const clients = (await redis().client('LIST')) as string;
    const ours = clients.split('\n').filter((l) => l.includes(` name=${prefix}-b `));
    expect(ours).toHaveLength(1);
    await redis().client('KILL', 'ID', /\bid=(\d+)/.exec(ours[0]!)![1]!);
    await until('a reset after the drop', () => resets >= 1);
    await until('live again', () => feed.live());
    await createRedisRecordChangePublisher(redis(), { channel }).publish({ kind: 'connection', id: 'after' });
    await until('the announcement after resubscribing', () => got.some((c) => c.kind === 'connection' && c.id === 'after'));
  });

  it('intake sees another daemon\'s writes at once, with a TTL longer than the test', async () => {
    const channel = `${prefix}:c`;
    const feed = feedOn(channel);
    const publisherRedis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    try {
      // "The worker": its own storage over the same database, announcing.
      const worker = announcingChanges(await createMongoStorage(db()), createRedisRecordChangePublisher(publisherRedis, { channel }));
      // "The API": its own storage, caches following the feed.
      const stored = await createMongoStorage(db());
      const connectionCache = new ConnectionReadCache({ ttlMs: 3_600_000, clock: systemClock });
      const profileCache = new ProfileReadCache({ ttlMs: 3_600_000, clock: systemClock });
      connectionCache.follow(feed);
      profileCache.follow(feed);
      const { intake } = connectionReads({ storage: stored, connectionCache, profileCache, changeFeed: feed } as unknown as ApiDeps);
      await until('live', () => feed.live());

      const at = new Date();
      await worker.profiles.insert({ accountId: 'acc-1', username: 'alice', createdAt: at } as never);
      await worker.connectedAccounts.upsert({
        id: 'conn-1', accountId: 'acc-1', profileUsername: 'alice', platform: 'discord', status: 'connected',
        platformUserId: 'u1', handle: '@u1', displayName: 'U1', avatarUrl: '', sealedCredentials: 'sealed', connectedAt: at, updatedAt: at,
      } as ConnectedAccount);
      const connection = () => intake.storage.connectedAccounts.find('acc-1', 'alice', 'discord');
      const profile = () => intake.storage.profiles.find('acc-1', 'alice');
      expect((await connection())!.status).toBe('connected');
      expect((await profile())!.pins).toBeUndefined();
      // The insert's and upsert's own announcements may still arrive and drop what was read first.
      await until('the connection held', async () => (await connection(), connectionCache.size === 1));
      await until('the profile held', async () => (await profile(), profileCache.size === 1));

      await worker.connectedAccounts.setStatus('conn-1', 'reauth_required', new Date());
      await worker.profiles.setPin('acc-1', 'alice', 'facebook_page_id', 'page-1');
      await until('the reauth mark at intake', async () => (await connection())?.status === 'reauth_required');
      await until('the pin at intake', async () => (await profile())?.pins?.facebook_page_id === 'page-1');
    } finally {
      publisherRedis.disconnect();
    }
  });
});
