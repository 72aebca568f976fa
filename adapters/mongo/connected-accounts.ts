import type { Db, Document } from 'mongodb';
import type { ConnectedAccount } from '../../core/domain/connected-account';
import type { PagePosition } from '../../core/domain/page-cursor';
import type { ConnectedAccountRepository } from '../../core/ports/storage';
import { bucketPage, bucketsOf } from './bucket-list';
import { clean, COLLECTIONS, ensureIndexes, fromIdDoc, retryDuplicateUpsert, strip, type IdDoc } from './collections';
import { listCountersFor, type CounterDelta, type ListCounters } from './list-counters';

/** Optional ConnectedAccount fields: removed on replace when the new value lacks them. */
// Absent optional fields are unset on upsert: reconnecting ends a pause and clears a checkpoint flag.
const CONNECTED_ACCOUNT_OPTIONAL = ['capabilities', 'restriction', 'checkpointRequired', 'refreshFailures', 'authStrikes', 'reauthReason', 'reauthSince'] as const;

/**
 * The sweep list of a network (docs/storage/lists.md), what the refresh-ahead back-fill and the
 * analytics snapshots walk: list id `ca|<platform>`, lane `all`, by the hour the connection was
 * first stored (its connectedAt then). The connection carries its bucket keys `pk` =
 * `ca|<platform>#<bucket>` for that month, day and hour (bucket-list.ts reads whichever a page
 * needs), set when the document is inserted and kept by every later upsert (a reconnect keeps
 * the connection's `_id` and its place in the list).
 */
export const platformList = (platform: string): string => `ca|${encodeURIComponent(platform)}`;
const CONNECTION_STORAGE_ONLY = ['pk'];

/** The list keys of a connection first stored at `at` (its connectedAt then; a stored document's own connectedAt for the migration). */
export const connectedAccountListKeys = (c: { platform: string }, at: Date): { pk: string[] } => ({ pk: bucketsOf(at).map((b) => `${platformList(c.platform)}#${b}`) });

/** The stored document of a new connection (the scale bench's seeding; the repository upserts the same fields). */
export function toConnectedAccountDoc(account: ConnectedAccount): IdDoc {
  const { id, ...fields } = clean(account);
  return { _id: id, ...fields, ...connectedAccountListKeys(account, account.connectedAt) };
}

/** The hour of a stored connection's keys (the one ending in `YYYY-MM-DDTHH`), null without keys. */
function hourOfKey(pk: unknown): string | null {
  const hourKey = (Array.isArray(pk) ? pk : [pk]).find((k): k is string => typeof k === 'string' && /#\d{4}-\d{2}-\d{2}T\d{2}$/.test(k));
  return hourKey ? hourKey.slice(-13) : null;
}
const hourStart = (hour: string) => Date.parse(`${hour}:00:00.000Z`);

/**
 * The counter deltas of a connection entering (+1) or leaving (-1) its network's sweep list, at
 * the hour of its `pk`; a stored document without one (from before the keys) enters at its
 * connectedAt (the hour `backfillConnectedAccount` gives it) and, never counted, leaves nothing.
 */
export function connectedAccountCounterDeltas(c: Document | { platform: string; pk?: string[]; connectedAt: Date }, by = 1): CounterDelta[] {
  const hour = hourOfKey(c.pk);
  if ((!hour && by < 0) || typeof c.platform !== 'string') return [];
  const at = hour ? new Date(hourStart(hour)) : c.connectedAt instanceof Date ? c.connectedAt : null;
  return at ? [{ list: platformList(c.platform), lane: 'all', at, by }] : [];
}

/** Migration: the list key a connection document written before them lacks (null when it has one). */
export function backfillConnectedAccount(doc: Document): { $set: Document } | null {
  if (hourOfKey(doc.pk) || typeof doc.platform !== 'string' || !(doc.connectedAt instanceof Date)) return null;
  return { $set: connectedAccountListKeys({ platform: doc.platform }, doc.connectedAt) };
}

/**
 * A sweep position as text (`<YYYY-MM-DDTHH>|<id>`): what `listByPlatform` hands out as `next`
 * and takes back as `afterId`.
 */
const encodeSweep = (p: PagePosition) => `${p.hour}|${p.id}`;
function decodeSweep(text: string): PagePosition | null {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2})\|(.+)$/.exec(text);
  return m ? { hour: m[1]!, t: hourStart(m[1]!), id: m[2]! } : null;
}

