import type { Db, Document } from 'mongodb';
import type { Platform } from '../../core/domain/platforms';
import { SEALED_FIELDS } from '../../core/domain/sealed-fields';
import type { SealedAt, SecretBox } from '../../core/ports/system';
import { AGENT_OAUTH_COLLECTIONS } from './agent-oauth';
import { COLLECTIONS, type IdDoc } from './collections';

/** A stored field that holds a sealed value, and the place (core/domain/sealed-fields.ts) it is bound to. */
interface SealedField {
  collection: string;
  field: string;
  at(doc: Document): SealedAt;
  /** Where a release before issue 26 kept the value in plain text: sealed into `field`, then removed. */
  plainFrom?: string;
}

/** Every sealed field Herald stores; a new sealed field is one more line here. */
const SEALED: readonly SealedField[] = [
  {
    collection: COLLECTIONS.connectedAccounts, field: 'sealedCredentials',
    at: (doc) => SEALED_FIELDS.connectionCredentials({ accountId: String(doc.accountId), profileUsername: String(doc.profileUsername), platform: doc.platform as Platform }),
  },
  { collection: COLLECTIONS.notificationSettings, field: 'sealedWebhookSecret', at: (doc) => SEALED_FIELDS.webhookSecret(String(doc._id)) },
  { collection: COLLECTIONS.notificationSettings, field: 'sealedSlackWebhookUrl', plainFrom: 'slackWebhookUrl', at: (doc) => SEALED_FIELDS.slackWebhookUrl(String(doc._id)) },
  { collection: AGENT_OAUTH_COLLECTIONS.clients, field: 'sealedSecret', at: (doc) => SEALED_FIELDS.agentClientSecret(String(doc._id)) },
];

export interface ResealReport {
  collection: string;
  field: string;
  /** Documents read. */
  examined: number;
  /** Unbound (`v1`) values sealed again, or plain ones sealed, bound to their place (counted, not written, in a dry run). */
  resealed: number;
  /** Values another writer replaced between the read and the write: theirs is kept (and already bound). */
  changedMeanwhile: number;
  /** Documents whose value does not open with this key: left as they are. */
  unreadable: string[];
}

/**
 * `herald secrets reseal` (apps/cli): seals every value sealed before values were bound to their
 * record (`v1`) again, bound to its place. An ops step, never a request path: it reads each
 * collection once, `batch` documents at a time in `_id` order, and writes one document per
 * value, only if the value is still the one it read (no transactions needed, FerretDB or
 * MongoDB; a daemon writing meanwhile wins). Running it again finds nothing to do.
 */
export async function resealStoredSecrets(db: Db, box: SecretBox, opts: { batch?: number; dryRun?: boolean } = {}): Promise<ResealReport[]> {
  const batch = opts.batch ?? 500;
  const reports: ResealReport[] = [];
  for (const collection of [...new Set(SEALED.map((s) => s.collection))]) {
    const fields = SEALED.filter((s) => s.collection === collection);
    const byField = fields.map((s) => ({ spec: s, report: { collection, field: s.field, examined: 0, resealed: 0, changedMeanwhile: 0, unreadable: [] as string[] } }));
    const col = db.collection<IdDoc>(collection);
    let last: string | undefined;
    for (;;) {
      const docs = await col.find(last === undefined ? {} : { _id: { $gt: last } }).sort({ _id: 1 }).limit(batch).toArray();
      for (const doc of docs) {
        for (const { spec, report } of byField) {
          report.examined += 1;
          const plain = spec.plainFrom ? doc[spec.plainFrom] : undefined;
          const value = doc[spec.field];
          if (typeof plain !== 'string' && (typeof value !== 'string' || !box.isUnbound(value))) continue;
          let resealed: string;
          try {
            resealed = box.seal(typeof plain === 'string' ? plain : box.open(value, spec.at(doc)), spec.at(doc));
          } catch {
            report.unreadable.push(String(doc._id));
            continue;
          }
          if (opts.dryRun) { report.resealed += 1; continue; }
          // Only if the value is still the one read: a writer's newer value is kept.
          const res = typeof plain === 'string'
            ? await col.updateOne({ _id: doc._id, [spec.plainFrom!]: plain }, { $set: { [spec.field]: resealed }, $unset: { [spec.plainFrom!]: '' } })
            : await col.updateOne({ _id: doc._id, [spec.field]: value }, { $set: { [spec.field]: resealed } });
          if (res.matchedCount > 0) report.resealed += 1;
          else report.changedMeanwhile += 1;
        }
      }
      if (docs.length < batch) break;
      last = docs[docs.length - 1]!._id;
    }
    reports.push(...byField.map((f) => f.report));
  }
  return reports;
}
