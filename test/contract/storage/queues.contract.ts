import { type QueueRepository } from '../../../core/ports/storage';
import { at } from '../../support/mothers';
import { freshForEachTest, type MakeRepository } from './repository-under-test';

/** The behaviour every QueueRepository adapter must show. Each test gets a fresh, empty one from `make`. */
export function queuesContract(name: string, make: MakeRepository<QueueRepository>): void {
  describe(`Storage contract: ${name}`, () => {
    let queues: QueueRepository;
    freshForEachTest(make, (repository) => {
      queues = repository;
    });

    describe('queues', () => {
      it('stores queue settings per profile', async () => {
        const settings = { accountId: 'acct-1', profileUsername: 'alice', timezone: 'Europe/Paris', slots: [{ day: 'mon' as const, time: '09:00' }], postsPerSlot: 2, updatedAt: at(1) };
        await queues.putSettings(settings);
        await queues.putSettings({ ...settings, postsPerSlot: 3, updatedAt: at(2) });
        expect(await queues.getSettings('acct-1', 'alice')).toEqual({ ...settings, postsPerSlot: 3, updatedAt: at(2) });
        expect(await queues.getSettings('acct-1', 'bob')).toBeNull();
      });

      it('never gives more places in a slot than its capacity, even to racing requests', async () => {
        const wins = await Promise.all(Array.from({ length: 8 }, (_, i) => queues.reserve('acct-1', 'alice', at(60), 3, `r${i}`)));
        expect(wins.filter(Boolean)).toHaveLength(3);
        expect(await queues.countInSlot('acct-1', 'alice', at(60))).toBe(3);
        expect(await queues.countInSlot('acct-1', 'alice', at(61))).toBe(0);
        const winner = `r${wins.indexOf(true)}`;
        await queues.release('acct-1', 'alice', at(60), winner);
        expect(await queues.countInSlot('acct-1', 'alice', at(60))).toBe(2);
        expect(await queues.reserve('acct-1', 'alice', at(60), 3, 'late')).toBe(true);
        expect(await queues.reserve('acct-1', 'alice', at(60), 3, 'later')).toBe(false);
      });
    });
  });
}
