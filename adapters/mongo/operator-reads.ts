import type { Db } from 'mongodb';
import type { ConnectedAccount } from '../../core/domain/connected-account';
import type { OperatorAccount } from '../../core/domain/operator';
import { COLLECTIONS, fromIdDoc } from './collections';

/**
 * Reads across operator accounts, for the operator CLI only (never on a request path): they scan
 * collections, which FerretDB evaluates over every document. The connected accounts are returned
 * without their sealed credentials.
 */
export function createOperatorReads(db: Db) {
  const operators = db.collection(COLLECTIONS.operators);
  const connections = db.collection(COLLECTIONS.connectedAccounts);
  const withoutCredentials = (doc: Record<string, unknown>): Omit<ConnectedAccount, 'sealedCredentials'> => {
    const { sealedCredentials, pk, ...rest } = fromIdDoc<ConnectedAccount & { pk?: string }>(doc)!;
    void sealedCredentials;
    void pk; // the sweep list's key (adapters/mongo/connected-accounts.ts)
    return rest;
  };
  return {
    async listOperators(): Promise<OperatorAccount[]> {
      const docs = await operators.find({}).sort({ email: 1 }).toArray();
      return docs.map((d) => fromIdDoc<OperatorAccount>(d)!);
    },
    /** Connections marked reauth_required (every operator). */
    async needingReauth(): Promise<Array<Omit<ConnectedAccount, 'sealedCredentials'>>> {
      const docs = await connections.find({ status: 'reauth_required' }).toArray();
      return docs.map(withoutCredentials);
    },
    /** Connections paused by a network verdict that has not ended at `now`, or held at a checkpoint. */
    async paused(now: Date): Promise<Array<Omit<ConnectedAccount, 'sealedCredentials'>>> {
      const [restricted, checkpoint] = await Promise.all([
        connections.find({ restriction: { $exists: true } }).toArray(),
        connections.find({ checkpointRequired: true }).toArray(),
      ]);
      const seen = new Set<string>();
      return [...restricted, ...checkpoint].map(withoutCredentials).filter((c) => {
        if (seen.has(c.id)) return false;
        seen.add(c.id);
        return c.checkpointRequired === true || (c.restriction !== undefined && new Date(c.restriction.until) > now);
      });
    },
  };
}

export type OperatorReads = ReturnType<typeof createOperatorReads>;
