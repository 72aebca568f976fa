import { loadConfig } from '../../apps/shared/config';
import { POOLS, concurrencyOf, selectPools } from '../../apps/worker/pools';

/** The pool registry: every pool on a task queue of its own, the notify pool included. */
describe('worker pool registry', () => {
  it('gives every pool its own task queue, derived from HERALD_TASK_QUEUE unless set', () => {
    const config = loadConfig({ HERALD_TASK_QUEUE: 'acme' });
    const queues = POOLS.map((p) => p.taskQueue(config));
    expect(new Set(queues).size).toBe(POOLS.length);
    const notify = POOLS.find((p) => p.name === 'notify')!;
    expect(notify.taskQueue(config)).toBe('acme-notify');
    expect(notify.taskQueue(loadConfig({ HERALD_NOTIFY_TASK_QUEUE: 'alerts' }))).toBe('alerts');
    expect(notify.workflows).toEqual(['notificationChannel']);
    // The channel workflow runs in the notify pool; publish only drains runs an older release started there.
    expect(POOLS.filter((p) => p.workflows.includes('notificationChannel')).map((p) => p.name)).toEqual(['notify']);
  });

  it('selects notify alone, with its own concurrency', () => {
    const config = loadConfig({ HERALD_WORKER_POOLS: 'notify', HERALD_POOL_NOTIFY_CONCURRENCY: '7' });
    expect(selectPools(config).map((p) => p.name)).toEqual(['notify']);
    expect(concurrencyOf(config, selectPools(config)[0]!)).toBe(7);
    expect(concurrencyOf(loadConfig({}), POOLS.find((p) => p.name === 'notify')!)).toBe(50);
    // Unset: every pool in one process (ops/start.sh's worker).
    expect(selectPools(loadConfig({})).map((p) => p.name)).toEqual(expect.arrayContaining(['publish', 'media', 'notify']));
  });
});
