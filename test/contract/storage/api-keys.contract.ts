import { DuplicateKeyError, type ApiKeyRepository } from '../../../core/ports/storage';
import { anApiKey, at } from '../../support/mothers';
import { freshForEachTest, type MakeRepository } from './repository-under-test';

/** The behaviour every ApiKeyRepository adapter must show. Each test gets a fresh, empty one from `make`. */
export function apiKeysContract(name: string, make: MakeRepository<ApiKeyRepository>): void {
  describe(`Storage contract: ${name}`, () => {
    let apiKeys: ApiKeyRepository;
    freshForEachTest(make, (repository) => {
      apiKeys = repository;
    });

    describe('api keys', () => {
      it('stores a key and finds it by hash, with null revocation and last use', async () => {
        const key = anApiKey({ accountId: 'acct-1' });
        await apiKeys.insert(key);

        const found = await apiKeys.findByHash(key.hash);

        expect(found).toEqual(key);
        expect(found?.revokedAt).toBeNull();
        expect(found?.lastUsedAt).toBeNull();
        expect(found?.createdAt).toBeInstanceOf(Date);
        expect(await apiKeys.findByHash('sha256:unknown')).toBeNull();
      });

      it('rejects a second key with the same hash', async () => {
        await apiKeys.insert(anApiKey({ hash: 'sha256:same' }));

        await expect(apiKeys.insert(anApiKey({ hash: 'sha256:same' }))).rejects.toBeInstanceOf(
          DuplicateKeyError,
        );
      });

      it('lists the keys of one account, oldest first', async () => {
        const newer = anApiKey({ accountId: 'acct-1', createdAt: at(10) });
        const older = anApiKey({ accountId: 'acct-1', createdAt: at(1) });
        const foreign = anApiKey({ accountId: 'acct-2' });
        for (const k of [newer, foreign, older]) await apiKeys.insert(k);

        expect(await apiKeys.listByAccount('acct-1')).toEqual([older, newer]);
        expect(await apiKeys.listByAccount('acct-3')).toEqual([]);
      });

      it('revokes an unrevoked key of the account once', async () => {
        const key = anApiKey({ accountId: 'acct-1' });
        await apiKeys.insert(key);

        expect(await apiKeys.revoke('acct-1', key.id, at(5))).toBe(true);
        expect(await apiKeys.findByHash(key.hash)).toEqual({ ...key, revokedAt: at(5) });

        expect(await apiKeys.revoke('acct-1', key.id, at(9))).toBe(false);
        expect((await apiKeys.findByHash(key.hash))?.revokedAt).toEqual(at(5));
      });

      it('does not revoke a key of another account or an unknown key', async () => {
        const key = anApiKey({ accountId: 'acct-1' });
        await apiKeys.insert(key);

        expect(await apiKeys.revoke('acct-2', key.id, at(5))).toBe(false);
        expect(await apiKeys.revoke('acct-1', 'no-such-key', at(5))).toBe(false);
        expect(await apiKeys.findByHash(key.hash)).toEqual(key);
      });

      it('records the last use of a key', async () => {
        const key = anApiKey();
        const other = anApiKey();
        await apiKeys.insert(key);
        await apiKeys.insert(other);

        await apiKeys.touch(key.id, at(1));
        await apiKeys.touch(key.id, at(2));
        await apiKeys.touch('no-such-key', at(3));

        expect(await apiKeys.findByHash(key.hash)).toEqual({ ...key, lastUsedAt: at(2) });
        expect(await apiKeys.findByHash(other.hash)).toEqual(other);
      });

      it('hands out copies', async () => {
        const key = anApiKey({ accountId: 'acct-1' });
        await apiKeys.insert(key);
        const snapshot = structuredClone(key);

        key.name = 'mutated';
        const [listed] = await apiKeys.listByAccount('acct-1');
        listed!.createdAt.setTime(0);
        listed!.name = 'mutated too';

        expect(await apiKeys.findByHash(snapshot.hash)).toEqual(snapshot);
      });
    });
  });
}
