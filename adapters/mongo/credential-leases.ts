import { randomUUID } from 'node:crypto';
import type { Db } from 'mongodb';
import { LeaseBusyError, type CredentialLeases } from '../../core/ports/credential-leases';

interface LeaseDoc {
  _id: string;
  holder: string;
  expiresAt: Date;
}

const isDuplicateKey = (err: unknown) => (err as { code?: unknown })?.code === 11000;

/**
 * Refresh leases as one document per connected account, taken by a unique-key insert and
 * released by an equality delete: what FerretDB 1.x does atomically (no transactions, no
 * concurrent updates of one document). A lease whose holder died lapses at `expiresAt`.
 */
export function createMongoCredentialLeases(db: Db, opts: { now?: () => Date; pollMs?: number } = {}): CredentialLeases {
  const leases = db.collection<LeaseDoc>('credential_leases');
  const now = opts.now ?? (() => new Date());
  const pollMs = opts.pollMs ?? 100;
  return {
    async acquire(connectionId, { ttlMs, waitMs }) {
      const holder = randomUUID();
      const deadline = now().getTime() + waitMs;
      for (;;) {
        try {
          await leases.insertOne({ _id: connectionId, holder, expiresAt: new Date(now().getTime() + ttlMs) });
          return async () => {
            await leases.deleteOne({ _id: connectionId, holder });
          };
        } catch (err) {
          if (!isDuplicateKey(err)) throw err;
        }
        const held = await leases.findOne({ _id: connectionId });
        if (held && held.expiresAt.getTime() <= now().getTime()) {
          // Its holder died mid-refresh: remove exactly that lease (a newer one stays) and try again.
          await leases.deleteOne({ _id: connectionId, holder: held.holder });
          continue;
        }
        if (now().getTime() >= deadline) throw new LeaseBusyError(connectionId);
        await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
    },
  };
}
