import { createMemoryStorage } from '../../adapters/memory/storage';
import { createMemoryRecordChanges } from '../../adapters/memory/record-changes';
import type { ConnectedAccount } from '../../core/domain/connected-account';
import type { RecordChange } from '../../core/ports/record-changes';
import type { ConnectedAccountRepository, ProfileRepository } from '../../core/ports/storage';
import { ConnectionReadCache, ProfileReadCache } from '../../core/usecases/connection-read-cache';
import { announcingChanges } from '../../core/usecases/record-changes';
import { connectionReads } from '../../apps/api/connection-reads';
import type { ApiDeps } from '../../apps/api/deps';

const TTL_MS = 3_000;

function fakeClock(start = '2026-03-01T00:00:00Z') {
  let now = new Date(start).getTime();
  return { now: () => new Date(now), advance: (ms: number) => { now += ms; } };
}

const connection = (over: Partial<ConnectedAccount> = {}): ConnectedAccount => ({
  id: 'conn-1', accountId: 'acc-1', profileUsername: 'alice', platform: 'discord', status: 'connected',
  platformUserId: 'u1', handle: '@u1', displayName: 'U1', avatarUrl: '', sealedCredentials: 'sealed',
  connectedAt: new Date('2026-03-01T00:00:00Z'), updatedAt: new Date('2026-03-01T00:00:00Z'), ...over,
} as ConnectedAccount);

/** Two "processes" over one store: a writer whose writes are announced, and an API that caches. */
async function setUp() {
  const storage = createMemoryStorage();
  await storage.profiles.insert({ accountId: 'acc-1', username: 'alice', createdAt: new Date('2026-03-01T00:00:00Z') } as never);
  await storage.connectedAccounts.upsert(connection());
  const feed = createMemoryRecordChanges();
  const announced: RecordChange[] = [];
  const writer = announcingChanges(storage, { publish: async (c) => { announced.push(c); await feed.publish(c); } });
  const reads = { connections: 0, profiles: 0 };
  const counted = {
    ...storage,
    connectedAccounts: { ...storage.connectedAccounts, find: (...a: Parameters<ConnectedAccountRepository['find']>) => { reads.connections += 1; return storage.connectedAccounts.find(...a); } },
    profiles: { ...storage.profiles, find: (...a: Parameters<ProfileRepository['find']>) => { reads.profiles += 1; return storage.profiles.find(...a); } },
  };
  const clock = fakeClock();
  const connectionCache = new ConnectionReadCache({ ttlMs: TTL_MS, clock });
  const profileCache = new ProfileReadCache({ ttlMs: TTL_MS, clock });
  connectionCache.follow(feed);
  profileCache.follow(feed);
  const { intake, reads: readRoutes } = connectionReads({ storage: counted, connectionCache, profileCache, changeFeed: feed } as unknown as ApiDeps);
  return { storage, writer, feed, announced, reads, clock, intake, readRoutes, connectionCache, profileCache };
}

