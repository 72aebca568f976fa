import { createMemoryStorage } from '../../adapters/memory/storage';
import { createPlatformRegistry } from '../../adapters/platforms/registry';
import { createAesSecretBox } from '../../adapters/crypto/node-crypto';
import { PlatformError } from '../../core/domain/errors';
import { NO_SETTINGS } from '../../core/domain/settings';
import type { ConnectedAccount } from '../../core/domain/connected-account';
import type { ConnectedAccountRepository } from '../../core/ports/storage';
import type { CallContext, PlatformAdapter, PlatformCredentials } from '../../core/ports/platform';
import { ConnectionReadCache } from '../../core/usecases/connection-read-cache';
import { openCredentials, withConnection } from '../../core/usecases/connection-session';
import { connectionReads } from '../../apps/api/connection-reads';
import type { ApiDeps } from '../../apps/api/deps';
import { sealedCredentialsOf } from '../support/mothers';

const TTL_MS = 3_000;
const secrets = createAesSecretBox(Buffer.alloc(32, 7).toString('base64'));
const seal = (c: PlatformCredentials) => sealedCredentialsOf(secrets, { accountId: 'acc-1', profileUsername: 'alice', platform: 'tiktok' }, c);
const open = (c: ConnectedAccount | null) => (c ? openCredentials({ secrets }, c) : null);

/** A clock the test moves by hand. */
function fakeClock(start = '2026-03-01T00:00:00Z') {
  let now = new Date(start).getTime();
  return { now: () => new Date(now), advance: (ms: number) => { now += ms; } };
}

/**
 * A network that rotates refresh tokens like TikTok and X: a refresh token works once, and only
 * the newest access token is taken.
 */
function rotatingNetwork() {
  let generation = 1;
  const refreshedWith: string[] = [];
  const adapter: PlatformAdapter = {
    descriptor: { id: 'tiktok', displayName: 'TikTok', connect: 'oauth', endpoints: ['text'], limits: {}, settings: NO_SETTINGS },
    refresher: {
      async refresh(credentials) {
        refreshedWith.push(String(credentials.refresh_token));
        if (credentials.refresh_token !== `rt-${generation}`) {
          throw new PlatformError('tiktok', { kind: 'auth_expired', reason: 'invalid_grant' }, 'refresh token already used');
        }
        generation += 1;
        return { access_token: `at-${generation}`, refresh_token: `rt-${generation}` };
      },
    },
  };
  const call = async (ctx: CallContext) => {
    if (ctx.credentials.access_token !== `at-${generation}`) throw new PlatformError('tiktok', { kind: 'auth_expired', reason: 'token_expired' }, 'expired');
    return ctx.credentials.access_token;
  };
  return { adapter, call, refreshedWith };
}

/** The memory store, counting the reads that reach it. */
function countingStore(store: ConnectedAccountRepository) {
  const reads = { find: 0, findById: 0 };
  const counted: ConnectedAccountRepository = {
    ...store,
    find: (...args) => { reads.find += 1; return store.find(...args); },
    findById: (id) => { reads.findById += 1; return store.findById(id); },
  };
  return { counted, reads };
}

async function setUp(opts: { ttlMs?: number; maxEntries?: number } = {}) {
  const storage = createMemoryStorage();
  const clock = fakeClock();
  const at = clock.now();
  const connection = {
    id: 'conn-1', accountId: 'acc-1', profileUsername: 'alice', platform: 'tiktok', status: 'connected',
    platformUserId: 'u1', handle: '@u1', displayName: 'U1', avatarUrl: '',
    sealedCredentials: seal({ access_token: 'at-1', refresh_token: 'rt-1' }), connectedAt: at, updatedAt: at,
  } as ConnectedAccount;
  await storage.connectedAccounts.upsert(connection);
  /** "Another process": writes straight to storage, past this process's cache. */
  const elsewhere = storage.connectedAccounts;
  const { counted, reads } = countingStore(storage.connectedAccounts);
  const cache = new ConnectionReadCache({ ttlMs: opts.ttlMs ?? TTL_MS, clock, ...(opts.maxEntries ? { maxEntries: opts.maxEntries } : {}) });
  const reading = cache.reading(counted);
  const tracking = cache.tracking(counted);
  const find = () => reading.find('acc-1', 'alice', 'tiktok');
  return { storage, clock, connection, elsewhere, reads, cache, reading, tracking, find };
}

