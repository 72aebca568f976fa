import { DuplicateKeyError, type Storage, type UploadHistoryQuery } from '../../core/ports/storage';
import type { UploadRequest } from '../../core/domain/upload';
import {
  aConnectedAccount,
  aProfile,
  aTargetResult,
  anApiKey,
  anOperator,
  anUpload,
  at,
} from '../support/mothers';

export interface StorageUnderTest {
  storage: Storage;
  cleanup(): Promise<void>;
}

/**
 * The behaviour every Storage adapter must show. Each test gets a fresh, empty store from `make`.
 */
export function storageContract(name: string, make: () => Promise<StorageUnderTest>): void {
  describe(`Storage contract: ${name}`, () => {
    let storage: Storage;
    let current: StorageUnderTest | undefined;

    beforeEach(async () => {
      current = await make();
      storage = current.storage;
    });

    afterEach(async () => {
      const done = current;
      current = undefined;
      if (done) await done.cleanup();
    });

    describe('operator accounts', () => {
      it('stores an account and finds it by id and by email, dates as Date', async () => {
        const account = anOperator({ plan: 'basic' });
        await storage.operators.insert(account);

        const byId = await storage.operators.findById(account.id);
        const byEmail = await storage.operators.findByEmail(account.email);

        expect(byId).toEqual(account);
        expect(byEmail).toEqual(account);
        expect(byId?.createdAt).toBeInstanceOf(Date);
        expect(byId).not.toHaveProperty('_id');
      });

      it('answers null for an unknown id or email', async () => {
        await storage.operators.insert(anOperator());

        expect(await storage.operators.findById('no-such-account')).toBeNull();
        expect(await storage.operators.findByEmail('nobody@example.test')).toBeNull();
      });

      it('rejects a second account with the same email and keeps the first', async () => {
        const first = anOperator({ email: 'taken@example.test' });
        await storage.operators.insert(first);

        await expect(storage.operators.insert(anOperator({ email: 'taken@example.test' }))).rejects.toBeInstanceOf(
          DuplicateKeyError,
        );
        expect(await storage.operators.findByEmail('taken@example.test')).toEqual(first);
      });

      it('updates the plan of one account only', async () => {
        const account = anOperator({ plan: 'free' });
        const other = anOperator({ plan: 'free' });
        await storage.operators.insert(account);
        await storage.operators.insert(other);

        await storage.operators.updatePlan(account.id, 'business');

        expect(await storage.operators.findById(account.id)).toEqual({ ...account, plan: 'business' });
        expect(await storage.operators.findById(other.id)).toEqual(other);
      });

      it('ignores a plan update of an unknown account', async () => {
        await storage.operators.updatePlan('no-such-account', 'basic');

        expect(await storage.operators.findById('no-such-account')).toBeNull();
      });

      it('hands out copies: mutating inputs or results does not change stored state', async () => {
        const account = anOperator({ plan: 'free' });
        await storage.operators.insert(account);
        const snapshot = structuredClone(account);

        account.plan = 'advanced';
        account.createdAt.setTime(0);
        const read = await storage.operators.findById(snapshot.id);
        read!.email = 'mutated@example.test';
        read!.createdAt.setTime(1);

        expect(await storage.operators.findById(snapshot.id)).toEqual(snapshot);
      });
    });

    describe('api keys', () => {
      it('stores a key and finds it by hash, with null revocation and last use', async () => {
        const key = anApiKey({ accountId: 'acct-1' });
        await storage.apiKeys.insert(key);

        const found = await storage.apiKeys.findByHash(key.hash);

        expect(found).toEqual(key);
        expect(found?.revokedAt).toBeNull();
        expect(found?.lastUsedAt).toBeNull();
        expect(found?.createdAt).toBeInstanceOf(Date);
        expect(await storage.apiKeys.findByHash('sha256:unknown')).toBeNull();
      });

      it('rejects a second key with the same hash', async () => {
        await storage.apiKeys.insert(anApiKey({ hash: 'sha256:same' }));

        await expect(storage.apiKeys.insert(anApiKey({ hash: 'sha256:same' }))).rejects.toBeInstanceOf(
          DuplicateKeyError,
        );
      });

      it('lists the keys of one account, oldest first', async () => {
        const newer = anApiKey({ accountId: 'acct-1', createdAt: at(10) });
        const older = anApiKey({ accountId: 'acct-1', createdAt: at(1) });
        const foreign = anApiKey({ accountId: 'acct-2' });
        for (const k of [newer, foreign, older]) await storage.apiKeys.insert(k);

        expect(await storage.apiKeys.listByAccount('acct-1')).toEqual([older, newer]);
        expect(await storage.apiKeys.listByAccount('acct-3')).toEqual([]);
      });

      it('revokes an unrevoked key of the account once', async () => {
        const key = anApiKey({ accountId: 'acct-1' });
        await storage.apiKeys.insert(key);

        expect(await storage.apiKeys.revoke('acct-1', key.id, at(5))).toBe(true);
        expect(await storage.apiKeys.findByHash(key.hash)).toEqual({ ...key, revokedAt: at(5) });

        expect(await storage.apiKeys.revoke('acct-1', key.id, at(9))).toBe(false);
        expect((await storage.apiKeys.findByHash(key.hash))?.revokedAt).toEqual(at(5));
      });

      it('does not revoke a key of another account or an unknown key', async () => {
        const key = anApiKey({ accountId: 'acct-1' });
        await storage.apiKeys.insert(key);

        expect(await storage.apiKeys.revoke('acct-2', key.id, at(5))).toBe(false);
        expect(await storage.apiKeys.revoke('acct-1', 'no-such-key', at(5))).toBe(false);
        expect(await storage.apiKeys.findByHash(key.hash)).toEqual(key);
      });

      it('records the last use of a key', async () => {
        const key = anApiKey();
        const other = anApiKey();
        await storage.apiKeys.insert(key);
        await storage.apiKeys.insert(other);

        await storage.apiKeys.touch(key.id, at(1));
        await storage.apiKeys.touch(key.id, at(2));
        await storage.apiKeys.touch('no-such-key', at(3));

        expect(await storage.apiKeys.findByHash(key.hash)).toEqual({ ...key, lastUsedAt: at(2) });
        expect(await storage.apiKeys.findByHash(other.hash)).toEqual(other);
      });

      it('hands out copies', async () => {
        const key = anApiKey({ accountId: 'acct-1' });
        await storage.apiKeys.insert(key);
        const snapshot = structuredClone(key);

        key.name = 'mutated';
        const [listed] = await storage.apiKeys.listByAccount('acct-1');
        listed!.createdAt.setTime(0);
        listed!.name = 'mutated too';

        expect(await storage.apiKeys.findByHash(snapshot.hash)).toEqual(snapshot);
      });
    });

    describe('profiles', () => {
      it('stores a profile and finds it by account and username', async () => {
        const profile = aProfile({ accountId: 'acct-1', uiLabels: { logo: 'https://l.example.test/a.png' } });
        await storage.profiles.insert(profile);

        const found = await storage.profiles.find('acct-1', profile.username);

        expect(found).toEqual(profile);
        expect(found?.createdAt).toBeInstanceOf(Date);
        expect(found).not.toHaveProperty('_id');
        expect(await storage.profiles.find('acct-2', profile.username)).toBeNull();
      });

      it('rejects a second profile with the same username in the same account', async () => {
        await storage.profiles.insert(aProfile({ accountId: 'acct-1', username: 'alice' }));

        await expect(storage.profiles.insert(aProfile({ accountId: 'acct-1', username: 'alice' }))).rejects.toBeInstanceOf(
          DuplicateKeyError,
        );
        expect(await storage.profiles.count('acct-1')).toBe(1);
      });

      it('allows the same username under another account', async () => {
        const mine = aProfile({ accountId: 'acct-1', username: 'alice' });
        const theirs = aProfile({ accountId: 'acct-2', username: 'alice', uiLabels: { x: 'y' } });
        await storage.profiles.insert(mine);
        await storage.profiles.insert(theirs);

        expect(await storage.profiles.find('acct-1', 'alice')).toEqual(mine);
        expect(await storage.profiles.find('acct-2', 'alice')).toEqual(theirs);
      });

      it('lists and counts the profiles of one account, oldest first', async () => {
        const b = aProfile({ accountId: 'acct-1', username: 'bob', createdAt: at(2) });
        const a = aProfile({ accountId: 'acct-1', username: 'alice', createdAt: at(1) });
        const foreign = aProfile({ accountId: 'acct-2', username: 'carol' });
        for (const p of [b, foreign, a]) await storage.profiles.insert(p);

        expect(await storage.profiles.list('acct-1')).toEqual([a, b]);
        expect(await storage.profiles.count('acct-1')).toBe(2);
        expect(await storage.profiles.count('acct-2')).toBe(1);
        expect(await storage.profiles.count('acct-3')).toBe(0);
        expect(await storage.profiles.list('acct-3')).toEqual([]);
      });

      it('deletes one profile and says whether there was one', async () => {
        const mine = aProfile({ accountId: 'acct-1', username: 'alice' });
        const theirs = aProfile({ accountId: 'acct-2', username: 'alice' });
        await storage.profiles.insert(mine);
        await storage.profiles.insert(theirs);

        expect(await storage.profiles.delete('acct-1', 'alice')).toBe(true);
        expect(await storage.profiles.delete('acct-1', 'alice')).toBe(false);
        expect(await storage.profiles.find('acct-1', 'alice')).toBeNull();
        expect(await storage.profiles.count('acct-1')).toBe(0);
        expect(await storage.profiles.find('acct-2', 'alice')).toEqual(theirs);
      });

      it('accepts the username again after a delete', async () => {
        await storage.profiles.insert(aProfile({ accountId: 'acct-1', username: 'alice' }));
        await storage.profiles.delete('acct-1', 'alice');
        const again = aProfile({ accountId: 'acct-1', username: 'alice', createdAt: at(3) });

        await storage.profiles.insert(again);

        expect(await storage.profiles.find('acct-1', 'alice')).toEqual(again);
      });

      it('hands out copies', async () => {
        const profile = aProfile({ accountId: 'acct-1', username: 'alice', uiLabels: { a: '1' } });
        await storage.profiles.insert(profile);
        const snapshot = structuredClone(profile);

        profile.uiLabels.a = 'mutated';
        const found = await storage.profiles.find('acct-1', 'alice');
        found!.uiLabels.b = 'added';
        const [listed] = await storage.profiles.list('acct-1');
        listed!.createdAt.setTime(0);

        expect(await storage.profiles.find('acct-1', 'alice')).toEqual(snapshot);
      });
    });

    describe('connected accounts', () => {
      const key = { accountId: 'acct-1', profileUsername: 'alice' } as const;

      it('inserts a new connection and finds it by id and by (account, profile, platform)', async () => {
        const conn = aConnectedAccount({ ...key, platform: 'linkedin', capabilities: ['post'] });

        const returned = await storage.connectedAccounts.upsert(conn);

        expect(returned).toEqual(conn);
        expect(await storage.connectedAccounts.findById(conn.id)).toEqual(conn);
        expect(await storage.connectedAccounts.find('acct-1', 'alice', 'linkedin')).toEqual(conn);
        expect((await storage.connectedAccounts.findById(conn.id))?.connectedAt).toBeInstanceOf(Date);
        expect(await storage.connectedAccounts.find('acct-1', 'alice', 'x')).toBeNull();
        expect(await storage.connectedAccounts.find('acct-2', 'alice', 'linkedin')).toBeNull();
        expect(await storage.connectedAccounts.findById('no-such-connection')).toBeNull();
      });

      it('replaces the one connection of (account, profile, platform), keeping its id', async () => {
        const first = aConnectedAccount({ ...key, platform: 'x', capabilities: ['post'], status: 'reauth_required' });
        await storage.connectedAccounts.upsert(first);
        const second = aConnectedAccount({ ...key, platform: 'x', handle: '@new', connectedAt: at(5), updatedAt: at(5) });

        const returned = await storage.connectedAccounts.upsert(second);

        const expected = { ...second, id: first.id };
        expect(returned).toEqual(expected);
        expect(returned).not.toHaveProperty('capabilities');
        expect(await storage.connectedAccounts.findById(first.id)).toEqual(expected);
        expect(await storage.connectedAccounts.findById(second.id)).toBeNull();
        expect(await storage.connectedAccounts.listByProfile('acct-1', 'alice')).toEqual([expected]);
      });

      it('keeps one connection per platform, profile and account', async () => {
        const x = aConnectedAccount({ ...key, platform: 'x' });
        const bluesky = aConnectedAccount({ ...key, platform: 'bluesky' });
        const otherProfile = aConnectedAccount({ ...key, profileUsername: 'bob', platform: 'x' });
        const otherAccount = aConnectedAccount({ ...key, accountId: 'acct-2', platform: 'x' });
        for (const c of [x, bluesky, otherProfile, otherAccount]) await storage.connectedAccounts.upsert(c);

        expect(await storage.connectedAccounts.listByProfile('acct-1', 'alice')).toEqual([bluesky, x]);
        expect(await storage.connectedAccounts.listByProfile('acct-1', 'bob')).toEqual([otherProfile]);
        expect(await storage.connectedAccounts.listByProfile('acct-2', 'alice')).toEqual([otherAccount]);
        expect(await storage.connectedAccounts.listByProfile('acct-2', 'bob')).toEqual([]);
      });

      it('keeps a single connection when concurrent upserts of the same key race', async () => {
        const racers = Array.from({ length: 8 }, (_, i) => aConnectedAccount({ ...key, platform: 'mastodon', handle: `@${i}` }));

        const returned = await Promise.all(racers.map((c) => storage.connectedAccounts.upsert(c)));

        const listed = await storage.connectedAccounts.listByProfile('acct-1', 'alice');
        expect(listed).toHaveLength(1);
        expect(racers.map((c) => c.id)).toContain(listed[0]!.id);
        expect(returned.map((c) => c.id)).toEqual(racers.map(() => listed[0]!.id));
      });

      it('rejects a new connection whose id belongs to another connection', async () => {
        const x = aConnectedAccount({ ...key, platform: 'x' });
        await storage.connectedAccounts.upsert(x);

        await expect(
          storage.connectedAccounts.upsert(aConnectedAccount({ ...key, platform: 'threads', id: x.id })),
        ).rejects.toBeInstanceOf(DuplicateKeyError);
        expect(await storage.connectedAccounts.listByProfile('acct-1', 'alice')).toEqual([x]);
      });

      it('sets the status of one connection', async () => {
        const conn = aConnectedAccount({ ...key, platform: 'x' });
        const other = aConnectedAccount({ ...key, platform: 'threads' });
        await storage.connectedAccounts.upsert(conn);
        await storage.connectedAccounts.upsert(other);

        await storage.connectedAccounts.setStatus(conn.id, 'reauth_required', at(7));
        await storage.connectedAccounts.setStatus('no-such-connection', 'disconnected', at(8));

        expect(await storage.connectedAccounts.findById(conn.id)).toEqual({
          ...conn,
          status: 'reauth_required',
          updatedAt: at(7),
        });
        expect(await storage.connectedAccounts.findById(other.id)).toEqual(other);
        expect(await storage.connectedAccounts.findById('no-such-connection')).toBeNull();
      });

      it('pauses and resumes a connection, and a reconnection (upsert) ends the pause and the checkpoint flag', async () => {
        const conn = aConnectedAccount({ ...key, platform: 'x' });
        await storage.connectedAccounts.upsert(conn);
        await storage.connectedAccounts.setRestriction(conn.id, { reason: 'spam_restricted', until: at(60), code: 'c' }, at(1));
        await storage.connectedAccounts.setCheckpointRequired(conn.id, true, at(2));
        expect(await storage.connectedAccounts.findById(conn.id)).toMatchObject({ restriction: { reason: 'spam_restricted', until: at(60), code: 'c' }, checkpointRequired: true });
        await storage.connectedAccounts.setRestriction(conn.id, null, at(3));
        await storage.connectedAccounts.setCheckpointRequired(conn.id, false, at(3));
        const cleared = await storage.connectedAccounts.findById(conn.id);
        expect(cleared).not.toHaveProperty('restriction');
        expect(cleared).not.toHaveProperty('checkpointRequired');
        await storage.connectedAccounts.setRestriction(conn.id, { reason: 'publish_limit', until: at(90) }, at(4));
        await storage.connectedAccounts.setCheckpointRequired(conn.id, true, at(4));
        const reconnected = await storage.connectedAccounts.upsert(aConnectedAccount({ ...key, platform: 'x', handle: '@again' }));
        expect(reconnected.id).toBe(conn.id);
        expect(reconnected).not.toHaveProperty('restriction');
        expect(reconnected).not.toHaveProperty('checkpointRequired');
      });

      it('replaces the sealed credentials of one connection', async () => {
        const conn = aConnectedAccount({ ...key, platform: 'x', sealedCredentials: 'v1.old' });
        const other = aConnectedAccount({ ...key, platform: 'threads' });
        await storage.connectedAccounts.upsert(conn);
        await storage.connectedAccounts.upsert(other);

        await storage.connectedAccounts.updateCredentials(conn.id, 'v1.new', at(9));

        expect(await storage.connectedAccounts.findById(conn.id)).toEqual({ ...conn, sealedCredentials: 'v1.new', updatedAt: at(9) });
        expect(await storage.connectedAccounts.findById(other.id)).toEqual(other);
      });

      it('deletes the connections of one profile and counts them', async () => {
        const x = aConnectedAccount({ ...key, platform: 'x' });
        const threads = aConnectedAccount({ ...key, platform: 'threads' });
        const bobs = aConnectedAccount({ ...key, profileUsername: 'bob', platform: 'x' });
        const foreign = aConnectedAccount({ ...key, accountId: 'acct-2', platform: 'x' });
        for (const c of [x, threads, bobs, foreign]) await storage.connectedAccounts.upsert(c);

        expect(await storage.connectedAccounts.deleteByProfile('acct-1', 'alice')).toBe(2);
        expect(await storage.connectedAccounts.deleteByProfile('acct-1', 'alice')).toBe(0);

        expect(await storage.connectedAccounts.listByProfile('acct-1', 'alice')).toEqual([]);
        expect(await storage.connectedAccounts.findById(x.id)).toBeNull();
        expect(await storage.connectedAccounts.listByProfile('acct-1', 'bob')).toEqual([bobs]);
        expect(await storage.connectedAccounts.listByProfile('acct-2', 'alice')).toEqual([foreign]);
      });

      it('hands out copies', async () => {
        const conn = aConnectedAccount({ ...key, platform: 'x', capabilities: ['post'] });
        const returned = await storage.connectedAccounts.upsert(conn);
        const snapshot = structuredClone(conn);

        conn.capabilities!.push('mutated');
        returned.handle = '@mutated';
        returned.updatedAt.setTime(0);
        const found = await storage.connectedAccounts.find('acct-1', 'alice', 'x');
        found!.capabilities!.push('mutated too');

        expect(await storage.connectedAccounts.findById(snapshot.id)).toEqual(snapshot);
      });
    });

    describe('profile pins', () => {
      it('sets and removes pinned fields of one profile', async () => {
        await storage.profiles.insert(aProfile({ accountId: 'acct-1', username: 'alice' }));
        await storage.profiles.setPin('acct-1', 'alice', 'facebook_page_id', 'p1');
        await storage.profiles.setPin('acct-1', 'alice', 'gbp_location_id', 'l1');
        expect((await storage.profiles.find('acct-1', 'alice'))?.pins).toEqual({ facebook_page_id: 'p1', gbp_location_id: 'l1' });
        await storage.profiles.setPin('acct-1', 'alice', 'facebook_page_id', null);
        expect((await storage.profiles.find('acct-1', 'alice'))?.pins).toEqual({ gbp_location_id: 'l1' });
      });
    });

    describe('queues', () => {
      it('stores queue settings per profile', async () => {
        const settings = { accountId: 'acct-1', profileUsername: 'alice', timezone: 'Europe/Paris', slots: [{ day: 'mon' as const, time: '09:00' }], postsPerSlot: 2, updatedAt: at(1) };
        await storage.queues.putSettings(settings);
        await storage.queues.putSettings({ ...settings, postsPerSlot: 3, updatedAt: at(2) });
        expect(await storage.queues.getSettings('acct-1', 'alice')).toEqual({ ...settings, postsPerSlot: 3, updatedAt: at(2) });
        expect(await storage.queues.getSettings('acct-1', 'bob')).toBeNull();
      });

      it('never gives more places in a slot than its capacity, even to racing requests', async () => {
        const wins = await Promise.all(Array.from({ length: 8 }, (_, i) => storage.queues.reserve('acct-1', 'alice', at(60), 3, `r${i}`)));
        expect(wins.filter(Boolean)).toHaveLength(3);
        expect(await storage.queues.countInSlot('acct-1', 'alice', at(60))).toBe(3);
        expect(await storage.queues.countInSlot('acct-1', 'alice', at(61))).toBe(0);
        const winner = `r${wins.indexOf(true)}`;
        await storage.queues.release('acct-1', 'alice', at(60), winner);
        expect(await storage.queues.countInSlot('acct-1', 'alice', at(60))).toBe(2);
        expect(await storage.queues.reserve('acct-1', 'alice', at(60), 3, 'late')).toBe(true);
        expect(await storage.queues.reserve('acct-1', 'alice', at(60), 3, 'later')).toBe(false);
      });
    });

    describe('oauth states', () => {
      const state = (id: string, expiresAt: Date) => ({
        id, accountId: 'acct-1', profileUsername: 'alice', platform: 'x' as const, codeVerifier: 'verifier', redirectUri: 'https://h/cb', expiresAt,
      });

      it('hands a state out once, and never after it expired', async () => {
        await storage.oauthStates.insert(state('s1', at(30)));
        await storage.oauthStates.insert(state('s2', at(30)));
        expect(await storage.oauthStates.take('s1', at(1))).toEqual(state('s1', at(30)));
        expect(await storage.oauthStates.take('s1', at(1))).toBeNull();
        expect(await storage.oauthStates.take('s2', at(31))).toBeNull();
        expect(await storage.oauthStates.take('nope', at(1))).toBeNull();
      });

      it('refuses a duplicate state id', async () => {
        await storage.oauthStates.insert(state('dup', at(30)));
        await expect(storage.oauthStates.insert(state('dup', at(30)))).rejects.toBeInstanceOf(DuplicateKeyError);
      });

      it('deletes expired states in the periodic cleanup', async () => {
        await storage.oauthStates.insert(state('old', at(5)));
        await storage.oauthStates.insert(state('new', at(50)));
        expect(await storage.oauthStates.deleteExpired(at(10))).toBe(1);
        expect(await storage.oauthStates.take('new', at(11))).toMatchObject({ id: 'new' });
      });
    });

    describe('uploads', () => {
      const insert = async (overrides: Partial<UploadRequest> = {}): Promise<UploadRequest> => {
        const upload = anUpload({ accountId: 'acct-1', ...overrides });
        await storage.uploads.insert(upload);
        return upload;
      };
      const mustFind = async (requestId: string, accountId = 'acct-1'): Promise<UploadRequest> => {
        const found = await storage.uploads.find(accountId, requestId);
        if (!found) throw new Error(`upload ${requestId} not found`);
        return found;
      };

      const ids = async (query: Omit<UploadHistoryQuery, 'page' | 'limit'> & Partial<UploadHistoryQuery>) => {
        const { items, total } = await storage.uploads.history({ page: 1, limit: 100, ...query });
        return { ids: items.map((u) => u.requestId), total };
      };

      it('stores an upload and finds it by request id and by job id, exactly as given', async () => {
        const upload = await insert({
          jobId: 'job-1',
          externalId: 'ext-1',
          targets: [
            { platform: 'x', connectedAccountId: 'c-x', title: 'Hi X', settings: { reply_settings: 'everyone' } },
            { platform: 'bluesky', connectedAccountId: 'c-b', title: 'Hi Bluesky', settings: {} },
          ],
          content: { title: 'Hi', description: 'longer' },
          warnings: ['w1'],
        });

        const found = await mustFind(upload.requestId);

        expect(found).toEqual(upload);
        expect(found.createdAt).toBeInstanceOf(Date);
        expect(found).not.toHaveProperty('_id');
        expect(found).not.toHaveProperty('platforms');
        expect(await storage.uploads.findByJobId('acct-1', 'job-1')).toEqual(upload);
        expect(await storage.uploads.findByJobId('acct-2', 'job-1')).toBeNull();
        expect(await storage.uploads.find('acct-2', upload.requestId)).toBeNull();
      });

      it('leaves optional fields absent when they were not given', async () => {
        const upload = await insert({ externalId: undefined, jobId: undefined });

        const found = await mustFind(upload.requestId);

        for (const field of ['externalId', 'jobId', 'startedAt', 'completedAt']) {
          expect(found).not.toHaveProperty(field);
        }
        expect(found.results).toEqual({});
        expect(found.dispatches).toEqual({});
      });

      it('rejects a second upload with the same request id in the same account', async () => {
        const first = await insert({ requestId: 'req-same' });

        await expect(storage.uploads.insert(anUpload({ accountId: 'acct-1', requestId: 'req-same' }))).rejects.toBeInstanceOf(
          DuplicateKeyError,
        );
        expect(await mustFind('req-same')).toEqual(first);
      });

      it('allows the same request id under another account', async () => {
        const mine = await insert({ requestId: 'req-same' });
        const theirs = await insert({ accountId: 'acct-2', requestId: 'req-same', profileUsername: 'other' });

        expect(await mustFind('req-same', 'acct-1')).toEqual(mine);
        expect(await mustFind('req-same', 'acct-2')).toEqual(theirs);
      });

      it('goes pending → in_progress → completed with dispatches and results', async () => {
        const upload = await insert({
          targets: [
            { platform: 'x', connectedAccountId: 'c-x', title: 'Hi', settings: {} },
            { platform: 'linkedin', connectedAccountId: 'c-l', title: 'Hi', settings: {} },
          ],
        });
        const xResult = aTargetResult({ platform: 'x', post_id: 'x-1', tweet_id: 'x-1' });
        const liResult = aTargetResult({
          platform: 'linkedin',
          success: false,
          post_id: undefined,
          url: undefined,
          error: 'rejected',
          error_code: 'invalid_content',
          warnings: ['too long'],
        });

        await storage.uploads.markInProgress('acct-1', upload.requestId, at(1));
        expect(await mustFind(upload.requestId)).toEqual({
          ...upload,
          status: 'in_progress',
          startedAt: at(1),
          updatedAt: at(1),
        });

        await storage.uploads.recordDispatch('acct-1', upload.requestId, 'x', 1, at(2));
        await storage.uploads.recordDispatch('acct-1', upload.requestId, 'linkedin', 1, at(2));
        await storage.uploads.recordResult('acct-1', upload.requestId, xResult, at(3));
        await storage.uploads.recordDispatch('acct-1', upload.requestId, 'linkedin', 2, at(4));
        await storage.uploads.recordResult('acct-1', upload.requestId, liResult, at(5));
        await storage.uploads.markCompleted('acct-1', upload.requestId, at(6));

        const done = await mustFind(upload.requestId);
        const { post_id: _p, url: _u, ...liStored } = liResult;
        void _p;
        void _u;
        expect(done).toEqual({
          ...upload,
          status: 'completed',
          startedAt: at(1),
          completedAt: at(6),
          updatedAt: at(6),
          dispatches: { x: { attempt: 1, at: at(2) }, linkedin: { attempt: 2, at: at(4) } },
          results: { x: xResult, linkedin: liStored },
        });
        expect(done.results.linkedin).not.toHaveProperty('post_id');
        expect(done.dispatches.x?.at).toBeInstanceOf(Date);
      });

      it('moves to in_progress only from pending', async () => {
        const upload = await insert();
        await storage.uploads.markInProgress('acct-1', upload.requestId, at(1));

        await storage.uploads.markInProgress('acct-1', upload.requestId, at(2));
        expect(await mustFind(upload.requestId)).toMatchObject({ status: 'in_progress', startedAt: at(1), updatedAt: at(1) });

        await storage.uploads.markCompleted('acct-1', upload.requestId, at(3));
        await storage.uploads.markInProgress('acct-1', upload.requestId, at(4));
        expect(await mustFind(upload.requestId)).toMatchObject({
          status: 'completed',
          startedAt: at(1),
          completedAt: at(3),
          updatedAt: at(3),
        });
      });

      it('completes a pending upload directly and completes only once', async () => {
        const upload = await insert();

        await storage.uploads.markCompleted('acct-1', upload.requestId, at(1));
        await storage.uploads.markCompleted('acct-1', upload.requestId, at(2));

        const found = await mustFind(upload.requestId);
        expect(found).toEqual({ ...upload, status: 'completed', completedAt: at(1), updatedAt: at(1) });
        expect(found).not.toHaveProperty('startedAt');
      });

      it('counts uploads per operator and per connected account since a time, cancelled ones excluded', async () => {
        const target = (c: string) => ({ platform: 'x' as const, connectedAccountId: c, title: 't', settings: {} });
        await insert({ createdAt: at(1), targets: [target('c1')] });
        await insert({ createdAt: at(5), targets: [target('c1'), { ...target('c2'), platform: 'threads' as const }] });
        await insert({ createdAt: at(9), targets: [target('c2')], status: 'cancelled' });
        await insert({ accountId: 'acct-2', createdAt: at(9), targets: [target('c1')] });
        expect(await storage.uploads.countSince('acct-1', at(0))).toBe(2);
        expect(await storage.uploads.countSince('acct-1', at(2))).toBe(1);
        expect(await storage.uploads.countForConnection('c1', at(0), at(60))).toBe(3);
        expect(await storage.uploads.countForConnection('c1', at(5), at(60))).toBe(2);
        expect(await storage.uploads.countForConnection('c1', at(0), at(4))).toBe(1);
        expect(await storage.uploads.countForConnection('c2', at(0), at(60))).toBe(1);
      });

      it('counts a scheduled post against the caps at its scheduled time, across UTC days, leaving one request out on demand', async () => {
        const target = (c: string) => ({ platform: 'x' as const, connectedAccountId: c, title: 't', settings: {} });
        const day = 24 * 60;
        await insert({ requestId: 'now', createdAt: at(0), targets: [target('c1')] });
        await insert({ requestId: 'later', createdAt: at(0), status: 'scheduled', scheduledFor: at(day + 30), targets: [target('c1')] });
        await insert({ requestId: 'much-later', createdAt: at(0), status: 'scheduled', scheduledFor: at(40 * day), targets: [target('c1')] });
        expect(await storage.uploads.countForConnection('c1', at(-10), at(10))).toBe(1);
        expect(await storage.uploads.countForConnection('c1', at(10), at(day + 30))).toBe(1);
        expect(await storage.uploads.countForConnection('c1', at(-10), at(day + 30))).toBe(2);
        expect(await storage.uploads.countForConnection('c1', at(-10), at(day + 30), 'later')).toBe(1);
        // A window longer than a few days is counted in one go.
        expect(await storage.uploads.countForConnection('c1', at(-10), at(41 * day))).toBe(3);
      });

      it('replaces the media of an upload once its URLs are fetched', async () => {
        const pending = { id: '', kind: 'video' as const, contentType: '', size: 0, source: { url: 'https://cdn.example/v.mp4', field: 'video' } };
        const up = await insert({ requestId: 'urls', content: { title: 't', media: [pending] } });
        const fetched = { id: 'sha-1', kind: 'video' as const, contentType: 'video/mp4', size: 123, filename: 'v.mp4', source: pending.source,
          info: { durationSeconds: 3, width: 640, height: 360, frameRate: 30, videoCodec: 'h264', audioCodec: null, container: 'mov,mp4' } };
        expect(await storage.uploads.setMedia('acct-1', 'urls', [fetched], at(2))).toBe(true);
        expect(await mustFind('urls')).toEqual({ ...up, content: { title: 't', media: [fetched] }, updatedAt: at(2) });
        expect(await storage.uploads.setMedia('acct-1', 'nope', [fetched], at(2))).toBe(false);
      });

      it('postpones a scheduled upload with a warning, giving up its queue slot, and only while it is scheduled', async () => {
        const up = await insert({ requestId: 'sched', status: 'scheduled', scheduledFor: at(10), queueSlot: at(10), warnings: ['earlier'] });
        expect(await storage.uploads.postponeScheduled('acct-1', 'sched', at(1450), 'moved', at(11))).toBe(true);
        const found = await mustFind('sched');
        expect(found).toEqual({ ...up, queueSlot: undefined, scheduledFor: at(1450), warnings: ['earlier', 'moved'], updatedAt: at(11) });
        expect(found).not.toHaveProperty('queueSlot');
        expect(await storage.uploads.countForConnection(up.targets[0]!.connectedAccountId, at(1400), at(1500))).toBe(1);
        await storage.uploads.markInProgress('acct-1', 'sched', at(1450));
        expect(await storage.uploads.postponeScheduled('acct-1', 'sched', at(3000), 'again', at(1451))).toBe(false);
        expect((await mustFind('sched')).scheduledFor).toEqual(at(1450));
      });

      it('sets failed results aside for a retry of a completed upload, and only then', async () => {
        const up = await insert({ targets: [
          { platform: 'x', connectedAccountId: 'c1', title: 't', settings: {} },
          { platform: 'threads', connectedAccountId: 'c2', title: 't', settings: {} },
        ] });
        await storage.uploads.recordResult('acct-1', up.requestId, aTargetResult({ platform: 'x' }), at(1));
        await storage.uploads.recordResult('acct-1', up.requestId, aTargetResult({ platform: 'threads', success: false, error: 'no' }), at(1));
        expect(await storage.uploads.resetForRetry('acct-1', up.requestId, ['threads'], at(2))).toBeNull();
        await storage.uploads.markCompleted('acct-1', up.requestId, at(3));
        expect(await storage.uploads.resetForRetry('acct-1', up.requestId, ['threads'], at(4))).toBe(1);
        const found = await mustFind(up.requestId);
        expect(found).toMatchObject({ status: 'pending', retryCount: 1 });
        expect(found).not.toHaveProperty('completedAt');
        expect(Object.keys(found.results)).toEqual(['x']);
        await storage.uploads.recordResult('acct-1', up.requestId, aTargetResult({ platform: 'threads', post_id: 'again' }), at(5));
        expect((await mustFind(up.requestId)).results.threads?.post_id).toBe('again');
      });

      it('runs a scheduled upload, or cancels it, but never both', async () => {
        const a = await insert({ status: 'scheduled', jobId: 'job-a', scheduledFor: at(60), timezone: 'Europe/Paris' });
        const b = await insert({ status: 'scheduled', jobId: 'job-b', scheduledFor: at(60) });
        expect(await storage.uploads.markInProgress('acct-1', a.requestId, at(60))).toBe('in_progress');
        expect(await storage.uploads.cancelScheduled('acct-1', a.requestId, at(61))).toBe(false);
        expect(await storage.uploads.cancelScheduled('acct-1', b.requestId, at(30))).toBe(true);
        expect(await storage.uploads.markInProgress('acct-1', b.requestId, at(60))).toBe('cancelled');
        expect(await storage.uploads.markInProgress('acct-1', 'no-such', at(60))).toBeNull();
        expect(await mustFind(b.requestId)).toMatchObject({ status: 'cancelled', completedAt: at(30), jobId: 'job-b' });
        expect(await storage.uploads.findByJobId('acct-1', 'job-a')).toMatchObject({ status: 'in_progress', timezone: 'Europe/Paris', scheduledFor: at(60) });
      });

      it('edits a scheduled upload only while it is scheduled', async () => {
        const up = await insert({ status: 'scheduled', jobId: 'job-e', scheduledFor: at(60), fields: { x_title: 'a' } });
        const patch = {
          scheduledFor: at(90), timezone: 'UTC', content: { title: 'new' }, fields: { x_title: 'b' },
          targets: [{ platform: 'x' as const, connectedAccountId: 'conn-x', title: 'b', settings: { reply_settings: 'following' } }],
        };
        expect(await storage.uploads.updateScheduled('acct-1', up.requestId, patch, at(2))).toBe(true);
        expect(await mustFind(up.requestId)).toMatchObject({ ...patch, status: 'scheduled', updatedAt: at(2) });
        await storage.uploads.markInProgress('acct-1', up.requestId, at(90));
        expect(await storage.uploads.updateScheduled('acct-1', up.requestId, { ...patch, content: { title: 'late' } }, at(91))).toBe(false);
        expect((await mustFind(up.requestId)).content.title).toBe('new');
      });

      it('keeps the first result of a target', async () => {
        const upload = await insert();
        const first = aTargetResult({ platform: 'x', post_id: 'first' });
        const second = aTargetResult({ platform: 'x', post_id: 'second', success: false, error: 'late' });

        expect(await storage.uploads.recordResult('acct-1', upload.requestId, first, at(1))).toEqual(first);
        // The later one is not stored, and the caller learns which result stands.
        expect(await storage.uploads.recordResult('acct-1', upload.requestId, second, at(2))).toEqual(first);

        expect(await mustFind(upload.requestId)).toEqual({ ...upload, results: { x: first } });
      });

      it('keeps every result when the targets of one upload finish at the same moment', async () => {
        // FerretDB loses concurrent updates of one document: per-target writes must not share one.
        const platforms = ['x', 'linkedin', 'discord', 'telegram', 'bluesky', 'threads', 'facebook', 'instagram'] as const;
        const upload = await insert({
          targets: platforms.map((platform) => ({ platform, connectedAccountId: `conn-${platform}`, title: 't', settings: {} })),
        });
        await Promise.all(platforms.map(async (platform, i) => {
          await storage.uploads.recordDispatch('acct-1', upload.requestId, platform, 1, at(i));
          await storage.uploads.recordResult('acct-1', upload.requestId, aTargetResult({ platform, post_id: `p-${platform}` }), at(i));
        }));
        const found = await mustFind(upload.requestId);
        expect(Object.keys(found.results).sort()).toEqual([...platforms].sort());
        expect(Object.keys(found.dispatches).sort()).toEqual([...platforms].sort());
        expect(found.results.telegram?.post_id).toBe('p-telegram');
      });

      it('keeps exactly one result when two results of a target race', async () => {
        const upload = await insert();
        const one = aTargetResult({ platform: 'x', post_id: 'one' });
        const two = aTargetResult({ platform: 'x', post_id: 'two' });

        const answers = await Promise.all([
          storage.uploads.recordResult('acct-1', upload.requestId, one, at(1)),
          storage.uploads.recordResult('acct-1', upload.requestId, two, at(2)),
        ]);

        const stored = (await mustFind(upload.requestId)).results.x;
        expect([one, two]).toContainEqual(stored);
        expect(answers).toEqual([stored, stored]);
      });

      it('records the latest dispatch of a target', async () => {
        const upload = await insert();

        await storage.uploads.recordDispatch('acct-1', upload.requestId, 'x', 1, at(1));
        await storage.uploads.recordDispatch('acct-1', upload.requestId, 'x', 2, at(2));

        expect(await mustFind(upload.requestId)).toEqual({
          ...upload,
          dispatches: { x: { attempt: 2, at: at(2) } },
        });
      });

      it('ignores lifecycle calls for an unknown upload or another account', async () => {
        const upload = await insert();

        await storage.uploads.markInProgress('acct-2', upload.requestId, at(1));
        await storage.uploads.recordDispatch('acct-2', upload.requestId, 'x', 1, at(1));
        await storage.uploads.recordResult('acct-2', upload.requestId, aTargetResult(), at(1));
        await storage.uploads.markCompleted('acct-2', upload.requestId, at(1));
        await storage.uploads.markInProgress('acct-1', 'no-such-request', at(1));
        await storage.uploads.recordResult('acct-1', 'no-such-request', aTargetResult(), at(1));
        await storage.uploads.markCompleted('acct-1', 'no-such-request', at(1));

        expect(await mustFind(upload.requestId)).toEqual(upload);
        expect(await storage.uploads.find('acct-2', upload.requestId)).toBeNull();
        expect(await storage.uploads.find('acct-1', 'no-such-request')).toBeNull();
      });

      it('hands out copies', async () => {
        const upload = await insert({ warnings: ['w'] });
        const snapshot = structuredClone(upload);

        upload.targets[0]!.settings.mutated = true;
        upload.warnings.push('mutated');
        const found = await mustFind(snapshot.requestId);
        found.results.x = aTargetResult();
        found.content.title = 'mutated';
        found.createdAt.setTime(0);
        const { items } = await storage.uploads.history({ accountId: 'acct-1', page: 1, limit: 10 });
        items[0]!.dispatches.x = { attempt: 9, at: at(9) };

        expect(await mustFind(snapshot.requestId)).toEqual(snapshot);
      });

      describe('history', () => {
        /** Five uploads of acct-1 at minutes 1..5 plus one of acct-2, varied on every filter. */
        const seed = async () => {
          const target = (platform: 'x' | 'bluesky' | 'linkedin') => ({
            platform,
            connectedAccountId: `c-${platform}`,
            title: 't',
            settings: {},
          });
          const u1 = await insert({ requestId: 'r1', createdAt: at(1), targets: [target('x')], jobId: 'j1' });
          const u2 = await insert({
            requestId: 'r2',
            createdAt: at(2),
            targets: [target('bluesky'), target('x')],
            profileUsername: 'bob',
            externalId: 'e2',
          });
          const u3 = await insert({ requestId: 'r3', createdAt: at(3), targets: [target('linkedin')], jobId: 'j3' });
          const u4 = await insert({
            requestId: 'r4',
            createdAt: at(4),
            targets: [target('bluesky')],
            profileUsername: 'bob',
            externalId: 'e4',
          });
          const u5 = await insert({ requestId: 'r5', createdAt: at(5), targets: [target('x'), target('linkedin')] });
          await insert({ accountId: 'acct-2', requestId: 'r6', createdAt: at(6), targets: [target('x')], jobId: 'j1' });
          await storage.uploads.markInProgress('acct-1', 'r3', at(10));
          await storage.uploads.markCompleted('acct-1', 'r4', at(10));
          await storage.uploads.markCompleted('acct-1', 'r5', at(10));
          return {
            r1: u1,
            r2: u2,
            r3: { ...u3, status: 'in_progress' as const, startedAt: at(10), updatedAt: at(10) },
            r4: { ...u4, status: 'completed' as const, completedAt: at(10), updatedAt: at(10) },
            r5: { ...u5, status: 'completed' as const, completedAt: at(10), updatedAt: at(10) },
          };
        };

        it('lists the uploads of one account, newest first, as stored', async () => {
          const s = await seed();

          const { items, total } = await storage.uploads.history({ accountId: 'acct-1', page: 1, limit: 10 });

          expect(total).toBe(5);
          expect(items).toEqual([s.r5, s.r4, s.r3, s.r2, s.r1]);
          expect(items[0]).not.toHaveProperty('platforms');
          expect(await ids({ accountId: 'acct-3' })).toEqual({ ids: [], total: 0 });
        });

        it('filters by platform among the targets', async () => {
          await seed();

          expect(await ids({ accountId: 'acct-1', platform: 'x' })).toEqual({ ids: ['r5', 'r2', 'r1'], total: 3 });
          expect(await ids({ accountId: 'acct-1', platform: 'bluesky' })).toEqual({ ids: ['r4', 'r2'], total: 2 });
          expect(await ids({ accountId: 'acct-1', platform: 'linkedin' })).toEqual({ ids: ['r5', 'r3'], total: 2 });
          expect(await ids({ accountId: 'acct-1', platform: 'tiktok' })).toEqual({ ids: [], total: 0 });
        });

        it('filters by status', async () => {
          await seed();

          expect(await ids({ accountId: 'acct-1', status: 'pending' })).toEqual({ ids: ['r2', 'r1'], total: 2 });
          expect(await ids({ accountId: 'acct-1', status: 'in_progress' })).toEqual({ ids: ['r3'], total: 1 });
          expect(await ids({ accountId: 'acct-1', status: 'completed' })).toEqual({ ids: ['r5', 'r4'], total: 2 });
        });

        it('filters by profile username', async () => {
          await seed();

          expect(await ids({ accountId: 'acct-1', profileUsername: 'bob' })).toEqual({ ids: ['r4', 'r2'], total: 2 });
          expect(await ids({ accountId: 'acct-1', profileUsername: 'nobody' })).toEqual({ ids: [], total: 0 });
        });

        it('filters by creation time, start and end inclusive', async () => {
          await seed();

          expect(await ids({ accountId: 'acct-1', start: at(2) })).toEqual({ ids: ['r5', 'r4', 'r3', 'r2'], total: 4 });
          expect(await ids({ accountId: 'acct-1', end: at(2) })).toEqual({ ids: ['r2', 'r1'], total: 2 });
          expect(await ids({ accountId: 'acct-1', start: at(2), end: at(4) })).toEqual({ ids: ['r4', 'r3', 'r2'], total: 3 });
          expect(await ids({ accountId: 'acct-1', start: at(2.5), end: at(2.75) })).toEqual({ ids: [], total: 0 });
        });

        it('filters by request id, job id and external id', async () => {
          await seed();

          expect(await ids({ accountId: 'acct-1', requestId: 'r3' })).toEqual({ ids: ['r3'], total: 1 });
          expect(await ids({ accountId: 'acct-1', requestId: 'r6' })).toEqual({ ids: [], total: 0 });
          expect(await ids({ accountId: 'acct-1', jobId: 'j1' })).toEqual({ ids: ['r1'], total: 1 });
          expect(await ids({ accountId: 'acct-2', jobId: 'j1' })).toEqual({ ids: ['r6'], total: 1 });
          expect(await ids({ accountId: 'acct-1', externalId: 'e4' })).toEqual({ ids: ['r4'], total: 1 });
        });

        it('combines filters', async () => {
          await seed();

          expect(await ids({ accountId: 'acct-1', platform: 'x', status: 'pending', profileUsername: 'bob' })).toEqual({
            ids: ['r2'],
            total: 1,
          });
          expect(await ids({ accountId: 'acct-1', platform: 'linkedin', start: at(4) })).toEqual({ ids: ['r5'], total: 1 });
        });

        it('pages with a 1-based page and limit, total counting every match', async () => {
          await seed();

          expect(await ids({ accountId: 'acct-1', page: 1, limit: 2 })).toEqual({ ids: ['r5', 'r4'], total: 5 });
          expect(await ids({ accountId: 'acct-1', page: 2, limit: 2 })).toEqual({ ids: ['r3', 'r2'], total: 5 });
          expect(await ids({ accountId: 'acct-1', page: 3, limit: 2 })).toEqual({ ids: ['r1'], total: 5 });
          expect(await ids({ accountId: 'acct-1', page: 4, limit: 2 })).toEqual({ ids: [], total: 5 });
          expect(await ids({ accountId: 'acct-1', platform: 'x', page: 2, limit: 2 })).toEqual({ ids: ['r1'], total: 3 });
        });
      });

      it('lists stale pending uploads of every account, oldest first, up to the limit', async () => {
        const old1 = await insert({ requestId: 'old-1', createdAt: at(1) });
        const old2 = await insert({ accountId: 'acct-2', requestId: 'old-2', createdAt: at(2) });
        const old3 = await insert({ requestId: 'old-3', createdAt: at(3) });
        await insert({ requestId: 'started', createdAt: at(1) });
        await insert({ requestId: 'done', createdAt: at(1) });
        await insert({ requestId: 'at-cutoff', createdAt: at(10) });
        await insert({ requestId: 'fresh', createdAt: at(11) });
        await storage.uploads.markInProgress('acct-1', 'started', at(4));
        await storage.uploads.markCompleted('acct-1', 'done', at(4));

        expect(await storage.uploads.listStalePending(at(10), 10)).toEqual([old1, old2, old3]);
        expect((await storage.uploads.listStalePending(at(10), 2)).map((u) => u.requestId)).toEqual(['old-1', 'old-2']);
        expect(await storage.uploads.listStalePending(at(1), 10)).toEqual([]);
      });

      it('orders uploads created at the same instant by request id, newest first, without page overlap', async () => {
        for (const requestId of ['s-b', 's-d', 's-a', 's-c']) await insert({ requestId, createdAt: at(1) });

        const page1 = await ids({ accountId: 'acct-1', page: 1, limit: 2 });
        const page2 = await ids({ accountId: 'acct-1', page: 2, limit: 2 });

        expect(page1).toEqual({ ids: ['s-d', 's-c'], total: 4 });
        expect(page2).toEqual({ ids: ['s-b', 's-a'], total: 4 });
      });
    });
  });
}