describe('record change announcements', () => {
  it('announces each profile and connection write once it has settled, failed writes too', async () => {
    const { writer, announced } = await setUp();
    await writer.connectedAccounts.setStatus('conn-1', 'reauth_required', new Date());
    await writer.profiles.setPin('acc-1', 'alice', 'facebook_page_id', 'p1');
    await writer.connectedAccounts.upsert(connection({ id: 'conn-2', platform: 'bluesky' }));
    await writer.connectedAccounts.deleteByProfile('acc-1', 'alice');
    expect(announced).toEqual([
      { kind: 'connection', id: 'conn-1' },
      { kind: 'profile', accountId: 'acc-1', username: 'alice' },
      { kind: 'connection', id: 'conn-2' },
      { kind: 'connection-slot', accountId: 'acc-1', profileUsername: 'alice', platform: 'bluesky' },
      { kind: 'profile', accountId: 'acc-1', username: 'alice' },
    ]);
    const failing = announcingChanges({ ...createMemoryStorage(), connectedAccounts: { setStatus: async () => { throw new Error('db down'); } } as unknown as ConnectedAccountRepository },
      { publish: async (c) => { announced.push(c); } });
    await expect(failing.connectedAccounts.setStatus('conn-9', 'connected', new Date())).rejects.toThrow('db down');
    expect(announced.at(-1)).toEqual({ kind: 'connection', id: 'conn-9' });
  });

  it('reads at intake come from memory while the feed is live, and what another process writes is dropped at once', async () => {
    const { intake, reads, writer } = await setUp();
    const find = () => intake.storage.connectedAccounts.find('acc-1', 'alice', 'discord');
    expect((await find())!.status).toBe('connected');
    expect((await find())!.status).toBe('connected');
    expect(reads.connections).toBe(1);
    await writer.connectedAccounts.setStatus('conn-1', 'reauth_required', new Date());
    expect((await find())!.status).toBe('reauth_required');
    expect(reads.connections).toBe(2);

    const profile = () => intake.storage.profiles.find('acc-1', 'alice');
    expect((await profile())!.pins).toBeUndefined();
    await profile();
    expect(reads.profiles).toBe(1);
    await writer.profiles.setPin('acc-1', 'alice', 'facebook_page_id', 'page-7');
    expect((await profile())!.pins).toEqual({ facebook_page_id: 'page-7' });
    expect(reads.profiles).toBe(2);
  });

  it('a profile deleted elsewhere drops the profile and every connection of it', async () => {
    const { intake, writer } = await setUp();
    await intake.storage.profiles.find('acc-1', 'alice');
    await intake.storage.connectedAccounts.find('acc-1', 'alice', 'discord');
    await writer.profiles.delete('acc-1', 'alice');
    await writer.connectedAccounts.deleteByProfile('acc-1', 'alice');
    expect(await intake.storage.profiles.find('acc-1', 'alice')).toBeNull();
    expect(await intake.storage.connectedAccounts.find('acc-1', 'alice', 'discord')).toBeNull();
  });

  it('a connection made elsewhere in a slot read before is seen (the slot is announced)', async () => {
    const { intake, writer, storage } = await setUp();
    await writer.connectedAccounts.deleteIf('conn-1', connection().connectedAt);
    expect(await intake.storage.connectedAccounts.find('acc-1', 'alice', 'discord')).toBeNull();
    // A stale record under the slot's key with another id: only the slot announcement can drop it.
    await storage.connectedAccounts.upsert(connection({ id: 'conn-old' }));
    await intake.storage.connectedAccounts.find('acc-1', 'alice', 'discord');
    await writer.connectedAccounts.upsert(connection({ id: 'conn-new', handle: '@new' }));
    expect((await intake.storage.connectedAccounts.find('acc-1', 'alice', 'discord'))!.handle).toBe('@new');
  });

  it('reads storage every time while the feed is not live, and starts afresh when it is back', async () => {
    const { intake, reads, feed, storage, readRoutes } = await setUp();
    const find = () => intake.storage.connectedAccounts.find('acc-1', 'alice', 'discord');
    await find();
    feed.setLive(false);
    // Written while announcements were not arriving: nobody told this process.
    await storage.connectedAccounts.setStatus('conn-1', 'reauth_required', new Date());
    expect((await find())!.status).toBe('reauth_required');
    expect((await find())!.status).toBe('reauth_required');
    expect(reads.connections).toBe(3);
    await intake.storage.profiles.find('acc-1', 'alice');
    await intake.storage.profiles.find('acc-1', 'alice');
    expect(reads.profiles).toBe(2);
    // The read routes too (issue 29 h): a write nobody announced is seen by their next read.
    await readRoutes.storage.connectedAccounts.find('acc-1', 'alice', 'discord');
    await readRoutes.storage.connectedAccounts.find('acc-1', 'alice', 'discord');
    expect(reads.connections).toBe(5);
    feed.setLive(true);
    await readRoutes.storage.connectedAccounts.find('acc-1', 'alice', 'discord');
    expect((await find())!.status).toBe('reauth_required');
    expect(reads.connections).toBe(6);
  });

  it('a reset drops everything cached, a read in flight during it is not kept', async () => {
    const { intake, reads, feed, clock } = await setUp();
    await intake.storage.connectedAccounts.find('acc-1', 'alice', 'discord');
    await intake.storage.profiles.find('acc-1', 'alice');
    feed.reset();
    await intake.storage.connectedAccounts.find('acc-1', 'alice', 'discord');
    await intake.storage.profiles.find('acc-1', 'alice');
    expect(reads).toEqual({ connections: 2, profiles: 2 });
    // Past the TTL even a live feed goes back to storage.
    clock.advance(TTL_MS + 1);
    await intake.storage.profiles.find('acc-1', 'alice');
    expect(reads.profiles).toBe(3);
  });

  it('this process\'s own profile writes drop its entry without waiting for the announcement', async () => {
    const storage = createMemoryStorage();
    await storage.profiles.insert({ accountId: 'acc-1', username: 'bob', createdAt: new Date() } as never);
    const clock = fakeClock();
    const cache = new ProfileReadCache({ ttlMs: TTL_MS, clock });
    const reading = cache.reading(storage.profiles);
    await reading.find('acc-1', 'bob');
    await cache.tracking(storage.profiles).setUiLabels('acc-1', 'bob', { title: 'Hi' });
    expect((await reading.find('acc-1', 'bob'))!.uiLabels).toEqual({ title: 'Hi' });
    const copy = (await reading.find('acc-1', 'bob'))!;
    copy.username = 'mutated';
    expect((await reading.find('acc-1', 'bob'))!.username).toBe('bob');
  });
});
