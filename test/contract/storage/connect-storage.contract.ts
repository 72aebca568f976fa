import type { ConnectLink, ConnectSession } from '../../../core/domain/connect-link';
import type { ConnectStorage } from '../../../core/ports/connect-storage';
import { DuplicateKeyError } from '../../../core/ports/storage';
import { at } from '../../support/mothers';
import { freshForEachTest, type MakeRepository } from './repository-under-test';

/** The behaviour every adapter of the connect page's repositories (links, sessions, preferences) must show. */
export function connectStorageContract(name: string, make: MakeRepository<ConnectStorage>): void {
  describe(`Storage contract: ${name} (connect page)`, () => {
    let repos: ConnectStorage;
    freshForEachTest(make, (repository) => {
      repos = repository;
    });

    const link = (tokenHash: string, expiresAt: Date): ConnectLink => ({
      tokenHash, accountId: 'acct-1', profileUsername: 'alice', createdAt: at(0), expiresAt,
      settings: { platforms: ['tiktok', 'telegram'], showCalendar: true, readonlyCalendar: false, language: 'de', connectTitle: 'T <b>', redirectUrl: 'https://x.test/' },
    });
    const session = (tokenHash: string, sessionHash: string, expiresAt: Date): ConnectSession => ({
      tokenHash, sessionHash, accountId: 'acct-1', profileUsername: 'alice', createdAt: at(1), expiresAt,
    });

    describe('connect links', () => {
      it('stores a link under its token hash and finds it by equality, expired or not', async () => {
        await repos.connectLinks.insert(link('h1', at(30)));
        expect(await repos.connectLinks.findByTokenHash('h1')).toEqual(link('h1', at(30)));
        expect(await repos.connectLinks.findByTokenHash('h2')).toBeNull();
      });

      it('refuses a duplicate token hash', async () => {
        await repos.connectLinks.insert(link('dup', at(30)));
        await expect(repos.connectLinks.insert(link('dup', at(40)))).rejects.toBeInstanceOf(DuplicateKeyError);
      });

      it('deletes expired links in the periodic cleanup', async () => {
        await repos.connectLinks.insert(link('old', at(5)));
        await repos.connectLinks.insert(link('new', at(50)));
        expect(await repos.connectLinks.deleteExpired(at(10))).toBe(1);
        expect(await repos.connectLinks.findByTokenHash('old')).toBeNull();
        expect(await repos.connectLinks.findByTokenHash('new')).not.toBeNull();
      });
    });

    describe('connect sessions', () => {
      it('claims a link once: a second claim of the same link is a DuplicateKeyError', async () => {
        await repos.connectSessions.claim(session('h1', 's1', at(30)));
        await expect(repos.connectSessions.claim(session('h1', 's2', at(30)))).rejects.toBeInstanceOf(DuplicateKeyError);
        expect(await repos.connectSessions.findByTokenHash('h1')).toEqual(session('h1', 's1', at(30)));
      });

      it('of claims racing for one link, exactly one wins', async () => {
        const results = await Promise.allSettled(['a', 'b', 'c', 'd'].map((s) => repos.connectSessions.claim(session('race', s, at(30)))));
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(DuplicateKeyError);
      });

      it('finds a session by its cookie hash until it expires', async () => {
        await repos.connectSessions.claim(session('h1', 's1', at(30)));
        expect(await repos.connectSessions.findBySessionHash('s1', at(29))).toEqual(session('h1', 's1', at(30)));
        expect(await repos.connectSessions.findBySessionHash('s1', at(30))).toBeNull();
        expect(await repos.connectSessions.findBySessionHash('nope', at(1))).toBeNull();
      });

      it('deletes expired sessions', async () => {
        await repos.connectSessions.claim(session('h1', 's1', at(5)));
        await repos.connectSessions.claim(session('h2', 's2', at(50)));
        expect(await repos.connectSessions.deleteExpired(at(10))).toBe(1);
        expect(await repos.connectSessions.findByTokenHash('h1')).toBeNull();
        expect(await repos.connectSessions.findByTokenHash('h2')).not.toBeNull();
      });
    });

    describe('preferences', () => {
      it('is null until saved, then the last saved value, per account', async () => {
        expect(await repos.preferences.get('acct-1')).toBeNull();
        await repos.preferences.set('acct-1', { weekStartDay: 'sunday' }, at(1));
        await repos.preferences.set('acct-1', { weekStartDay: 'friday' }, at(2));
        await repos.preferences.set('acct-2', { weekStartDay: 'monday' }, at(2));
        expect(await repos.preferences.get('acct-1')).toEqual({ weekStartDay: 'friday' });
        expect(await repos.preferences.get('acct-2')).toEqual({ weekStartDay: 'monday' });
      });
    });
  });
}
