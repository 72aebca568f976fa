import { createMongoDispatchClaims } from '../../adapters/mongo/dispatch-claims';
import { useTestDatabase } from '../support/mongo-db';

/** Dispatch claims on the MongoDB-wire server at MONGODB_URI (FerretDB in dev and CI), in a database of their own. */
const testDb = useTestDatabase();

describe('dispatch claims (FerretDB)', () => {
  it('gives a call to exactly one of many concurrent executions; the others are told it is busy', async () => {
    const claims = createMongoDispatchClaims(testDb());
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => claims.claim('call-a', { ttlMs: 60_000 })));
    expect(outcomes.filter((o) => o.kind === 'claimed')).toHaveLength(1);
    expect(outcomes.filter((o) => o.kind === 'busy')).toHaveLength(7);
    for (const o of outcomes) if (o.kind !== 'busy') o.stop();
  });

  it('keeps calls independent', async () => {
    const claims = createMongoDispatchClaims(testDb());
    const a = await claims.claim('call-b', { ttlMs: 60_000 });
    const b = await claims.claim('call-c', { ttlMs: 60_000 });
    expect([a.kind, b.kind]).toEqual(['claimed', 'claimed']);
    for (const o of [a, b]) if (o.kind !== 'busy') o.stop();
  });

  it('answers busy with the time left, and lets exactly one execution take over a claim whose holder stopped renewing', async () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const claims = createMongoDispatchClaims(testDb(), { now: () => now });
    const dead = await claims.claim('call-d', { ttlMs: 60_000 });
    if (dead.kind === 'busy') throw new Error('first claim was busy');
    dead.stop(); // its holder "died": no renewals any more
    now = new Date(now.getTime() + 10_000);
    expect(await claims.claim('call-d', { ttlMs: 60_000 })).toEqual({ kind: 'busy', retryInMs: 50_000 });
    now = new Date(now.getTime() + 51_000);
    const takers = await Promise.all(Array.from({ length: 6 }, () => claims.claim('call-d', { ttlMs: 60_000 })));
    expect(takers.filter((o) => o.kind === 'taken_over')).toHaveLength(1);
    expect(takers.filter((o) => o.kind === 'claimed')).toHaveLength(0);
    for (const o of takers) if (o.kind !== 'busy') o.stop();
    // The new holder's claim is alive: later executions wait for it.
    expect((await claims.claim('call-d', { ttlMs: 60_000 })).kind).toBe('busy');
  });

  it('renews a held claim while its call runs, so a slow call is not taken over', async () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const claims = createMongoDispatchClaims(testDb(), { now: () => now });
    const held = await claims.claim('call-e', { ttlMs: 300 });
    if (held.kind === 'busy') throw new Error('first claim was busy');
    // Far past the claim's lifetime on the clock: only a renewal (every ttl/3 while held) keeps it.
    now = new Date(now.getTime() + 3_600_000);
    const docs = testDb().collection<{ _id: string; expiresAt: Date }>('dispatch_claims');
    const deadline = Date.now() + 60_000;
    while ((await docs.findOne({ _id: 'call-e#0' }))!.expiresAt.getTime() <= now.getTime()) {
      if (Date.now() > deadline) throw new Error('the claim was not renewed within 60 s');
      await new Promise((r) => setTimeout(r, 50));
    }
    const other = await claims.claim('call-e', { ttlMs: 300 });
    held.stop();
    expect(other.kind).toBe('busy');
  });
});
