import type { HeraldEvent, Notifier } from '../../../core/ports/notifications';
import { anUploadCompletedEvent } from '../../support/mothers';
import { freshForEachTest, type MakeRepository } from './repository-under-test';

/** A notifier and what it has kept of one account's events, in the order it hands them on. */
export interface OutboxUnderTest {
  notifier: Notifier;
  emitted(accountId: string): Promise<HeraldEvent[]>;
}

/**
 * What every Notifier must show (port: core/ports/notifications.ts): an emit is idempotent by its
 * delivery key, so a retried activity emits once, and events come back in the order emitted.
 */
export function notificationOutboxContract(name: string, make: MakeRepository<OutboxUnderTest>): void {
  describe(`Notification outbox contract: ${name}`, () => {
    let outbox: OutboxUnderTest;
    freshForEachTest(make, (repository) => {
      outbox = repository;
    });

    it('keeps an emitted event exactly as given', async () => {
      const withJob = anUploadCompletedEvent({ account_id: 'acct-1', job_id: 'job-1' });
      const failed = anUploadCompletedEvent({
        account_id: 'acct-1',
        result: { success: false, url: null, publish_id: null, post_id: null, error: 'rejected' },
      });

      await outbox.notifier.emit(withJob, 'k-1');
      await outbox.notifier.emit(failed, 'k-2');

      const kept = await outbox.emitted('acct-1');
      expect(kept).toEqual([withJob, failed]);
      expect(kept[1]).not.toHaveProperty('job_id');
    });

    it('keeps one event per delivery key: the first', async () => {
      const first = anUploadCompletedEvent({ account_id: 'acct-1', title: 'first' });
      const retried = anUploadCompletedEvent({ account_id: 'acct-1', title: 'retried' });

      await outbox.notifier.emit(first, 'upload_completed:acct-1:r1:0:x');
      await outbox.notifier.emit(retried, 'upload_completed:acct-1:r1:0:x');
      await outbox.notifier.emit(first, 'upload_completed:acct-1:r1:0:x');

      expect(await outbox.emitted('acct-1')).toEqual([first]);
    });

    it('keeps one event when emits with one delivery key race', async () => {
      const racers = Array.from({ length: 8 }, (_, i) => anUploadCompletedEvent({ account_id: 'acct-1', title: `racer ${i}` }));

      await Promise.all(racers.map((event) => outbox.notifier.emit(event, 'same-key')));

      const kept = await outbox.emitted('acct-1');
      expect(kept).toHaveLength(1);
      expect(racers).toContainEqual(kept[0]);
    });

    it('keeps equal events with different delivery keys (a retry of the upload is a new delivery)', async () => {
      const event = anUploadCompletedEvent({ account_id: 'acct-1' });

      await outbox.notifier.emit(event, 'upload_completed:acct-1:r1:0:x');
      await outbox.notifier.emit(event, 'upload_completed:acct-1:r1:1:x');

      expect(await outbox.emitted('acct-1')).toEqual([event, event]);
    });

    it('hands events on in the order they were emitted', async () => {
      const events = Array.from({ length: 20 }, (_, i) => anUploadCompletedEvent({ account_id: 'acct-1', title: `event ${i}` }));

      for (const [i, event] of events.entries()) await outbox.notifier.emit(event, `k-${i}`);

      expect((await outbox.emitted('acct-1')).map((e) => (e.event === 'upload_completed' ? e.title : e.event))).toEqual(events.map((e) => e.title));
    });

    it('keeps the events of each account apart', async () => {
      const mine = anUploadCompletedEvent({ account_id: 'acct-1' });
      const theirs = anUploadCompletedEvent({ account_id: 'acct-2' });

      await outbox.notifier.emit(mine, 'k-mine');
      await outbox.notifier.emit(theirs, 'k-theirs');

      expect(await outbox.emitted('acct-1')).toEqual([mine]);
      expect(await outbox.emitted('acct-2')).toEqual([theirs]);
      expect(await outbox.emitted('acct-3')).toEqual([]);
    });
  });
}
