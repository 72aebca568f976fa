import { createMemoryUploadVersions } from '../../adapters/memory/upload-versions';
import { createRedisUploadVersions } from '../../adapters/redis/upload-versions';
import type { UploadVersions } from '../../core/ports/upload-versions';
import { StatusReadCache } from '../../core/usecases/upload-versions';
import { useTestRedis } from '../support/redis';

/** The upload stamps' contract, in memory and on the real Redis (two "processes": two adapters over one server). */
function contract(name: string, make: () => [UploadVersions, UploadVersions]) {
  describe(`upload stamps (${name})`, () => {
    it('a move by one is seen by the other at once; other accounts keep theirs', async () => {
      const [writer, reader] = make();
      const before = await reader.current('acct_1');
      const other = await reader.current('acct_2');
      await writer.advance('acct_1');
      const after = await reader.current('acct_1');
      expect(after).not.toBe(before);
      expect(await reader.current('acct_1')).toBe(after);
      expect(await reader.current('acct_2')).toBe(other);
      await writer.advance('acct_1');
      expect(await reader.current('acct_1')).not.toBe(after);
    });

    it('a status cache over them reuses an answer until a move, then reads again', async () => {
      const [writer, reader] = make();
      const cache = new StatusReadCache({ ttlMs: 60_000, versions: reader, clock: { now: () => new Date() } });
      let reads = 0;
      const load = async () => ({ read: ++reads });
      expect(await cache.get('acct_3', 'r1', load)).toEqual({ read: 1 });
      expect(await cache.get('acct_3', 'r1', load)).toEqual({ read: 1 });
      await writer.advance('acct_3');
      expect(await cache.get('acct_3', 'r1', load)).toEqual({ read: 2 });
    });
  });
}

const shared = createMemoryUploadVersions();
contract('memory', () => [shared, shared]);

const { redis, prefix } = useTestRedis('upload-stamps');
contract('redis', () => [createRedisUploadVersions(redis(), { keyPrefix: prefix }), createRedisUploadVersions(redis(), { keyPrefix: prefix })]);

describe('upload stamps on an unreachable Redis', () => {
  it('a move does not throw; a read throws, and the status cache then reads storage every time', async () => {
    const down = { get: async () => { throw new Error('down'); }, set: async () => { throw new Error('down'); } } as never;
    const versions = createRedisUploadVersions(down, { keyPrefix: 'x' });
    await expect(versions.advance('acct')).resolves.toBeUndefined();
    await expect(versions.current('acct')).rejects.toThrow('down');
    const cache = new StatusReadCache({ ttlMs: 60_000, versions, clock: { now: () => new Date() } });
    let reads = 0;
    await cache.get('acct', 'r', async () => ++reads);
    await cache.get('acct', 'r', async () => ++reads);
    expect(reads).toBe(2);
  });
});