describe('ConnectionReadCache: connected accounts for the synchronous read paths', () => {
  it('answers a second read within the TTL from memory, even when storage changed meanwhile', async () => {
    const { clock, elsewhere, reads, find } = await setUp();
    expect(open(await find())).toMatchObject({ access_token: 'at-1' });
    await elsewhere.setStatus('conn-1', 'reauth_required', clock.now());
    clock.advance(TTL_MS - 1);
    expect(await find()).toMatchObject({ status: 'connected' });
    expect(reads.find).toBe(1);
  });

  it('reads storage again once the TTL has passed: another process\'s write is seen within the TTL', async () => {
    const { clock, elsewhere, reads, find } = await setUp();
    await find();
    await elsewhere.setStatus('conn-1', 'reauth_required', clock.now());
    clock.advance(TTL_MS);
    expect(await find()).toMatchObject({ status: 'reauth_required' });
    expect(reads.find).toBe(2);
  });

  it('drops the record on every write this process makes, through either view', async () => {
    const { clock, reads, find, reading, tracking } = await setUp();
    await find();
    await tracking.updateCredentials('conn-1', seal({ access_token: 'at-9', refresh_token: 'rt-9' }), clock.now());
    expect(open(await find())).toEqual({ access_token: 'at-9', refresh_token: 'rt-9' });
    expect(reads.find).toBe(2);
    const stored = (await find())!;
    await reading.setStatusIf('conn-1', stored.connectedAt, 'reauth_required', clock.now(), 'max_auth_strikes');
    expect(await find()).toMatchObject({ status: 'reauth_required', reauthReason: 'max_auth_strikes' });
    await tracking.deleteIf('conn-1', stored.connectedAt);
    expect(await find()).toBeNull();
    expect(reads.find).toBe(4);
  });

  it('a reconnect (upsert) and a profile deletion drop the record too', async () => {
    const { clock, connection, find, tracking } = await setUp();
    await find();
    await tracking.upsert({ ...connection, id: 'conn-new', handle: '@renamed', updatedAt: clock.now() });
    expect(await find()).toMatchObject({ handle: '@renamed' });
    await tracking.deleteByProfile('acc-1', 'alice');
    expect(await find()).toBeNull();
  });

  it('never stores a read that was in flight while a write landed', async () => {
    const { storage, clock, cache } = await setUp();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    let slowReads = 0;
    const slow: ConnectedAccountRepository = {
      ...storage.connectedAccounts,
      async find(...args) {
        slowReads += 1;
        const before = await storage.connectedAccounts.find(...args);
        if (slowReads === 1) await gate;
        return before;
      },
    };
    const reading = cache.reading(slow);
    const pending = reading.find('acc-1', 'alice', 'tiktok');
    await cache.tracking(slow).updateCredentials('conn-1', seal({ access_token: 'at-5', refresh_token: 'rt-5' }), clock.now());
    release();
    expect(open(await pending)).toMatchObject({ access_token: 'at-1' });
    expect(open(await reading.find('acc-1', 'alice', 'tiktok'))).toMatchObject({ access_token: 'at-5' });
    expect(slowReads).toBe(2);
  });

  it('shares one storage read among concurrent misses of one record', async () => {
    const { reads, find } = await setUp();
    const all = await Promise.all(Array.from({ length: 20 }, () => find()));
    expect(all.every((c) => c?.id === 'conn-1')).toBe(true);
    expect(reads.find).toBe(1);
  });

  it('keeps at most maxEntries records, the least recently used going first', async () => {
    const { storage, connection, reading, reads, cache } = await setUp({ maxEntries: 2 });
    for (const profile of ['bob', 'carol']) await storage.connectedAccounts.upsert({ ...connection, id: `conn-${profile}`, profileUsername: profile });
    await reading.find('acc-1', 'alice', 'tiktok');
    await reading.find('acc-1', 'bob', 'tiktok');
    await reading.find('acc-1', 'alice', 'tiktok');
    await reading.find('acc-1', 'carol', 'tiktok');
    expect(cache.size).toBe(2);
    expect(reads.find).toBe(3);
    await reading.find('acc-1', 'alice', 'tiktok');
    expect(reads.find).toBe(3);
    await reading.find('acc-1', 'bob', 'tiktok');
    expect(reads.find).toBe(4);
  });

  it('with a TTL of 0 reads storage every time', async () => {
    const { reads, find } = await setUp({ ttlMs: 0 });
    await find();
    await find();
    expect(reads.find).toBe(2);
  });

  it('does not keep a miss: a connection made elsewhere is seen on the next read', async () => {
    const { storage, connection, reading, reads } = await setUp();
    expect(await reading.find('acc-1', 'alice', 'x')).toBeNull();
    await storage.connectedAccounts.upsert({ ...connection, id: 'conn-x', platform: 'x' });
    expect(await reading.find('acc-1', 'alice', 'x')).toMatchObject({ id: 'conn-x' });
    expect(reads.find).toBe(2);
  });

  it('hands out copies: a caller changing its record does not change the cached one', async () => {
    const { find } = await setUp();
    const first = (await find())!;
    first.status = 'disconnected';
    expect(await find()).toMatchObject({ status: 'connected' });
  });
});

