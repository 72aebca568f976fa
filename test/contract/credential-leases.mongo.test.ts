import { createMongoCredentialLeases } from '../../adapters/mongo/credential-leases';
import { LeaseBusyError } from '../../core/ports/credential-leases';
import { useTestDatabase } from '../support/mongo-db';

/** Refresh leases on the MongoDB-wire server at MONGODB_URI (FerretDB in dev and CI), in a database of their own. */
const testDb = useTestDatabase();

describe('credential leases (FerretDB)', () => {
  it('lets one holder at a time refresh an account, the others waiting their turn', async () => {
    const leases = createMongoCredentialLeases(testDb(), { pollMs: 20 });
    let inside = 0;
    let most = 0;
    const order: number[] = [];
    await Promise.all(Array.from({ length: 5 }, async (_, i) => {
      const release = await leases.acquire('conn-a', { ttlMs: 60_000, waitMs: 60_000 });
      inside += 1;
      most = Math.max(most, inside);
      await new Promise((r) => setTimeout(r, 30));
      order.push(i);
      inside -= 1;
      await release();
    }));
    expect(most).toBe(1);
    expect(order.sort()).toEqual([0, 1, 2, 3, 4]);
  });

  it('keeps accounts independent', async () => {
    const leases = createMongoCredentialLeases(testDb(), { pollMs: 20 });
    const a = await leases.acquire('conn-b', { ttlMs: 60_000, waitMs: 1_000 });
    const b = await leases.acquire('conn-c', { ttlMs: 60_000, waitMs: 1_000 });
    await Promise.all([a(), b()]);
  });

  it('gives up with LeaseBusyError after its wait, and takes over a lease whose holder died', async () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const leases = createMongoCredentialLeases(testDb(), { pollMs: 10, now: () => now });
    await leases.acquire('conn-d', { ttlMs: 60_000, waitMs: 0 }); // never released: its holder "died"
    await expect(leases.acquire('conn-d', { ttlMs: 60_000, waitMs: 0 })).rejects.toBeInstanceOf(LeaseBusyError);
    now = new Date(now.getTime() + 61_000);
    const release = await leases.acquire('conn-d', { ttlMs: 60_000, waitMs: 0 });
    await release();
    expect(await testDb().collection('credential_leases').countDocuments({ _id: 'conn-d' as never })).toBe(0);
  });
});
