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

      describe('lifecycle (compare-and-set on the generation: connectedAt)', () => {
        it('setStatusIf writes the status (with the reauth reason and since) only for the named generation', async () => {
          const conn = await connectedAccounts.upsert(aConnectedAccount({ ...key, platform: 'tiktok', connectedAt: at(0) }));

          expect(await connectedAccounts.setStatusIf(conn.id, at(1), 'reauth_required', at(2), 'max_auth_strikes')).toBe(false);
          expect(await connectedAccounts.findById(conn.id)).toMatchObject({ status: 'connected' });

          expect(await connectedAccounts.setStatusIf(conn.id, at(0), 'reauth_required', at(2), 'max_auth_strikes')).toBe(true);
          expect(await connectedAccounts.findById(conn.id)).toMatchObject({ status: 'reauth_required', reauthReason: 'max_auth_strikes', reauthSince: at(2), updatedAt: at(2) });

          expect(await connectedAccounts.setStatusIf(conn.id, at(0), 'connected', at(3))).toBe(true);
          const back = await connectedAccounts.findById(conn.id);
          expect(back).toMatchObject({ status: 'connected' });
          expect(back).not.toHaveProperty('reauthReason');
          expect(back).not.toHaveProperty('reauthSince');
          expect(await connectedAccounts.setStatusIf('no-such-connection', at(0), 'connected', at(3))).toBe(false);
        });

        it('counts failures per generation; a refresh clears refreshFailures, clearFailures both, a reconnect everything', async () => {
          const conn = await connectedAccounts.upsert(aConnectedAccount({ ...key, platform: 'tiktok', connectedAt: at(0) }));

          expect(await connectedAccounts.countFailure(conn.id, at(0), 'refreshFailures', at(1))).toBe(1);
          expect(await connectedAccounts.countFailure(conn.id, at(0), 'refreshFailures', at(1))).toBe(2);
          expect(await connectedAccounts.countFailure(conn.id, at(0), 'authStrikes', at(1))).toBe(1);
          expect(await connectedAccounts.countFailure(conn.id, at(9), 'authStrikes', at(1))).toBeNull();
          expect(await connectedAccounts.countFailure('no-such-connection', at(0), 'authStrikes', at(1))).toBeNull();
          expect(await connectedAccounts.findById(conn.id)).toMatchObject({ refreshFailures: 2, authStrikes: 1 });

          await connectedAccounts.updateCredentials(conn.id, 'sealed:renewed', at(2));
          const renewed = await connectedAccounts.findById(conn.id);
          expect(renewed).not.toHaveProperty('refreshFailures');
          expect(renewed).toMatchObject({ authStrikes: 1, sealedCredentials: 'sealed:renewed' });

          await connectedAccounts.countFailure(conn.id, at(0), 'refreshFailures', at(3));
          await connectedAccounts.clearFailures(conn.id, at(4));
          const cleared = await connectedAccounts.findById(conn.id);
          expect(cleared).not.toHaveProperty('refreshFailures');
          expect(cleared).not.toHaveProperty('authStrikes');

          await connectedAccounts.countFailure(conn.id, at(0), 'authStrikes', at(5));
          await connectedAccounts.setStatusIf(conn.id, at(0), 'reauth_required', at(5), 'max_auth_strikes');
          const reconnected = await connectedAccounts.upsert(aConnectedAccount({ ...key, platform: 'tiktok', connectedAt: at(6) }));
          expect(reconnected.id).toBe(conn.id);
          for (const field of ['authStrikes', 'refreshFailures', 'reauthReason', 'reauthSince']) expect(reconnected).not.toHaveProperty(field);
        });

        it('listByPlatform pages through every connection of a platform, oldest hour first, then by id', async () => {
          const tiktoks = ['c-1', 'c-2', 'c-3'].map((id, i) => aConnectedAccount({ ...key, id, profileUsername: `p${i}`, platform: 'tiktok' }));
          for (const c of [...tiktoks, aConnectedAccount({ ...key, id: 'c-0', platform: 'x' })]) await connectedAccounts.upsert(c);
          const first = await connectedAccounts.listByPlatform('tiktok', { limit: 2 });
          expect(first.items.map((c) => c.id)).toEqual(['c-1', 'c-2']);
          expect(first.next).toEqual(expect.any(String));
          const second = await connectedAccounts.listByPlatform('tiktok', { afterId: first.next!, limit: 2 });
          expect(second).toEqual({ items: [tiktoks[2]] });
          // A connection id (a sweep from before the positions) resumes after that connection.
          expect((await connectedAccounts.listByPlatform('tiktok', { afterId: 'c-1', limit: 5 })).items.map((c) => c.id)).toEqual(['c-2', 'c-3']);
          expect((await connectedAccounts.listByPlatform('tiktok', { afterId: 'c-gone', limit: 5 })).items.map((c) => c.id)).toEqual(['c-1', 'c-2', 'c-3']);
          expect(await connectedAccounts.listByPlatform('bluesky', { limit: 2 })).toEqual({ items: [] });
        });

        it('listByPlatform: a sweep sees every connection once, across hours, whatever reconnects and deletes do meanwhile', async () => {
          const hours = [0, 0, 60, 61, 180, 24 * 60 * 40, 24 * 60 * 40 + 5];
          const made = hours.map((m, i) => aConnectedAccount({ ...key, id: `s-${String(9 - i)}`, profileUsername: `q${i}`, platform: 'tiktok', connectedAt: at(m) }));
          for (const c of [...made].reverse()) await connectedAccounts.upsert(c);
          await connectedAccounts.upsert(aConnectedAccount({ ...key, platform: 'x', connectedAt: at(60) }));
          const expected = [...made].sort((a, b) => {
            const ha = a.connectedAt.toISOString().slice(0, 13); const hb = b.connectedAt.toISOString().slice(0, 13);
            return ha < hb ? -1 : ha > hb ? 1 : a.id < b.id ? -1 : 1;
          }).map((c) => c.id);
          for (const limit of [1, 2, 3, 50]) {
            const seen: string[] = [];
            let afterId: string | undefined;
            for (;;) {
              const page = await connectedAccounts.listByPlatform('tiktok', { limit, ...(afterId ? { afterId } : {}) });
              expect(page.items.length).toBeLessThanOrEqual(limit);
              seen.push(...page.items.map((c) => c.id));
              if (!page.next) break;
              afterId = page.next;
            }
            expect(seen).toEqual(expected);
          }
          // A reconnect keeps the connection's place; a deleted one leaves the sweep.
          await connectedAccounts.upsert(aConnectedAccount({ ...key, profileUsername: 'q0', platform: 'tiktok', connectedAt: at(24 * 60 * 90) }));
          expect(await connectedAccounts.deleteIf(made[3]!.id, made[3]!.connectedAt)).toBe(true);
          expect(await connectedAccounts.deleteByProfile('acct-1', 'q4')).toBe(1);
          const after = (await connectedAccounts.listByPlatform('tiktok', { limit: 50 })).items.map((c) => c.id);
          expect(after).toEqual(expected.filter((id) => id !== made[3]!.id && id !== made[4]!.id));
        });

        it('deleteIf deletes the named generation only', async () => {
          const conn = await connectedAccounts.upsert(aConnectedAccount({ ...key, platform: 'tiktok', connectedAt: at(0) }));
          expect(await connectedAccounts.deleteIf(conn.id, at(1))).toBe(false);
          expect(await connectedAccounts.findById(conn.id)).not.toBeNull();
          expect(await connectedAccounts.deleteIf(conn.id, at(0))).toBe(true);
          expect(await connectedAccounts.findById(conn.id)).toBeNull();
          expect(await connectedAccounts.deleteIf(conn.id, at(0))).toBe(false);
        });
      });
    });
  });
}
