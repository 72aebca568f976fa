import type { Db, Document } from 'mongodb';
import type { PagePosition } from '../../core/domain/page-cursor';
import type { PostOperation } from '../../core/domain/post-operations';
import type { TargetResult, UploadRequest, UploadStatus } from '../../core/domain/upload';
import type { ListPage, UploadHistoryQuery, UploadRepository } from '../../core/ports/storage';
import type { UploadListing } from '../../core/ports/storage/uploads';
import { BUCKET_QUERY_COST, bucketPage, bucketsOf } from './bucket-list';
import { clean, COLLECTIONS, ensureIndexes, isDuplicateKey, mapDuplicate, retryDuplicateUpsert, strip } from './collections';
import { hourBucket, laneHours, listCountersFor, type CounterDelta, type HourCounts, type ListCounters } from './list-counters';

/**
 * Storage-only fields of uploads: the target platforms and connections, the list keys (below) and
 * the UTC day of the post's cap time kept by earlier versions.
 */
const UPLOAD_STORAGE_ONLY = ['platforms', 'connectionIds', 'capDay', 'results', 'dispatches', 'hk', 'hs_scheduled', 'hs_pending', 'hs_in_progress', 'hs_completed', 'hs_cancelled', 'xk', 'capk', 'sk', 'pq', 'pendingSince', 'lv', 'tv', 'tr'];

/** The version of the list keys an upload document carries (`lv`); the migration fills older ones. */
export const UPLOAD_LIST_VERSION = 1;
const STATUSES: UploadStatus[] = ['scheduled', 'pending', 'in_progress', 'completed', 'cancelled'];

/** `YYYY-MM-DD` (UTC). */
const enc = encodeURIComponent;

/**
 * The lists an upload is in (docs/storage/lists.md). Each is a list id, a sort time whose hour is
 * the bucket, and the lanes it is counted in:
 * - history, for each combination of the optional profile and platform filters
 *   (`u|<account>|<profile or empty>|<platform or empty>`), by createdAt, lanes `all` and the status;
 *   the record's keys are `hk` and `hs_<status>` (the same keys, under its status's name, moved by
 *   `$rename` when the status changes, so a status change needs no read);
 * - by external id (`x|<account>|<external id>`), by createdAt (`xk`);
 * - by connection for the daily caps (`c|<connection>`), by cap time (scheduledFor, else
 *   createdAt), lanes `all` and `cancelled` (`capk`);
 * - the schedule (`s|<account>`), by scheduledFor, while scheduled (`sk`).
 * `pq` (the hour it became pending) is the stale-pending reconciler's key while pending.
 */
export interface ListedUpload {
  accountId: string;
  requestId: string;
  profileUsername: string;
  platforms: string[];
  connectionIds: string[];
  status: UploadStatus;
  createdAt: Date;
  scheduledFor?: Date;
  externalId?: string;
}

export const historyList = (accountId: string, profile?: string, platform?: string) => `u|${enc(accountId)}|${profile ? enc(profile) : ''}|${platform ?? ''}`;
const externalList = (accountId: string, externalId: string) => `x|${enc(accountId)}|${enc(externalId)}`;
const connectionList = (connectionId: string) => `c|${enc(connectionId)}`;
const scheduleList = (accountId: string) => `s|${enc(accountId)}`;
const keyOf = (list: string, at: Date) => `${list}#${hourBucket(at)}`;
/** A record's keys of one list: its month, day and hour buckets (bucket-list.ts reads whichever the page needs). */
const keysOf = (list: string, at: Date) => bucketsOf(at).map((b) => `${list}#${b}`);

function historyLists(u: Pick<ListedUpload, 'accountId' | 'profileUsername' | 'platforms'>): string[] {
  const out = [historyList(u.accountId), historyList(u.accountId, u.profileUsername)];
  for (const platform of new Set(u.platforms)) out.push(historyList(u.accountId, undefined, platform), historyList(u.accountId, u.profileUsername, platform));
  return out;
}
const capTime = (u: Pick<ListedUpload, 'scheduledFor' | 'createdAt'>) => u.scheduledFor ?? u.createdAt;