describe('the connection session over cached records', () => {
  async function sessionSetUp() {
    const base = await setUp();
    const network = rotatingNetwork();
    const deps = {
      storage: { connectedAccounts: base.reading }, secrets, clock: base.clock, platforms: createPlatformRegistry([network.adapter]), connectionCache: base.cache,
    };
    return { ...base, network, deps };
  }

  it('on auth_expired drops the record and re-reads storage: a token another process rotated is used, never refreshed again', async () => {
    const { clock, elsewhere, reads, find, network, deps } = await sessionSetUp();
    expect(open(await find())).toMatchObject({ access_token: 'at-1', refresh_token: 'rt-1' });
    // Another process (the worker's refresh-ahead) rotates the tokens and stores them.
    const rotated = await network.adapter.refresher!.refresh({ access_token: 'at-1', refresh_token: 'rt-1' });
    await elsewhere.updateCredentials('conn-1', seal(rotated), clock.now());

    // This process still holds the old record (within the TTL) and calls with it.
    const stale = (await find())!;
    expect(open(stale)).toMatchObject({ access_token: 'at-1' });
    const readsBefore = reads.findById;
    await expect(withConnection(deps, stale, network.call)).resolves.toBe('at-2');

    expect(network.refreshedWith).toEqual(['rt-1']);
    expect(reads.findById).toBe(readsBefore + 1);
    expect(open(await elsewhere.findById('conn-1'))).toEqual({ access_token: 'at-2', refresh_token: 'rt-2' });
    expect(await elsewhere.findById('conn-1')).toMatchObject({ status: 'connected' });
    // The stale record is gone: the next read goes to storage and finds the rotated tokens.
    const findsBefore = reads.find;
    expect(open(await find())).toMatchObject({ access_token: 'at-2' });
    expect(reads.find).toBe(findsBefore + 1);
  });

  it('a refresh made in this process is what the next read returns', async () => {
    const { clock, elsewhere, find, network, deps, reads } = await sessionSetUp();
    await elsewhere.updateCredentials('conn-1', seal({ access_token: 'at-0-revoked', refresh_token: 'rt-1' }), clock.now());
    const cached = (await find())!;
    await expect(withConnection(deps, cached, network.call)).resolves.toBe('at-2');
    expect(open(await find())).toEqual({ access_token: 'at-2', refresh_token: 'rt-2' });
    expect(reads.find).toBe(2);
  });

  it('a refused refresh marks reauth_required, and the next read sees it at once', async () => {
    const { find, network, deps, reads } = await sessionSetUp();
    const cached = (await find())!;
    // rt-1 is spent outside Herald: the session's refresh with it is refused.
    await network.adapter.refresher!.refresh({ refresh_token: 'rt-1' });
    await expect(withConnection(deps, cached, network.call)).rejects.toMatchObject({ failure: { kind: 'auth_expired' } });
    expect(await find()).toMatchObject({ status: 'reauth_required', reauthReason: 'token_refresh_threshold_exceeded' });
    expect(reads.find).toBe(2);
  });

  it('renews with the stored tokens when the cached ones were rotated elsewhere and are about to expire', async () => {
    const { clock, elsewhere, find, network, deps } = await sessionSetUp();
    await elsewhere.updateCredentials('conn-1', seal({ access_token: 'at-1', refresh_token: 'rt-1', expires_at: new Date(clock.now().getTime() + 60_000).toISOString() }), clock.now());
    const cached = (await find())!;
    const rotated = await network.adapter.refresher!.refresh({ refresh_token: 'rt-1' });
    await elsewhere.updateCredentials('conn-1', seal(rotated), clock.now());
    await expect(withConnection(deps, cached, network.call)).resolves.toBe('at-2');
    expect(network.refreshedWith).toEqual(['rt-1']);
    expect(open(await find())).toMatchObject({ access_token: 'at-2' });
  });
});

describe('connectionReads: the API routes\' views', () => {
  it('gives the read routes a cached find, and every route writes that drop the record', async () => {
    const { storage, clock } = await setUp();
    const { counted, reads } = countingStore(storage.connectedAccounts);
    const given = { storage: { ...storage, connectedAccounts: counted }, connectionCache: new ConnectionReadCache({ ttlMs: TTL_MS, clock }) } as unknown as ApiDeps;
    const views = connectionReads(given);
    const find = (d: ApiDeps) => d.storage.connectedAccounts.find('acc-1', 'alice', 'tiktok');
    await find(views.reads);
    await find(views.reads);
    expect(reads.find).toBe(1);
    await find(views.deps);
    expect(reads.find).toBe(2);
    await views.deps.storage.connectedAccounts.setStatus('conn-1', 'disconnected', clock.now());
    expect(await find(views.reads)).toMatchObject({ status: 'disconnected' });
    expect(reads.find).toBe(3);
    const uncached = connectionReads({ ...given, connectionCache: undefined } as ApiDeps);
    expect(uncached.reads).toBe(uncached.deps);
  });
});