/** Connected accounts, `_id` = the connection id; one per (account, profile, platform). */
export async function createMongoConnectedAccounts(db: Db, counters?: ListCounters): Promise<ConnectedAccountRepository> {
  counters ??= await listCountersFor(db);
  const col = db.collection<IdDoc>(COLLECTIONS.connectedAccounts);
  await ensureIndexes(col, [
    {
      key: { accountId: 1, profileUsername: 1, platform: 1 },
      name: 'accountId_profileUsername_platform_unique',
      unique: true,
    },
    { key: { pk: 1 }, name: 'pk' },
  ]);
  const fromDoc = (doc: Document | null) => (doc ? fromIdDoc<ConnectedAccount>({ _id: doc._id, ...strip(doc, ...CONNECTION_STORAGE_ONLY) }) : null);
  /** Where a page of the sweep starts: a position it handed out, or (a value from before it) the connection of that id. */
  const sweepStart = async (afterId: string): Promise<PagePosition | null> => {
    const decoded = decodeSweep(afterId);
    if (decoded) return decoded;
    const doc = await col.findOne({ _id: afterId }, { projection: { pk: 1 } });
    const hour = hourOfKey(doc?.pk);
    return hour ? { hour, t: hourStart(hour), id: afterId } : null;
  };
  return {
    async upsert(account) {
      const { id, ...fields } = clean(account);
      const filter = {
        accountId: account.accountId,
        profileUsername: account.profileUsername,
        platform: account.platform,
      };
      const unset: Record<string, ''> = {};
      for (const field of CONNECTED_ACCOUNT_OPTIONAL) {
        if (account[field] === undefined) unset[field] = '';
      }
      const keys = connectedAccountListKeys(account, account.connectedAt);
      const listed = { platform: account.platform, pk: keys.pk };
      const update: Document = { $set: fields, $setOnInsert: { _id: id, ...keys } };
      if (Object.keys(unset).length > 0) update.$unset = unset;
      // Counted before a document can be inserted (an upsert may insert), uncounted when it
      // matched an existing one instead (which is counted already) or failed: never too low.
      await counters.add(connectedAccountCounterDeltas(listed));
      let inserted = false;
      try {
        // The existing connection keeps its _id; a new one takes `account.id`. Concurrent first
        // upserts of one key race on the unique index: MongoDB retries that server-side, FerretDB
        // answers E11000 to the losers, which then match the winner's document on a retry. An
        // E11000 that persists is a real conflict (`account.id` taken by another connection).
        const res = await retryDuplicateUpsert(() => col.updateOne(filter, update, { upsert: true }), 'connected account');
        inserted = res.upsertedCount === 1;
      } finally {
        if (!inserted) await counters.add(connectedAccountCounterDeltas(listed, -1));
      }
      const stored = fromDoc(await col.findOne(filter));
      if (!stored) throw new Error('connected account vanished right after its upsert');
      return stored;
    },
    async findById(id) {
      return fromDoc(await col.findOne({ _id: id }));
    },
    async find(accountId, profileUsername, platform) {
      return fromDoc(await col.findOne({ accountId, profileUsername, platform }));
    },
    async listByProfile(accountId, profileUsername) {
      // Bounded by design: one connection per network of the profile (the unique index), so a
      // profile holds at most one per network Herald knows. One equality query, sorted here.
      const docs = (await col.find({ accountId, profileUsername }).toArray())
        .sort((a, b) => (a.platform < b.platform ? -1 : a.platform > b.platform ? 1 : 0));
      return docs.map((d) => fromDoc(d) as ConnectedAccount);
    },
    async setStatus(id, status, at) {
      await col.updateOne({ _id: id }, { $set: { status, updatedAt: at } });
    },
    async setRestriction(id, restriction, at) {
      await col.updateOne({ _id: id }, restriction
        ? { $set: { restriction: clean(restriction), updatedAt: at } }
        : { $unset: { restriction: '' }, $set: { updatedAt: at } });
    },
    async setCheckpointRequired(id, required, at) {
      await col.updateOne({ _id: id }, required
        ? { $set: { checkpointRequired: true, updatedAt: at } }
        : { $unset: { checkpointRequired: '' }, $set: { updatedAt: at } });
    },
    async updateCredentials(id, sealedCredentials, at) {
      await col.updateOne({ _id: id }, { $set: { sealedCredentials, updatedAt: at }, $unset: { refreshFailures: '' } });
    },
    // The generation is part of the filter: a reconnect (new connectedAt) or a disconnect (no
    // document) in between makes these no-ops. The outbox's unique delivery key, not this filter,
    // is what keeps each transition's event single (FerretDB may lose one of two concurrent updates).
    async setStatusIf(id, connectedAt, status, at, reauthReason) {
      const update: Document = status === 'reauth_required'
        ? { $set: { status, updatedAt: at, reauthSince: at, ...(reauthReason ? { reauthReason } : {}) } }
        : { $set: { status, updatedAt: at }, $unset: { reauthReason: '', reauthSince: '' } };
      const res = await col.updateOne({ _id: id, connectedAt }, update);
      return res.matchedCount > 0;
    },
    async countFailure(id, connectedAt, counter, at) {
      const res = await col.updateOne({ _id: id, connectedAt }, { $inc: { [counter]: 1 }, $set: { updatedAt: at } });
      if (res.matchedCount === 0) return null;
      const doc = await col.findOne({ _id: id }, { projection: { [counter]: 1 } });
      return doc ? Number((doc as Document)[counter] ?? 0) : null;
    },
    async clearFailures(id, at) {
      await col.updateOne({ _id: id }, { $unset: { refreshFailures: '', authStrikes: '' }, $set: { updatedAt: at } });
    },
    async deleteIf(id, connectedAt) {
      // Uncounted after it is gone (findAndModify takes no projection on FerretDB: the document comes back).
      const gone = await col.findOneAndDelete({ _id: id, connectedAt });
      if (!gone) return false;
      await counters.add(connectedAccountCounterDeltas(gone, -1));
      return true;
    },
    async listByPlatform(platform, page) {
      // Oldest hour first, then by id: the hours holding connections come from the list's
      // counters, each bucket (month, day or hour, as bucket-list.ts plans) one equality read of `pk`.
      const list = platformList(platform);
      const after = page.afterId !== undefined ? await sweepStart(page.afterId) : null;
      const found = await bucketPage({
        counts: await counters.hours(list), lane: 'all', limit: Math.max(0, Math.floor(page.limit)), order: 'asc',
        ...(after ? { after } : {}),
        read: (bucket) => col.find({ pk: `${list}#${bucket}` }).toArray(),
        position: (d: Document) => ({ t: hourStart(hourOfKey(d.pk)!), id: d._id as string }),
      });
      return { items: found.items.map((d) => fromDoc(d) as ConnectedAccount), ...(found.next ? { next: encodeSweep(found.next) } : {}) };
    },
    async deleteByProfile(accountId, profileUsername) {
      // The profile's connections (at most one per network), then each uncounted once deleted.
      const docs = await col.find({ accountId, profileUsername }, { projection: { platform: 1, pk: 1, connectedAt: 1 } }).toArray();
      const res = await col.deleteMany({ accountId, profileUsername });
      await counters.add(docs.flatMap((d) => connectedAccountCounterDeltas(d, -1)));
      return res.deletedCount;
    },
  };
}