/** The counter deltas of an upload entering (+1) or leaving (-1) its lists. */
function listDeltas(u: ListedUpload, by: number): CounterDelta[] {
  const out: CounterDelta[] = [];
  for (const list of historyLists(u)) {
    out.push({ list, lane: 'all', at: u.createdAt, by }, { list, lane: u.status, at: u.createdAt, by });
  }
  if (u.externalId !== undefined) out.push({ list: externalList(u.accountId, u.externalId), lane: 'all', at: u.createdAt, by });
  for (const connectionId of new Set(u.connectionIds)) {
    out.push({ list: connectionList(connectionId), lane: 'all', at: capTime(u), by });
    if (u.status === 'cancelled') out.push({ list: connectionList(connectionId), lane: 'cancelled', at: capTime(u), by });
  }
  if (u.status === 'scheduled' && u.scheduledFor) out.push({ list: scheduleList(u.accountId), lane: 'all', at: u.scheduledFor, by });
  return out;
}

/** What an upload's change does to the counters: it leaves its lists as it was and enters them as it is. */
export const changeDeltas = (before: ListedUpload, after: ListedUpload): CounterDelta[] => [...listDeltas(before, -1), ...listDeltas(after, 1)];
export const uploadCounterDeltas = (u: UploadRequest): CounterDelta[] => listDeltas(listed(u), 1);
/** The counter deltas of a stored upload (as `listedFromDoc` reads it) entering its lists: the migration's recount. */
export const storedCounterDeltas = (u: ListedUpload): CounterDelta[] => listDeltas(u, 1);
/** The lists of an account that exist whatever its uploads are (a recount clears them too). */
export const listLists = (accountId: string): string[] => [historyList(accountId), scheduleList(accountId)];

function listed(u: UploadRequest): ListedUpload {
  return {
    accountId: u.accountId, requestId: u.requestId, profileUsername: u.profileUsername,
    platforms: u.targets.map((t) => t.platform), connectionIds: u.targets.map((t) => t.connectedAccountId),
    status: u.status, createdAt: u.createdAt,
    ...(u.scheduledFor ? { scheduledFor: u.scheduledFor } : {}), ...(u.externalId !== undefined ? { externalId: u.externalId } : {}),
  };
}

/** The list keys of a stored upload document (insert, edit, migration). */
export function listKeys(u: ListedUpload, pendingSince?: Date): Document {
  const hk = historyLists(u).flatMap((list) => keysOf(list, u.createdAt));
  return {
    lv: UPLOAD_LIST_VERSION,
    hk,
    [`hs_${u.status}`]: hk,
    capk: [...new Set(u.connectionIds)].map((c) => keyOf(connectionList(c), capTime(u))),
    ...(u.externalId !== undefined ? { xk: keysOf(externalList(u.accountId, u.externalId), u.createdAt) } : {}),
    ...(u.status === 'scheduled' && u.scheduledFor ? { sk: keysOf(scheduleList(u.accountId), u.scheduledFor) } : {}),
    ...(u.status === 'pending' ? { pq: hourBucket(pendingSince ?? u.createdAt), pendingSince: pendingSince ?? u.createdAt } : {}),
  };
}

/** The fields a status change or an edit reads back (findOneAndUpdate's `before`). */
const LISTED_PROJECTION = { accountId: 1, requestId: 1, profileUsername: 1, platforms: 1, connectionIds: 1, status: 1, createdAt: 1, scheduledFor: 1, externalId: 1 };
export const listedFromDoc = (d: Document): ListedUpload => ({
  accountId: d.accountId, requestId: d.requestId, profileUsername: d.profileUsername,
  platforms: (d.platforms ?? []) as string[], connectionIds: (d.connectionIds ?? []) as string[],
  status: d.status, createdAt: d.createdAt,
  ...(d.scheduledFor ? { scheduledFor: d.scheduledFor } : {}), ...(d.externalId !== undefined ? { externalId: d.externalId } : {}),
});

/**
 * The targets of an upload finish concurrently. FerretDB 1.x applies an update by reading the
 * document and writing it back, so concurrent `$set`s of different fields of one document lose
 * writes (measured: 5 of 40 survived). Each target therefore writes only its own document,
 * `_id` = `<account>:<request>:<platform>`; the upload document sees only sequential writes.
 */
interface TargetDoc extends Document {
  _id: string;
  accountId: string;
  requestId: string;
  platform: string;
  dispatch?: { attempt: number; at: Date };
  result?: TargetResult;
  /** A post operation's document (`<account>:<request>:<platform>:op:<id>`): written once, never updated. */
  operation?: PostOperation;
}

