import { randomUUID } from 'node:crypto';
import type { Db } from 'mongodb';
import type { DispatchClaim, DispatchClaims } from '../../core/ports/dispatch-claims';
import { isDuplicateKey } from './collections';

interface ClaimDoc {
  _id: string;
  holder: string;
  /** Renewed by the holder while its call runs; past it, the holder is presumed dead. */
  expiresAt: Date;
}

/**
 * Dispatch claims as documents taken by unique-key inserts: what FerretDB 1.x does atomically (it
 * loses concurrent updates to one document, so no compare-and-set, and no delete-then-insert,
 * which would let a later execution mistake a lapsed claim for none). A call's claims form a
 * chain `<call>#0`, `<call>#1`, …: the first execution inserts #0; taking over a lapsed claim #n
 * is inserting #n+1, which only one execution can do. Only a claim's holder writes its document
 * after that (renewals). The documents stay, one per call (more after takeovers), beside the
 * upload's target documents.
 */
export function createMongoDispatchClaims(db: Db, opts: { now?: () => Date } = {}): DispatchClaims {
  const claims = db.collection<ClaimDoc>('dispatch_claims');
  const now = opts.now ?? (() => new Date());
  const link = (callKey: string, n: number) => `${callKey}#${n}`;
  const take = async (id: string, holder: string, ttlMs: number): Promise<boolean> => {
    try {
      await claims.insertOne({ _id: id, holder, expiresAt: new Date(now().getTime() + ttlMs) });
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  };
  const held = (id: string, holder: string, ttlMs: number, kind: 'claimed' | 'taken_over'): DispatchClaim => {
    const beat = setInterval(() => {
      void claims.updateOne({ _id: id, holder }, { $set: { expiresAt: new Date(now().getTime() + ttlMs) } }).catch(() => undefined);
    }, Math.max(50, Math.floor(ttlMs / 3)));
    beat.unref();
    return { kind, stop: () => clearInterval(beat) };
  };
  return {
    async claim(callKey, { ttlMs }) {
      const holder = randomUUID();
      if (await take(link(callKey, 0), holder, ttlMs)) return held(link(callKey, 0), holder, ttlMs, 'claimed');
      // Walk to the latest claim of the chain (equality lookups; chains longer than one are rare).
      let n = 0;
      let latest = await claims.findOne({ _id: link(callKey, 0) });
      for (;;) {
        const next = await claims.findOne({ _id: link(callKey, n + 1) });
        if (!next) break;
        latest = next;
        n += 1;
      }
      const left = latest ? latest.expiresAt.getTime() - now().getTime() : 0;
      if (left > 0) return { kind: 'busy', retryInMs: left };
      // Its holder stopped renewing: take over with the next link, unless someone just did.
      if (await take(link(callKey, n + 1), holder, ttlMs)) return held(link(callKey, n + 1), holder, ttlMs, 'taken_over');
      return { kind: 'busy', retryInMs: ttlMs };
    },
  };
}
