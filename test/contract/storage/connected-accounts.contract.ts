import { DuplicateKeyError, type ConnectedAccountRepository } from '../../../core/ports/storage';
import { aConnectedAccount, at } from '../../support/mothers';
import { freshForEachTest, type MakeRepository } from './repository-under-test';

/** The behaviour every ConnectedAccountRepository adapter must show. Each test gets a fresh, empty one from `make`. */
export function connectedAccountsContract(name: string, make: MakeRepository<ConnectedAccountRepository>): void {
  describe(`Storage contract: ${name}`, () => {
    let connectedAccounts: ConnectedAccountRepository;
    freshForEachTest(make, (repository) => {
      connectedAccounts = repository;
    });

    describe('connected accounts', () => {
      const key = { accountId: 'acct-1', profileUsername: 'alice' } as const;

      it('inserts a new connection and finds it by id and by (account, profile, platform)', async () => {
        const conn = aConnectedAccount({ ...key, platform: 'linkedin', capabilities: ['post'] });

        const returned = await connectedAccounts.upsert(conn);

        expect(returned).toEqual(conn);
        expect(await connectedAccounts.findById(conn.id)).toEqual(conn);
        expect(await connectedAccounts.find('acct-1', 'alice', 'linkedin')).toEqual(conn);
        expect((await connectedAccounts.findById(conn.id))?.connectedAt).toBeInstanceOf(Date);
        expect(await connectedAccounts.find('acct-1', 'alice', 'x')).toBeNull();
        expect(await connectedAccounts.find('acct-2', 'alice', 'linkedin')).toBeNull();
        expect(await connectedAccounts.findById('no-such-connection')).toBeNull();
      });

      it('replaces the one connection of (account, profile, platform), keeping its id', async () => {
        const first = aConnectedAccount({ ...key, platform: 'x', capabilities: ['post'], status: 'reauth_required' });
        await connectedAccounts.upsert(first);
        const second = aConnectedAccount({ ...key, platform: 'x', handle: '@new', connectedAt: at(5), updatedAt: at(5) });

        const returned = await connectedAccounts.upsert(second);

        const expected = { ...second, id: first.id };
        expect(returned).toEqual(expected);
        expect(returned).not.toHaveProperty('capabilities');
        expect(await connectedAccounts.findById(first.id)).toEqual(expected);
        expect(await connectedAccounts.findById(second.id)).toBeNull();
        expect(await connectedAccounts.listByProfile('acct-1', 'alice')).toEqual([expected]);
      });

      it('keeps one connection per platform, profile and account', async () => {
        const x = aConnectedAccount({ ...key, platform: 'x' });
        const bluesky = aConnectedAccount({ ...key, platform: 'bluesky' });
        const otherProfile = aConnectedAccount({ ...key, profileUsername: 'bob', platform: 'x' });
        const otherAccount = aConnectedAccount({ ...key, accountId: 'acct-2', platform: 'x' });
        for (const c of [x, bluesky, otherProfile, otherAccount]) await connectedAccounts.upsert(c);

        expect(await connectedAccounts.listByProfile('acct-1', 'alice')).toEqual([bluesky, x]);
        expect(await connectedAccounts.listByProfile('acct-1', 'bob')).toEqual([otherProfile]);
        expect(await connectedAccounts.listByProfile('acct-2', 'alice')).toEqual([otherAccount]);
        expect(await connectedAccounts.listByProfile('acct-2', 'bob')).toEqual([]);
      });

      it('keeps a single connection when concurrent upserts of the same key race', async () => {
        const racers = Array.from({ length: 8 }, (_, i) => aConnectedAccount({ ...key, platform: 'mastodon', handle: `@${i}` }));

        const returned = await Promise.all(racers.map((c) => connectedAccounts.upsert(c)));

        const listed = await connectedAccounts.listByProfile('acct-1', 'alice');
        expect(listed).toHaveLength(1);
        expect(racers.map((c) => c.id)).toContain(listed[0]!.id);
        expect(returned.map((c) => c.id)).toEqual(racers.map(() => listed[0]!.id));
      });

      it('rejects a new connection whose id belongs to another connection', async () => {
        const x = aConnectedAccount({ ...key, platform: 'x' });
        await connectedAccounts.upsert(x);

        await expect(
          connectedAccounts.upsert(aConnectedAccount({ ...key, platform: 'threads', id: x.id })),
        ).rejects.toBeInstanceOf(DuplicateKeyError);
        expect(await connectedAccounts.listByProfile('acct-1', 'alice')).toEqual([x]);
      });

      it('sets the status of one connection', async () => {
        const conn = aConnectedAccount({ ...key, platform: 'x' });
        const other = aConnectedAccount({ ...key, platform: 'threads' });
        await connectedAccounts.upsert(conn);
        await connectedAccounts.upsert(other);

        await connectedAccounts.setStatus(conn.id, 'reauth_required', at(7));
        await connectedAccounts.setStatus('no-such-connection', 'disconnected', at(8));

        expect(await connectedAccounts.findById(conn.id)).toEqual({
          ...conn,
          status: 'reauth_required',
          updatedAt: at(7),
        });
        expect(await connectedAccounts.findById(other.id)).toEqual(other);
        expect(await connectedAccounts.findById('no-such-connection')).toBeNull();
      });

      it('pauses and resumes a connection, and a reconnection (upsert) ends the pause and the checkpoint flag', async () => {
        const conn = aConnectedAccount({ ...key, platform: 'x' });
        await connectedAccounts.upsert(conn);
        await connectedAccounts.setRestriction(conn.id, { reason: 'spam_restricted', until: at(60), code: 'c' }, at(1));
        await connectedAccounts.setCheckpointRequired(conn.id, true, at(2));
        expect(await connectedAccounts.findById(conn.id)).toMatchObject({ restriction: { reason: 'spam_restricted', until: at(60), code: 'c' }, checkpointRequired: true });
        await connectedAccounts.setRestriction(conn.id, null, at(3));
        await connectedAccounts.setCheckpointRequired(conn.id, false, at(3));
        const cleared = await connectedAccounts.findById(conn.id);
        expect(cleared).not.toHaveProperty('restriction');
        expect(cleared).not.toHaveProperty('checkpointRequired');
        await connectedAccounts.setRestriction(conn.id, { reason: 'publish_limit', until: at(90) }, at(4));
        await connectedAccounts.setCheckpointRequired(conn.id, true, at(4));
        const reconnected = await connectedAccounts.upsert(aConnectedAccount({ ...key, platform: 'x', handle: '@again' }));
        expect(reconnected.id).toBe(conn.id);
        expect(reconnected).not.toHaveProperty('restriction');
        expect(reconnected).not.toHaveProperty('checkpointRequired');
      });

      it('replaces the sealed credentials of one connection', async () => {
        const conn = aConnectedAccount({ ...key, platform: 'x', sealedCredentials: 'v1.old' });
        const other = aConnectedAccount({ ...key, platform: 'threads' });
        await connectedAccounts.upsert(conn);
        await connectedAccounts.upsert(other);

        await connectedAccounts.updateCredentials(conn.id, 'v1.new', at(9));

        expect(await connectedAccounts.findById(conn.id)).toEqual({ ...conn, sealedCredentials: 'v1.new', updatedAt: at(9) });
        expect(await connectedAccounts.findById(other.id)).toEqual(other);
      });

      it('deletes the connections of one profile and counts them', async () => {
        const x = aConnectedAccount({ ...key, platform: 'x' });
        const threads = aConnectedAccount({ ...key, platform: 'threads' });
        const bobs = aConnectedAccount({ ...key, profileUsername: 'bob', platform: 'x' });
        const foreign = aConnectedAccount({ ...key, accountId: 'acct-2', platform: 'x' });
        for (const c of [x, threads, bobs, foreign]) await connectedAccounts.upsert(c);

        expect(await connectedAccounts.deleteByProfile('acct-1', 'alice')).toBe(2);
        expect(await connectedAccounts.deleteByProfile('acct-1', 'alice')).toBe(0);

        expect(await connectedAccounts.listByProfile('acct-1', 'alice')).toEqual([]);
        expect(await connectedAccounts.findById(x.id)).toBeNull();
        expect(await connectedAccounts.listByProfile('acct-1', 'bob')).toEqual([bobs]);
        expect(await connectedAccounts.listByProfile('acct-2', 'alice')).toEqual([foreign]);
      });

      it('hands out copies', async () => {
        const conn = aConnectedAccount({ ...key, platform: 'x', capabilities: ['post'] });
        const returned = await connectedAccounts.upsert(conn);
        const snapshot = structuredClone(conn);

        conn.capabilities!.push('mutated');
        returned.handle = '@mutated';
        returned.updatedAt.setTime(0);
        const found = await connectedAccounts.find('acct-1', 'alice', 'x');
        found!.capabilities!.push('mutated too');

        expect(await connectedAccounts.findById(snapshot.id)).toEqual(snapshot);
      });
    });
  });
}