const targetId = (accountId: string, requestId: string, platform: string) => `${accountId}:${requestId}:${platform}`;

/** The stored document of a new upload (the repository's insert, the scale bench's seeding). */
export function toUploadDoc(upload: UploadRequest): Document {
  const { results: _results, dispatches: _dispatches, operations: _operations, ...rest } = clean(upload);
  void _results;
  void _dispatches;
  void _operations;
  return {
    ...rest,
    platforms: upload.targets.map((t) => t.platform),
    connectionIds: upload.targets.map((t) => t.connectedAccountId),
    ...listKeys(listed(upload)),
    tv: TARGETS_KEYED,
  };
}

/**
 * `tv` on an upload stored by this version: every document of its targets carries `th`, the hour
 * keys of the upload's history lists (`<list>#<YYYY-MM-DDTHH>` of its createdAt), so a history
 * page reads the targets of many uploads of one hour in one query (withTargets). `tr` on it: a
 * target has a result since before the upload started (a precheck at the accept, a media URL
 * that failed); without `tr` an upload that has not started has no target document at all.
 * Uploads of earlier versions have neither and are read one by one, as before.
 */
export const TARGETS_KEYED = 1;
/** The `th` keys of an upload's target documents. */
export const targetKeys = (accountId: string, listing: Pick<UploadListing, 'profileUsername' | 'createdAt' | 'targets'>): string[] =>
  historyLists({ accountId, profileUsername: listing.profileUsername, platforms: listing.targets.map((t) => t.platform) }).map((list) => keyOf(list, listing.createdAt));
/** The `th` keys of the target documents of a stored upload (the migration). */
export const targetKeysOfDoc = (d: Document): string[] =>
  targetKeys(d.accountId as string, { profileUsername: d.profileUsername, createdAt: d.createdAt, targets: ((d.platforms ?? []) as string[]).map((platform) => ({ platform })) as UploadListing['targets'] });
const NOT_STARTED: readonly string[] = ['scheduled', 'pending', 'cancelled'];
/** An upload document whose targets have no document: not started, never retried, no early result. */
const hasNoTargets = (d: Document) => d.tv === TARGETS_KEYED && !d.tr && !Number(d.retryCount ?? 0) && NOT_STARTED.includes(d.status as string);

function fromUploadDoc(doc: Document, targets: TargetDoc[]): UploadRequest {
  const upload = strip(doc, ...UPLOAD_STORAGE_ONLY) as unknown as UploadRequest;
  upload.results = {};
  upload.dispatches = {};
  for (const t of targets) {
    if (t.operation) {
      (upload.operations ??= []).push(t.operation);
      continue;
    }
    const platform = t.platform as keyof UploadRequest['results'];
    if (t.result) upload.results[platform] = t.result;
    if (t.dispatch) upload.dispatches[platform] = t.dispatch;
  }
  return upload;
}

const positionOf = (d: Document, time: 'createdAt' | 'scheduledFor') => ({ t: (d[time] as Date).getTime(), id: d.requestId as string });

function matchesHistory(d: Document, q: UploadHistoryQuery): boolean {
  if (q.platform !== undefined && !(d.platforms as string[]).includes(q.platform)) return false;
  if (q.status !== undefined && d.status !== q.status) return false;
  if (q.profileUsername !== undefined && d.profileUsername !== q.profileUsername) return false;
  if (q.start !== undefined && (d.createdAt as Date).getTime() < q.start.getTime()) return false;
  if (q.end !== undefined && (d.createdAt as Date).getTime() > q.end.getTime()) return false;
  if (q.requestId !== undefined && d.requestId !== q.requestId) return false;
  if (q.jobId !== undefined && d.jobId !== q.jobId) return false;
  if (q.externalId !== undefined && d.externalId !== q.externalId) return false;
  return true;
}

