import { createMemoryDuplicateWindow } from '../../adapters/memory/duplicate-window';
import { createRedisDuplicateWindow } from '../../adapters/redis/duplicate-window';
import type { DuplicateWindow } from '../../core/ports/duplicate-window';
import { useTestRedis } from '../support/redis';

/** The duplicate window's claims: one contract, run on the real Redis and on the in-memory version. */
const HOUR = 3600_000;

function contract(name: string, setup: () => { window: DuplicateWindow; expire(key: string): Promise<void> }) {
  describe(`duplicate window (${name})`, () => {
    it('gives a key to its first claimant and names that claimant to every later one', async () => {
      const { window } = setup();
      expect(await window.claim('k1', 'req-a', HOUR)).toBeNull();
      expect(await window.claim('k1', 'req-b', HOUR)).toBe('req-a');
      expect(await window.claim('k1', 'req-a', HOUR)).toBe('req-a');
      expect(await window.claim('k2', 'req-b', HOUR)).toBeNull();
    });

    it('lets only the holder release a claim', async () => {
      const { window } = setup();
      await window.claim('k3', 'req-a', HOUR);
      await window.release('k3', 'req-b');
      expect(await window.claim('k3', 'req-c', HOUR)).toBe('req-a');
      await window.release('k3', 'req-a');
      expect(await window.claim('k3', 'req-c', HOUR)).toBeNull();
    });

    it('frees a claim when the window has passed', async () => {
      const { window, expire } = setup();
      await window.claim('k4', 'req-a', HOUR);
      await expire('k4');
      expect(await window.claim('k4', 'req-b', HOUR)).toBeNull();
    });

    it('has one winner among concurrent claims of one key', async () => {
      const { window } = setup();
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => window.claim('k5', `req-${i}`, HOUR)));
      const winners = answers.filter((a) => a === null);
      expect(winners).toHaveLength(1);
      const winner = `req-${answers.indexOf(null)}`;
      expect(answers.filter((a) => a !== null).every((a) => a === winner)).toBe(true);
    });
  });
}

let now = 0;
contract('memory', () => {
  const window = createMemoryDuplicateWindow({ now: () => new Date(now) });
  return { window, expire: async () => { now += HOUR + 1; } };
});

describe('on Redis', () => {
  const { redis: client, prefix } = useTestRedis('dup');
  let run = 0;
  contract('redis', () => {
    const keyPrefix = `${prefix}:${run++}`;
    const redis = client();
    return {
      window: createRedisDuplicateWindow(redis, { keyPrefix }),
      // Redis expires by its own clock: the key's remaining time is what the window set.
      expire: async (key) => {
        const pttl = await redis.pttl(`${keyPrefix}:${key}`);
        expect(pttl).toBeGreaterThan(HOUR - 60_000);
        expect(pttl).toBeLessThanOrEqual(HOUR);
        await redis.pexpire(`${keyPrefix}:${key}`, 1);
        while (await redis.exists(`${keyPrefix}:${key}`)) await new Promise((r) => setTimeout(r, 5));
      },
    };
  });
});
