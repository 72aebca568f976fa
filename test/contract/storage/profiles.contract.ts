import { DuplicateKeyError, ProfileLimitError, type ProfileRepository } from '../../../core/ports/storage';
import { aProfile, at } from '../../support/mothers';
import { freshForEachTest, type MakeRepository } from './repository-under-test';

/** The behaviour every ProfileRepository adapter must show. Each test gets a fresh, empty one from `make`. */
export function profilesContract(name: string, make: MakeRepository<ProfileRepository>): void {
  describe(`Storage contract: ${name}`, () => {
    let profiles: ProfileRepository;
    freshForEachTest(make, (repository) => {
      profiles = repository;
    });

    describe('profiles', () => {
      it('stores a profile and finds it by account and username', async () => {
        const profile = aProfile({ accountId: 'acct-1', uiLabels: { logo: 'https://l.example.test/a.png' } });
        await profiles.insert(profile);

        const found = await profiles.find('acct-1', profile.username);

        expect(found).toEqual(profile);
        expect(found?.createdAt).toBeInstanceOf(Date);
        expect(found).not.toHaveProperty('_id');
        expect(await profiles.find('acct-2', profile.username)).toBeNull();
      });

      it('rejects a second profile with the same username in the same account', async () => {
        await profiles.insert(aProfile({ accountId: 'acct-1', username: 'alice' }));

        await expect(profiles.insert(aProfile({ accountId: 'acct-1', username: 'alice' }))).rejects.toBeInstanceOf(
          DuplicateKeyError,
        );
        expect(await profiles.count('acct-1')).toBe(1);
      });

      it('allows the same username under another account', async () => {
        const mine = aProfile({ accountId: 'acct-1', username: 'alice' });
        const theirs = aProfile({ accountId: 'acct-2', username: 'alice', uiLabels: { x: 'y' } });
        await profiles.insert(mine);
        await profiles.insert(theirs);

        expect(await profiles.find('acct-1', 'alice')).toEqual(mine);
        expect(await profiles.find('acct-2', 'alice')).toEqual(theirs);
      });

      it('lists and counts the profiles of one account, oldest first', async () => {
        const b = aProfile({ accountId: 'acct-1', username: 'bob', createdAt: at(2) });
        const a = aProfile({ accountId: 'acct-1', username: 'alice', createdAt: at(1) });
        const foreign = aProfile({ accountId: 'acct-2', username: 'carol' });
        for (const p of [b, foreign, a]) await profiles.insert(p);

        expect(await profiles.list('acct-1')).toEqual([a, b]);
        expect(await profiles.count('acct-1')).toBe(2);
        expect(await profiles.count('acct-2')).toBe(1);
        expect(await profiles.count('acct-3')).toBe(0);
        expect(await profiles.list('acct-3')).toEqual([]);
      });

      it('insert with a limit refuses a profile past it, strictly, and the count follows every insert and delete', async () => {
        await profiles.insert(aProfile({ accountId: 'acct-1', username: 'a', createdAt: at(1) }), { limit: 2 });
        await profiles.insert(aProfile({ accountId: 'acct-1', username: 'b', createdAt: at(90) }), { limit: 2 });
        await expect(profiles.insert(aProfile({ accountId: 'acct-1', username: 'c' }), { limit: 2 })).rejects.toBeInstanceOf(ProfileLimitError);
        await expect(profiles.insert(aProfile({ accountId: 'acct-1', username: 'a' }), { limit: 5 })).rejects.toBeInstanceOf(DuplicateKeyError);
        expect(await profiles.count('acct-1')).toBe(2);
        expect(await profiles.find('acct-1', 'c')).toBeNull();
        // Another account has its own room; a delete makes room again.
        await profiles.insert(aProfile({ accountId: 'acct-2', username: 'c' }), { limit: 1 });
        expect(await profiles.delete('acct-1', 'a')).toBe(true);
        expect(await profiles.count('acct-1')).toBe(1);
        await profiles.insert(aProfile({ accountId: 'acct-1', username: 'c', createdAt: at(200) }), { limit: 2 });
        expect((await profiles.list('acct-1')).map((p) => p.username)).toEqual(['b', 'c']);
        expect(await profiles.count('acct-1')).toBe(2);
      });

      it('racing inserts with a limit never store more than it', async () => {
        const results = await Promise.allSettled(['p1', 'p2', 'p3', 'p4', 'p5', 'p6'].map((username) =>
          profiles.insert(aProfile({ accountId: 'acct-1', username }), { limit: 3 })));
        const stored = await profiles.list('acct-1');
        expect(stored.length).toBeLessThanOrEqual(3);
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(stored.length);
        for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(ProfileLimitError);
        expect(await profiles.count('acct-1')).toBe(stored.length);
      });

      it('deletes one profile and says whether there was one', async () => {
        const mine = aProfile({ accountId: 'acct-1', username: 'alice' });
        const theirs = aProfile({ accountId: 'acct-2', username: 'alice' });
        await profiles.insert(mine);
        await profiles.insert(theirs);

        expect(await profiles.delete('acct-1', 'alice')).toBe(true);
        expect(await profiles.delete('acct-1', 'alice')).toBe(false);
        expect(await profiles.find('acct-1', 'alice')).toBeNull();
        expect(await profiles.count('acct-1')).toBe(0);
        expect(await profiles.find('acct-2', 'alice')).toEqual(theirs);
      });

      it('accepts the username again after a delete', async () => {
        await profiles.insert(aProfile({ accountId: 'acct-1', username: 'alice' }));
        await profiles.delete('acct-1', 'alice');
        const again = aProfile({ accountId: 'acct-1', username: 'alice', createdAt: at(3) });

        await profiles.insert(again);

        expect(await profiles.find('acct-1', 'alice')).toEqual(again);
      });

      it('hands out copies', async () => {
        const profile = aProfile({ accountId: 'acct-1', username: 'alice', uiLabels: { a: '1' } });
        await profiles.insert(profile);
        const snapshot = structuredClone(profile);

        profile.uiLabels.a = 'mutated';
        const found = await profiles.find('acct-1', 'alice');
        found!.uiLabels.b = 'added';
        const [listed] = await profiles.list('acct-1');
        listed!.createdAt.setTime(0);

        expect(await profiles.find('acct-1', 'alice')).toEqual(snapshot);
      });
    });

    describe('profile pins', () => {
      it('sets and removes pinned fields of one profile', async () => {
        await profiles.insert(aProfile({ accountId: 'acct-1', username: 'alice' }));
        await profiles.setPin('acct-1', 'alice', 'facebook_page_id', 'p1');
        await profiles.setPin('acct-1', 'alice', 'gbp_location_id', 'l1');
        expect((await profiles.find('acct-1', 'alice'))?.pins).toEqual({ facebook_page_id: 'p1', gbp_location_id: 'l1' });
        await profiles.setPin('acct-1', 'alice', 'facebook_page_id', null);
        expect((await profiles.find('acct-1', 'alice'))?.pins).toEqual({ gbp_location_id: 'l1' });
      });
    });

    describe('profile ui_labels', () => {
      it('replaces the labels whole, and {} clears them; other profiles keep theirs', async () => {
        await profiles.insert(aProfile({ accountId: 'acct-1', username: 'alice', uiLabels: { 'connect.title': 'Old', other: 'x' } }));
        await profiles.insert(aProfile({ accountId: 'acct-1', username: 'bob', uiLabels: { 'connect.title': 'Bob' } }));
        await profiles.setUiLabels('acct-1', 'alice', { 'connect.title': 'New' });
        expect((await profiles.find('acct-1', 'alice'))?.uiLabels).toEqual({ 'connect.title': 'New' });
        await profiles.setUiLabels('acct-1', 'alice', {});
        expect((await profiles.find('acct-1', 'alice'))?.uiLabels).toEqual({});
        expect((await profiles.find('acct-1', 'bob'))?.uiLabels).toEqual({ 'connect.title': 'Bob' });
      });
    });
  });
}