/** A page of documents already in memory (exact lookups), in the history's order. */
function pageInMemory(docs: Document[], q: UploadHistoryQuery): { docs: Document[]; total: number; next?: PagePosition } {
  const all = docs.filter((d) => matchesHistory(d, q)).sort((a, b) => {
    const pa = positionOf(a, 'createdAt'); const pb = positionOf(b, 'createdAt');
    return pb.t - pa.t || (pa.id < pb.id ? 1 : pa.id > pb.id ? -1 : 0);
  });
  const limit = Math.max(0, Math.floor(q.limit));
  let from = Math.max(0, (Math.floor(q.page) - 1) * limit);
  if (q.after) {
    const after = q.after;
    from = all.findIndex((d) => { const p = positionOf(d, 'createdAt'); return p.t < after.t || (p.t === after.t && p.id < after.id); });
    if (from < 0) from = all.length;
  }
  const page = all.slice(from, from + limit);
  const last = page[page.length - 1];
  const next = from + limit < all.length && last ? { hour: hourBucket(last.createdAt as Date), ...positionOf(last, 'createdAt') } : undefined;
  return { docs: page, total: all.length, ...(next ? { next } : {}) };
}

/** How a status change moves the status keys: the document's filter and update parts. */
function statusMove(from: UploadStatus, to: UploadStatus, at: Date): { filter: Document; update: Document } {
  const unset: Document = {};
  const set: Document = { status: to, updatedAt: at };
  if (from === 'scheduled') unset.sk = '';
  if (from === 'pending') Object.assign(unset, { pq: '', pendingSince: '' });
  if (to === 'pending') Object.assign(set, { pq: hourBucket(at), pendingSince: at });
  return {
    filter: { status: from },
    update: { $set: set, $rename: { [`hs_${from}`]: `hs_${to}` }, ...(Object.keys(unset).length ? { $unset: unset } : {}) },
  };
}

/**
 * Uploads (one document each, unique per (account, request id)) and their targets (one document
 * per platform target, see TargetDoc). Every list and count reads the list counters and the hour
 * buckets a page falls in (docs/storage/lists.md), never every upload of an account.
 */
