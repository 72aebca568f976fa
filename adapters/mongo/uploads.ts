import type { Db, Document, Filter } from 'mongodb';
import type { PostOperation } from '../../core/domain/post-operations';
import type { TargetResult, UploadRequest, UploadStatus } from '../../core/domain/upload';
import type { UploadHistoryQuery, UploadRepository } from '../../core/ports/storage';
import { clean, COLLECTIONS, ensureIndexes, isDuplicateKey, mapDuplicate, retryDuplicateUpsert, strip } from './collections';

/**
 * Storage-only fields of uploads: the target platforms (history filter), their connections and
 * the UTC day of the post's cap time (`scheduledFor`, else `createdAt`) for the daily caps.
 */
const UPLOAD_STORAGE_ONLY = ['platforms', 'connectionIds', 'capDay', 'results', 'dispatches'];

/** `YYYY-MM-DD` (UTC). */
const utcDay = (d: Date) => d.toISOString().slice(0, 10);
const DAY = 24 * 3600_000;
/** Windows spanning more days than this are counted with one unbucketed query. */
const MAX_BUCKETS = 8;

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

function toUploadDoc(upload: UploadRequest): Document {
  const { results: _results, dispatches: _dispatches, operations: _operations, ...rest } = clean(upload);
  void _results;
  void _dispatches;
  void _operations;
  return {
    ...rest,
    platforms: upload.targets.map((t) => t.platform),
    connectionIds: upload.targets.map((t) => t.connectedAccountId),
    capDay: utcDay(upload.scheduledFor ?? upload.createdAt),
  };
}

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

function historyFilter(q: UploadHistoryQuery): Filter<Document> {
  const filter: Filter<Document> = { accountId: q.accountId };
  if (q.platform !== undefined) filter.platforms = q.platform;
  if (q.status !== undefined) filter.status = q.status;
  if (q.profileUsername !== undefined) filter.profileUsername = q.profileUsername;
  if (q.requestId !== undefined) filter.requestId = q.requestId;
  if (q.jobId !== undefined) filter.jobId = q.jobId;
  if (q.externalId !== undefined) filter.externalId = q.externalId;
  if (q.start !== undefined || q.end !== undefined) {
    filter.createdAt = {
      ...(q.start !== undefined ? { $gte: q.start } : {}),
      ...(q.end !== undefined ? { $lte: q.end } : {}),
    };
  }
  return filter;
}

/**
 * Uploads (one document each, unique per (account, request id)) and their targets (one document
 * per platform target, see TargetDoc).
 */
