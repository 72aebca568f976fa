import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { applyCapabilities, capabilitiesFrom, detectCapabilities } from '../../../adapters/mongo/capabilities';
import { withDatabase } from '../../support/stack';

describe('database capabilities', () => {
  it('reads MongoDB replica sets, standalone servers and FerretDB from buildInfo and hello', () => {
    expect(capabilitiesFrom({ version: '7.0.12' }, { setName: 'rs0', isWritablePrimary: true })).toEqual({
      server: 'mongodb', version: '7.0.12', replicaSet: 'rs0', transactions: true, ttlIndexes: true, lookup: true, partialIndexes: true,
    });
    expect(capabilitiesFrom({ version: '7.0.12' }, { isWritablePrimary: true })).toMatchObject({ transactions: false, ttlIndexes: true, replicaSet: undefined });
    expect(capabilitiesFrom({ version: '6.0.0' }, { msg: 'isdbgrid' })).toMatchObject({ transactions: true });
    expect(capabilitiesFrom({ version: '3.6.0' }, { setName: 'rs0' })).toMatchObject({ transactions: false });
    expect(capabilitiesFrom({ version: '7.0.42', ferretdbVersion: 'v1.24.0', ferretdbFeatures: { aggregationStages: ['$match'] } }, { setName: 'rs0' })).toEqual({
      server: 'ferretdb', version: 'ferretdb v1.24.0 (wire 7.0.42)', replicaSet: 'rs0', transactions: false, ttlIndexes: false, lookup: false, partialIndexes: false,
    });
  });

  // Against the MongoDB-wire database of the test infrastructure (FerretDB here; a MongoDB replica set elsewhere).
  it('detects the live server and creates only the extras it supports', async () => {
    const uri = withDatabase(process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017/herald', `herald_caps_${randomBytes(4).toString('hex')}`);
    const client = await MongoClient.connect(uri, { serverSelectionTimeoutMS: 10_000 });
    try {
      const db = client.db();
      const caps = await detectCapabilities(db);
      const created = await applyCapabilities(db, caps);
      const indexes = await db.collection('credential_leases').listIndexes().toArray().catch(() => []);
      const ttl = indexes.filter((i) => i.expireAfterSeconds !== undefined).map((i) => i.name);
      if (caps.server === 'ferretdb') {
        expect(caps).toMatchObject({ transactions: false, ttlIndexes: false });
        expect(created).toEqual([]);
        expect(ttl).toEqual([]);
      } else {
        expect(created).toEqual(['credential_leases.expiresAt_ttl']);
        expect(ttl).toEqual(['expiresAt_ttl']);
        expect(caps.transactions).toBe(Boolean(caps.replicaSet));
      }
      // Idempotent: a second start changes nothing.
      expect(await applyCapabilities(db, caps)).toEqual(created);
      await db.dropDatabase();
    } finally {
      await client.close();
    }
  });
});
