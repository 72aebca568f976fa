import { DuplicateKeyError, type OAuthStateRepository } from '../../../core/ports/storage';
import { at } from '../../support/mothers';
import { freshForEachTest, type MakeRepository } from './repository-under-test';

/** The behaviour every OAuthStateRepository adapter must show. Each test gets a fresh, empty one from `make`. */
export function oauthStatesContract(name: string, make: MakeRepository<OAuthStateRepository>): void {
  describe(`Storage contract: ${name}`, () => {
    let oauthStates: OAuthStateRepository;
    freshForEachTest(make, (repository) => {
      oauthStates = repository;
    });

    describe('oauth states', () => {
      const state = (id: string, expiresAt: Date) => ({
        id, accountId: 'acct-1', profileUsername: 'alice', platform: 'x' as const, codeVerifier: 'verifier', redirectUri: 'https://h/cb', expiresAt,
      });

      it('hands a state out once, and never after it expired', async () => {
        await oauthStates.insert(state('s1', at(30)));
        await oauthStates.insert(state('s2', at(30)));
        expect(await oauthStates.take('s1', at(1))).toEqual(state('s1', at(30)));
        expect(await oauthStates.take('s1', at(1))).toBeNull();
        expect(await oauthStates.take('s2', at(31))).toBeNull();
        expect(await oauthStates.take('nope', at(1))).toBeNull();
      });

      it('refuses a duplicate state id', async () => {
        await oauthStates.insert(state('dup', at(30)));
        await expect(oauthStates.insert(state('dup', at(30)))).rejects.toBeInstanceOf(DuplicateKeyError);
      });

      it('deletes expired states in the periodic cleanup', async () => {
        await oauthStates.insert(state('old', at(5)));
        await oauthStates.insert(state('new', at(50)));
        expect(await oauthStates.deleteExpired(at(10))).toBe(1);
        expect(await oauthStates.take('new', at(11))).toMatchObject({ id: 'new' });
      });

      it('deletes hour by hour: across hours since the last cleanup, only what is due', async () => {
        for (const [id, minutes] of [['h0', 5], ['h1', 65], ['h2a', 125], ['h2b', 170], ['h6', 400]] as const) await oauthStates.insert(state(id, at(minutes)));
        expect(await oauthStates.deleteExpired(at(10))).toBe(1);
        // Two hours on: hour 01 wholly, and in hour 02 only what is due at 02:10.
        expect(await oauthStates.deleteExpired(at(130))).toBe(2);
        expect(await oauthStates.take('h2b', at(131))).toMatchObject({ id: 'h2b' });
        expect(await oauthStates.deleteExpired(at(130))).toBe(0);
        expect(await oauthStates.deleteExpired(at(401))).toBe(1);
        expect(await oauthStates.take('h6', at(1))).toBeNull();
      });
    });
  });
}
