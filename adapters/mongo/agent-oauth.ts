import type { Db } from 'mongodb';
import type { AgentAuthorizationCode, AgentClient, AgentToken } from '../../core/domain/agent-oauth';
import type { AgentOAuthStore } from '../../core/ports/storage/agent-oauth';
import { clean, ensureIndexes, isDuplicateKey, mapDuplicate, strip, type IdDoc } from './collections';
import { expiryHour, expirySweep, type HourSweepOptions } from './hour-sweep';

/** The migration's key (`xh`) for a code or token document written before it. */
export { backfillExpiryHour as backfillAgentGrant } from './hour-sweep';

export const AGENT_OAUTH_COLLECTIONS = {
  clients: 'agent_oauth_clients',
  /** `_id` = the code's hash. */
  codes: 'agent_oauth_codes',
  /** `_id` = the token's hash; access and refresh tokens side by side, `grantId` ties them. */
  tokens: 'agent_oauth_tokens',
} as const;

/**
 * The agent authorization server on MongoDB/FerretDB: unique `_id` inserts, equality finds,
 * single-document filtered updates and deletes. Expiry is `xh` (the hour of expiresAt, on codes,
 * tokens and rotation claims) swept hour by hour by deleteExpired (adapters/mongo/hour-sweep.ts).
 * Client metadata is kept as JSON text (its keys are the client's, not ours).
 */
export async function createMongoAgentOAuthStore(db: Db, opts: { sweep?: HourSweepOptions } = {}): Promise<AgentOAuthStore> {
  const clients = db.collection<IdDoc>(AGENT_OAUTH_COLLECTIONS.clients);
  const codes = db.collection<IdDoc>(AGENT_OAUTH_COLLECTIONS.codes);
  const tokens = db.collection<IdDoc>(AGENT_OAUTH_COLLECTIONS.tokens);
  await ensureIndexes(codes, [{ key: { xh: 1 }, name: 'xh' }]);
  await ensureIndexes(tokens, [{ key: { grantId: 1 }, name: 'grantId' }, { key: { xh: 1 }, name: 'xh' }]);
  const sweepCodes = expirySweep(db, db.collection(AGENT_OAUTH_COLLECTIONS.codes), opts.sweep);
  const sweepTokens = expirySweep(db, db.collection(AGENT_OAUTH_COLLECTIONS.tokens), opts.sweep);
  return {
    clients: {
      async insert(client) {
        const { clientId, metadata, ...rest } = client;
        await mapDuplicate('agent client', () => clients.insertOne({ ...clean(rest), metadataJson: JSON.stringify(metadata), _id: clientId }));
      },
      async find(clientId) {
        const doc = await clients.findOne({ _id: clientId });
        if (!doc) return null;
        const { metadataJson, ...rest } = strip(doc);
        return { ...rest, clientId: doc._id, metadata: JSON.parse(String(metadataJson)) as Record<string, unknown> } as AgentClient;
      },
    },
    codes: {
      async insert(code) {
        const { codeHash, ...rest } = clean(code);
        await mapDuplicate('authorization code', () => codes.insertOne({ ...rest, _id: codeHash, xh: expiryHour(code.expiresAt) }));
      },
      async find(codeHash) {
        const doc = await codes.findOne({ _id: codeHash });
        return doc ? ({ ...strip(doc, 'xh'), codeHash: doc._id } as unknown as AgentAuthorizationCode) : null;
      },
      async consume(codeHash) {
        return (await codes.deleteOne({ _id: codeHash })).deletedCount === 1;
      },
    },
    tokens: {
      async insert(token) {
        const { tokenHash, ...rest } = clean(token);
        await mapDuplicate('agent token', () => tokens.insertOne({ ...rest, _id: tokenHash, xh: expiryHour(token.expiresAt) }));
      },
      async find(tokenHash) {
        const doc = await tokens.findOne({ _id: tokenHash });
        return doc && doc.kind !== 'rotation' ? ({ ...strip(doc, 'xh'), tokenHash: doc._id } as unknown as AgentToken) : null;
      },
      async markRotated(token, at) {
        // The claim is a unique-key insert beside the token (same grant, same expiry): of two
        // concurrent refreshes exactly one inserts it. rotatedAt on the token is for later reads.
        try {
          await tokens.insertOne({ _id: `rotated:${token.tokenHash}`, kind: 'rotation', grantId: token.grantId, expiresAt: token.expiresAt, xh: expiryHour(token.expiresAt), rotatedAt: at });
        } catch (err) {
          if (isDuplicateKey(err)) return false;
          throw err;
        }
        await tokens.updateOne({ _id: token.tokenHash }, { $set: { rotatedAt: at } });
        return true;
      },
      async delete(tokenHash) {
        return (await tokens.deleteOne({ _id: tokenHash })).deletedCount === 1;
      },
      async deleteGrant(grantId) {
        return (await tokens.deleteMany({ grantId })).deletedCount;
      },
    },
    async deleteExpired(now) {
      const [c, t] = await Promise.all([sweepCodes(now), sweepTokens(now)]);
      return c + t;
    },
  };
}