export async function createMongoUploads(db: Db): Promise<UploadRepository> {
  const col = db.collection<Document>(COLLECTIONS.uploads);
  const targets = db.collection<TargetDoc>(COLLECTIONS.uploadTargets);
  await ensureIndexes(col, [
    { key: { accountId: 1, requestId: 1 }, name: 'accountId_requestId_unique', unique: true },
    { key: { accountId: 1, jobId: 1 }, name: 'accountId_jobId' },
    { key: { accountId: 1, createdAt: -1 }, name: 'accountId_createdAt' },
    { key: { status: 1, createdAt: 1 }, name: 'status_createdAt' },
    { key: { connectionIds: 1, capDay: 1 }, name: 'connectionIds_capDay' },
  ]);
  await ensureIndexes(targets, [
    { key: { accountId: 1, requestId: 1 }, name: 'accountId_requestId' },
    // post-analytics: which upload published a platform post id (an equality lookup).
    { key: { postId: 1, accountId: 1, platform: 1 }, name: 'postId_accountId_platform' },
  ]);
  /**
   * Joins uploads with their target documents (no $lookup on FerretDB): one equality query per
   * upload, run together. FerretDB 1.x pushes plain equalities down to PostgreSQL but evaluates
   * `$in` (and ranges) itself over every document of the collection, which made one `$in` join
   * cost ~230 ms at 2,000 uploads and grow with the collection; the equality query stays ~8 ms.
   */
  const withTargets = async (docs: Document[]): Promise<UploadRequest[]> =>
    Promise.all(docs.map(async (d) => fromUploadDoc(d, await targets.find({ accountId: d.accountId, requestId: d.requestId }).toArray())));
  const one = async (doc: Document | null) => (doc ? (await withTargets([doc]))[0] : null);

  return {
    async insert(upload) {
      await mapDuplicate(`upload ${upload.requestId}`, () => col.insertOne(toUploadDoc(upload)));
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
      const res = await col.updateOne(
        { accountId, requestId, status: { $in: ['pending', 'scheduled'] } },
        { $set: { status: 'in_progress', startedAt: at, updatedAt: at } },
      );
      if (res.modifiedCount === 1) return 'in_progress';
      // Not pending or scheduled (cancelled, a retried start, or no such upload): say what it is.
      const doc = await col.findOne({ accountId, requestId }, { projection: { status: 1 } });
      return doc ? (doc.status as UploadStatus) : null;
    },
    async cancelScheduled(accountId, requestId, at) {
      const res = await col.updateOne({ accountId, requestId, status: 'scheduled' }, { $set: { status: 'cancelled', completedAt: at, updatedAt: at } });
      return res.modifiedCount === 1;
    },
    async updateScheduled(accountId, requestId, patch, at) {
      const res = await col.updateOne(
        { accountId, requestId, status: 'scheduled' },
        { $set: {
          ...clean(patch), platforms: patch.targets.map((t) => t.platform), connectionIds: patch.targets.map((t) => t.connectedAccountId),
          ...(patch.scheduledFor ? { capDay: utcDay(patch.scheduledFor) } : {}), updatedAt: at,
        } },
      );
      return res.modifiedCount === 1;
    },
    async setMedia(accountId, requestId, media, at) {
      const res = await col.updateOne({ accountId, requestId }, { $set: { 'content.media': clean(media), updatedAt: at } });
      return res.matchedCount === 1;
    },
    async postponeScheduled(accountId, requestId, to, warning, at) {
      const res = await col.updateOne(
        { accountId, requestId, status: 'scheduled' },
        { $set: { scheduledFor: to, capDay: utcDay(to), updatedAt: at }, $push: { warnings: warning } as Document, $unset: { queueSlot: '' } },
      );
      return res.modifiedCount === 1;
    },
    async recordDispatch(accountId, requestId, platform, attempt, at) {
      // Attempts of one target run one after another, so this upsert never races itself.
      await retryDuplicateUpsert(() => targets.updateOne(
        { _id: targetId(accountId, requestId, platform) },
        { $set: { dispatch: { attempt, at } }, $setOnInsert: { accountId, requestId, platform } },
        { upsert: true },
      ));
    },
    async recordResult(accountId, requestId, result: TargetResult, at) {
      const _id = targetId(accountId, requestId, result.platform);
      // First result wins: only a document without a result is updated, and the upsert's
      // unique _id stops a second writer from creating a rival document.
      try {
        const res = await targets.updateOne(
          { _id, result: { $exists: false } },
          // postId: the platform post id at the top level, where FerretDB's equality pushdown reaches it (post-analytics source).
          { $set: { result: clean(result), resultAt: at, ...(result.success && result.post_id ? { postId: result.post_id } : {}) }, $setOnInsert: { accountId, requestId, platform: result.platform } },
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
      const res = await col.updateOne(
        { accountId, requestId, status: 'completed' },
        { $set: { status: 'pending', updatedAt: at }, $unset: { completedAt: '' }, $inc: { retryCount: 1 } },
      );
      if (res.modifiedCount !== 1) return null;
      // Each target document on its own (no multi-document transaction): the old result is kept aside.
      for (const platform of platforms) {
        await targets.updateOne({ _id: targetId(accountId, requestId, platform), result: { $exists: true } }, { $rename: { result: 'previousResult' } });
      }
      const doc = await col.findOne({ accountId, requestId }, { projection: { retryCount: 1 } });
      return Number(doc?.retryCount ?? 1);
    },
    async markCompleted(accountId, requestId, at) {
      await col.updateOne(
        { accountId, requestId, status: { $ne: 'completed' } },
        { $set: { status: 'completed', completedAt: at, updatedAt: at } },
      );
    },
    // Equality lookups only (FerretDB pushes them down): the target's result, else an operation that gave the post a new id.
    async findByPostId(accountId, platform, postId) {
      const hit = await targets.findOne({ accountId, platform, 'result.post_id': postId }, { projection: { requestId: 1 } })
        ?? await targets.findOne({ accountId, platform, 'operation.resultPostId': postId }, { projection: { requestId: 1 } });
      return hit ? one(await col.findOne({ accountId, requestId: hit.requestId })) : null;
    },
    async recordPostOperation(operation) {
      const { accountId, requestId, platform } = operation;
      await targets.insertOne({ _id: `${targetId(accountId, requestId, platform)}:op:${operation.id}`, accountId, requestId, platform, operation: clean(operation) });
    },
    async history(query) {
      const filter = historyFilter(query);
      const limit = Math.max(0, Math.floor(query.limit));
      const skip = Math.max(0, (Math.floor(query.page) - 1) * limit);
      const total = await col.countDocuments(filter);
      // limit 0 means "no limit" to the server: an empty page is answered here.
      const docs =
        limit === 0 || skip >= total
          ? []
          : await col.find(filter).sort({ createdAt: -1, requestId: -1 }).skip(skip).limit(limit).toArray();
      return { items: await withTargets(docs), total };
    },
    async countSince(accountId, since) {
      return col.countDocuments({ accountId, createdAt: { $gte: since }, status: { $ne: 'cancelled' } });
    },
    async countForConnection(connectionId, from, to, excludeRequestId) {
      // One equality query per UTC day of the window (FerretDB pushes equalities down, not ranges),
      // so only that connection's posts of those days are read; the exact bounds are applied here.
      const first = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate());
      const days: string[] = [];
      for (let t = first; t <= to.getTime() && days.length <= MAX_BUCKETS; t += DAY) days.push(utcDay(new Date(t)));
      const filters: Filter<Document>[] = days.length > MAX_BUCKETS
        ? [{ connectionIds: connectionId, status: { $ne: 'cancelled' } }]
        : days.map((capDay) => ({ connectionIds: connectionId, capDay, status: { $ne: 'cancelled' } }));
      const found = await Promise.all(filters.map((f) =>
        col.find(f, { projection: { requestId: 1, scheduledFor: 1, createdAt: 1 } }).toArray()));
      return found.flat().filter((d) => {
        const capAt = ((d.scheduledFor as Date | undefined) ?? (d.createdAt as Date)).getTime();
        return capAt >= from.getTime() && capAt <= to.getTime() && d.requestId !== excludeRequestId;
      }).length;
    },
    async listStalePending(olderThan, limit) {
      const n = Math.max(0, Math.floor(limit));
      if (n === 0) return [];
      const docs = await col
        .find({ status: 'pending', createdAt: { $lt: olderThan } })
        .sort({ createdAt: 1, accountId: 1, requestId: 1 })
        .limit(n)
        .toArray();
      return withTargets(docs);
    },
  };
}