export async function createMongoUploads(db: Db, counters?: ListCounters): Promise<UploadRepository> {
  counters ??= await listCountersFor(db);
  const col = db.collection<Document>(COLLECTIONS.uploads);
  const targets = db.collection<TargetDoc>(COLLECTIONS.uploadTargets);
  await ensureIndexes(col, [
    { key: { accountId: 1, requestId: 1 }, name: 'accountId_requestId_unique', unique: true },
    { key: { accountId: 1, jobId: 1 }, name: 'accountId_jobId' },
    // The list keys (FerretDB: the GIN indexes of ops/ferretdb-tune.sh serve their equalities).
    { key: { hk: 1 }, name: 'hk' },
    ...STATUSES.map((st) => ({ key: { [`hs_${st}`]: 1 }, name: `hs_${st}` })),
    { key: { xk: 1 }, name: 'xk' },
    { key: { capk: 1 }, name: 'capk' },
    { key: { sk: 1 }, name: 'sk' },
    { key: { pq: 1 }, name: 'pq' },
  ]);
  await ensureIndexes(targets, [
    { key: { accountId: 1, requestId: 1 }, name: 'accountId_requestId' },
    // post-analytics: which upload published a platform post id (an equality lookup).
    { key: { postId: 1, accountId: 1, platform: 1 }, name: 'postId_accountId_platform' },
    // A history page's targets of one list hour (withTargets).
    { key: { th: 1 }, name: 'th' },
  ]);
  /**
   * Joins uploads with their target documents (no $lookup on FerretDB). An upload that has not
   * started has none (hasNoTargets). The uploads of one hour of the list a page was read from
   * (`ctx`: that list and its counts) are read together by `th` where one query for every target
   * of that list hour costs less than one query per upload (a query counted as BUCKET_QUERY_COST
   * documents); the rest with one equality query each, run together. FerretDB 1.x pushes plain
   * equalities down to PostgreSQL but evaluates `$in` (and ranges) itself over every document of
   * the collection, which made one `$in` join cost ~230 ms at 2,000 uploads.
   */
  const withTargets = async (docs: Document[], ctx?: { list: string; counts: HourCounts }): Promise<UploadRequest[]> => {
    const found = new Map<Document, TargetDoc[]>();
    const single: Document[] = [];
    const byHour = new Map<string, Document[]>();
    for (const d of docs) {
      if (hasNoTargets(d)) found.set(d, []);
      else if (ctx && d.tv === TARGETS_KEYED && !d.tr) {
        const h = hourBucket(d.createdAt as Date);
        (byHour.get(h) ?? byHour.set(h, []).get(h)!).push(d);
      } else single.push(d);
    }
    const reads: Array<Promise<void>> = [];
    for (const [h, group] of byHour) {
      const perUpload = group.reduce((n, d) => n + Math.max(1, (d.platforms as unknown[] | undefined)?.length ?? 1), 0) / group.length;
      const inHour = ctx!.counts.get('all')?.get(h) ?? Infinity;
      if (group.length < 2 || BUCKET_QUERY_COST + inHour * perUpload > group.length * (BUCKET_QUERY_COST + perUpload)) {
        single.push(...group);
        continue;
      }
      reads.push(targets.find({ th: `${ctx!.list}#${h}` }).toArray().then((all) => {
        const byRequest = new Map<string, TargetDoc[]>();
        for (const t of all) (byRequest.get(t.requestId) ?? byRequest.set(t.requestId, []).get(t.requestId)!).push(t);
        for (const d of group) found.set(d, byRequest.get(d.requestId as string) ?? []);
      }));
    }
    for (const d of single) reads.push(targets.find({ accountId: d.accountId, requestId: d.requestId }).toArray().then((t) => { found.set(d, t); }));
    await Promise.all(reads);
    return docs.map((d) => fromUploadDoc(d, found.get(d)!));
  };
  /**
   * The `th` keys of an upload's target documents, from the caller's listing or read; an upload
   * that has not started is marked `tr` first (its targets are read one by one from then on).
   */
  const keysForTargets = async (accountId: string, requestId: string, listing?: UploadListing): Promise<Document> => {
    const d = listing ? null : await col.findOne({ accountId, requestId }, { projection: { accountId: 1, profileUsername: 1, createdAt: 1, platforms: 1, status: 1 } });
    if (!listing && !d) return {};
    if (NOT_STARTED.includes(listing ? listing.status : d!.status)) await col.updateOne({ accountId, requestId }, { $set: { tr: true } });
    return { th: listing ? targetKeys(accountId, listing) : targetKeysOfDoc(d!) };
  };
  const one = async (doc: Document | null) => (doc ? (await withTargets([doc]))[0] : null);

  /**
   * A status change: the document moves (its status keys renamed), then the counters follow.
   * Returns the document as it was, or null when the upload was not in `from`.
   */
  const move = async (accountId: string, requestId: string, from: UploadStatus, to: UploadStatus, at: Date, extra: Document = {}): Promise<Document | null> => {
    const { filter, update } = statusMove(from, to, at);
    const before = await col.findOneAndUpdate(
      { accountId, requestId, ...filter },
      { ...update, $set: { ...(update.$set as Document), ...extra } },
      { returnDocument: 'before' }, // FerretDB's findAndModify takes no projection
    );
    if (!before) return null;
    const was = listedFromDoc(before);
    await counters.add(changeDeltas(was, { ...was, status: to }));
    return before;
  };

  /** Replaces a scheduled upload's listed fields (an edit, a postponement): keys and counters follow. */
  const relist = async (accountId: string, requestId: string, change: (u: ListedUpload) => ListedUpload, set: Document, more: Document = {}): Promise<boolean> => {
    const doc = await col.findOne({ accountId, requestId, status: 'scheduled' }, { projection: LISTED_PROJECTION });
    if (!doc) return false;
    const before = listedFromDoc(doc);
    const after = change(before);
    const deltas = changeDeltas(before, after);
    // Counted in the new place before it is there, uncounted from the old one after: a crash in
    // between leaves a count too high (a total one too large), never a post missing from a list.
    await counters.add(deltas.filter((d) => d.by > 0));
    const res = await col.updateOne({ accountId, requestId, status: 'scheduled' }, { $set: { ...set, ...listKeys(after) }, ...more });
    await counters.add(res.modifiedCount === 1 ? deltas.filter((d) => d.by < 0) : deltas.filter((d) => d.by > 0).map((d) => ({ ...d, by: -d.by })));
    return res.modifiedCount === 1;
  };

  /** pending or scheduled → in_progress (UploadRepository.begin). */
  const begin: UploadRepository['begin'] = async (accountId, requestId, at) => {
    for (const from of ['pending', 'scheduled'] as const) {
      const before = await move(accountId, requestId, from, 'in_progress', at, { startedAt: at });
      if (!before) continue;
      // Moved by this call: the document as it was, moved, and its targets (none to read when it had
      // not started: hasNoTargets), with no second read of the upload.
      const after = { ...before, status: 'in_progress', startedAt: at, updatedAt: at };
      return { status: 'in_progress' as const, upload: hasNoTargets(before) ? fromUploadDoc(after, []) : (await withTargets([after]))[0]! };
    }
    // Not pending or scheduled (cancelled, a retried start, or no such upload): say what it is.
    const doc = await col.findOne({ accountId, requestId }, { projection: { status: 1 } });
    return doc ? { status: doc.status as UploadStatus } : null;
  };

  const readBucket = (field: string, list: string) => (bucket: string) => col.find({ [field]: `${list}#${bucket}` }).toArray();

  return {
    async insert(upload) {
      const deltas = uploadCounterDeltas(upload);
      await counters.add(deltas);
      try {
        await mapDuplicate(`upload ${upload.requestId}`, () => col.insertOne(toUploadDoc(upload)));
      } catch (err) {
        await counters.add(deltas.map((d) => ({ ...d, by: -d.by })));
        throw err;
      }
    },
    async find(accountId, requestId) {
      return one(await col.findOne({ accountId, requestId }));
    },
    async findByJobId(accountId, jobId) {
      return one(await col.findOne({ accountId, jobId }));
    },
    async findRequestIdByPostId(accountId, platform, postId) {
      const doc = await targets.findOne({ postId, accountId, platform }, { projection: { requestId: 1 } });
      return doc?.requestId ?? null;
    },
    async markInProgress(accountId, requestId, at) {
      return (await begin(accountId, requestId, at))?.status ?? null;
    },
    begin,
    async cancelScheduled(accountId, requestId, at) {
      return (await move(accountId, requestId, 'scheduled', 'cancelled', at, { completedAt: at })) !== null;
    },
    async updateScheduled(accountId, requestId, patch, at) {
      return relist(accountId, requestId, (u) => ({
        ...u, platforms: patch.targets.map((t) => t.platform), connectionIds: patch.targets.map((t) => t.connectedAccountId),
        ...(patch.scheduledFor ? { scheduledFor: patch.scheduledFor } : {}),
      }), {
        ...clean(patch), platforms: patch.targets.map((t) => t.platform), connectionIds: patch.targets.map((t) => t.connectedAccountId), updatedAt: at,
      });
    },
    async setMedia(accountId, requestId, media, at) {
      const res = await col.updateOne({ accountId, requestId }, { $set: { 'content.media': clean(media), updatedAt: at } });
      return res.matchedCount === 1;
    },
    async postponeScheduled(accountId, requestId, to, warning, at) {
      return relist(accountId, requestId, (u) => ({ ...u, scheduledFor: to }), { scheduledFor: to, updatedAt: at },
        { $push: { warnings: warning } as Document, $unset: { queueSlot: '' } });
    },
    async recordDispatch(accountId, requestId, platform, attempt, at) {
      const keys = await keysForTargets(accountId, requestId);
      // Attempts of one target run one after another, so this upsert never races itself.
      await retryDuplicateUpsert(() => targets.updateOne(
        { _id: targetId(accountId, requestId, platform) },
        { $set: { dispatch: { attempt, at }, ...keys }, $setOnInsert: { accountId, requestId, platform } },
        { upsert: true },
      ));
    },
    async recordResult(accountId, requestId, result: TargetResult, at, listing) {
      const _id = targetId(accountId, requestId, result.platform);
      const keys = await keysForTargets(accountId, requestId, listing);
      // First result wins: only a document without a result is updated, and the upsert's
      // unique _id stops a second writer from creating a rival document.
      try {
        const res = await targets.updateOne(
          { _id, result: { $exists: false } },
          // postId: the platform post id at the top level, where FerretDB's equality pushdown reaches it (post-analytics source).
          { $set: { result: clean(result), resultAt: at, ...keys, ...(result.success && result.post_id ? { postId: result.post_id } : {}) }, $setOnInsert: { accountId, requestId, platform: result.platform } },
          { upsert: true },
        );
        if (res.modifiedCount === 1 || res.upsertedCount === 1) return result;
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
      // Another result was stored first: that one stands.
      const stored = await targets.findOne({ _id }, { projection: { result: 1 } });
      return (stored?.result as TargetResult | undefined) ?? result;
    },
    async resetForRetry(accountId, requestId, platforms, at) {
      const { filter, update } = statusMove('completed', 'pending', at);
      const before = await col.findOneAndUpdate(
        { accountId, requestId, ...filter },
        { ...update, $unset: { completedAt: '' }, $inc: { retryCount: 1 } },
        { returnDocument: 'before' },
      );
      if (!before) return null;
      const was = listedFromDoc(before);
      await counters.add(changeDeltas(was, { ...was, status: 'pending' }));
      // Each target document on its own (no multi-document transaction): the old result is kept aside.
      for (const platform of platforms) {
        await targets.updateOne({ _id: targetId(accountId, requestId, platform), result: { $exists: true } }, { $rename: { result: 'previousResult' } });
      }
      return Number(before.retryCount ?? 0) + 1;
    },
    async markCompleted(accountId, requestId, at) {
      for (const from of ['in_progress', 'pending', 'scheduled'] as const) {
        if (await move(accountId, requestId, from, 'completed', at, { completedAt: at })) return;
      }
    },
    // Equality lookups only (FerretDB pushes them down): the target's result, else an operation that gave the post a new id.
    async findByPostId(accountId, platform, postId) {
      const hit = await targets.findOne({ accountId, platform, 'result.post_id': postId }, { projection: { requestId: 1 } })
        ?? await targets.findOne({ accountId, platform, 'operation.resultPostId': postId }, { projection: { requestId: 1 } });
      return hit ? one(await col.findOne({ accountId, requestId: hit.requestId })) : null;
    },
    async recordPostOperation(operation, listing) {
      const { accountId, requestId, platform } = operation;
      const keys = await keysForTargets(accountId, requestId, listing);
      await targets.insertOne({ _id: `${targetId(accountId, requestId, platform)}:op:${operation.id}`, accountId, requestId, platform, operation: clean(operation), ...keys });
    },
    async history(query): Promise<ListPage<UploadRequest>> {
      const limit = Math.max(0, Math.floor(query.limit));
      // Exact lookups: one upload, or the uploads sharing an external id; the other filters apply to those.
      if (query.requestId !== undefined || query.jobId !== undefined) {
        const doc = query.requestId !== undefined
          ? await col.findOne({ accountId: query.accountId, requestId: query.requestId })
          : await col.findOne({ accountId: query.accountId, jobId: query.jobId });
        const page = pageInMemory(doc ? [doc] : [], query);
        return { items: await withTargets(page.docs), total: page.total, ...(page.next ? { next: page.next } : {}) };
      }
      const exact = query.externalId !== undefined;
      const list = exact ? externalList(query.accountId, query.externalId!) : historyList(query.accountId, query.profileUsername, query.platform);
      const field = exact ? 'xk' : query.status !== undefined ? `hs_${query.status}` : 'hk';
      const counts = await counters.hours(list);
      if (exact && (query.status !== undefined || query.platform !== undefined || query.profileUsername !== undefined)) {
        // The uploads of one external id, filtered here: as many as share that id.
        const months = [...new Set(laneHours(counts, 'all', query.start, query.end).map(([h]) => h.slice(0, 7)))];
        const docs = (await Promise.all(months.map((m) => readBucket(field, list)(m)))).flat();
        const page = pageInMemory(docs, query);
        return { items: await withTargets(page.docs), total: page.total, ...(page.next ? { next: page.next } : {}) };
      }
      const page = await bucketPage({
        counts, lane: exact ? 'all' : query.status ?? 'all', limit,
        ...(query.start ? { from: query.start } : {}), ...(query.end ? { to: query.end } : {}),
        ...(query.after ? { after: query.after } : { offset: (Math.max(1, Math.floor(query.page)) - 1) * limit }),
        read: readBucket(field, list),
        position: (d: Document) => positionOf(d, 'createdAt'),
      });
      return { items: await withTargets(page.items, exact ? undefined : { list, counts }), total: page.total, ...(page.next ? { next: page.next } : {}) };
    },
    async listScheduled(accountId, q) {
      const list = scheduleList(accountId);
      const page = await bucketPage({
        counts: await counters.hours(list), lane: 'all', limit: Math.max(0, Math.floor(q.limit)), order: 'asc',
        ...(q.after ? { after: q.after } : { offset: q.offset ?? 0 }),
        // The bucket holds what was scheduled for that hour; one that started meanwhile has left it.
        read: async (bucket) => (await col.find({ sk: `${list}#${bucket}` }).toArray()).filter((d) => d.status === 'scheduled'),
        position: (d: Document) => positionOf(d, 'scheduledFor'),
      });
      return { items: await withTargets(page.items), total: page.total, ...(page.next ? { next: page.next } : {}) };
    },
    async countSince(accountId, since) {
      // The account's uploads created since `since`, cancelled ones excluded: counters, and the
      // hour `since` falls in read exactly.
      const list = historyList(accountId);
      const counts = await counters.hours(list);
      const sum = (lane: string) => laneHours(counts, lane, since).reduce((n, [, c]) => n + c, 0);
      let total = sum('all') - sum('cancelled');
      const edge = hourBucket(since);
      if (since.getTime() !== Date.parse(`${edge}:00:00.000Z`)) {
        const docs = await col.find({ hk: `${list}#${edge}` }, { projection: { createdAt: 1, status: 1 } }).toArray();
        total -= docs.filter((d) => (d.createdAt as Date).getTime() < since.getTime() && d.status !== 'cancelled').length;
      }
      return Math.max(0, total);
    },
    async countForConnection(connectionId, from, to, excludeRequestId) {
      const list = connectionList(connectionId);
      const counts = await counters.hours(list);
      const inRange = (lane: string) => laneHours(counts, lane, from, to);
      let total = inRange('all').reduce((n, [, c]) => n + c, 0) - inRange('cancelled').reduce((n, [, c]) => n + c, 0);
      // The hours the window cuts are read and counted exactly; the excluded upload is found where it counts.
      const edges = new Set([hourBucket(from), hourBucket(to)]);
      const exact = (d: Document) => {
        const capAt = ((d.scheduledFor as Date | undefined) ?? (d.createdAt as Date)).getTime();
        return capAt >= from.getTime() && capAt <= to.getTime() && d.status !== 'cancelled';
      };
      let excludedSeen = false;
      for (const hour of edges) {
        const docs = await col.find({ capk: `${list}#${hour}` }, { projection: { requestId: 1, scheduledFor: 1, createdAt: 1, status: 1 } }).toArray();
        total += docs.filter(exact).length - docs.filter((d) => d.status !== 'cancelled').length;
        const excluded = docs.find((d) => d.requestId === excludeRequestId);
        if (excluded) {
          excludedSeen = true;
          if (exact(excluded)) total -= 1;
        }
      }
      if (excludeRequestId !== undefined && !excludedSeen) {
        const doc = await col.findOne({ requestId: excludeRequestId, connectionIds: connectionId }, { projection: { scheduledFor: 1, createdAt: 1, status: 1 } });
        if (doc && exact(doc)) total -= 1;
      }
      return Math.max(0, total);
    },
    async listStalePending(olderThan, limit) {
      const n = Math.max(0, Math.floor(limit));
      if (n === 0) return [];
      // The pending ones of each hour up to `olderThan`, newest hour first, over the reconciler's
      // look-back (STALE_PENDING_LOOKBACK_HOURS): equality reads of bounded buckets.
      const found: Document[] = [];
      const last = Date.parse(`${hourBucket(olderThan)}:00:00.000Z`);
      for (let h = 0; h < STALE_PENDING_LOOKBACK_HOURS && found.length < n; h += 1) {
        const hour = hourBucket(new Date(last - h * 3600_000));
        const docs = await col.find({ pq: hour }).limit(n - found.length).toArray();
        found.push(...docs.filter((d) => ((d.pendingSince ?? d.createdAt) as Date).getTime() < olderThan.getTime() && d.status === 'pending'));
      }
      found.sort((a, b) => (a.createdAt as Date).getTime() - (b.createdAt as Date).getTime() || String(a.accountId).localeCompare(String(b.accountId)) || String(a.requestId).localeCompare(String(b.requestId)));
      return withTargets(found.slice(0, n));
    },
  };
}

/** How far back the stale-pending reconciler looks (hours): a start lost longer ago is not retried. */
export const STALE_PENDING_LOOKBACK_HOURS = 72;
