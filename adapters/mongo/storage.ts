import type { Collection, Db, Document, Filter, IndexSpecification } from 'mongodb';
import type { ApiKey, OperatorAccount } from '../../core/domain/operator';
import type { Profile } from '../../core/domain/profile';
import type { QueueSettings } from '../../core/domain/queue';
import type { ConnectedAccount } from '../../core/domain/connected-account';
import type { TargetResult, UploadRequest, UploadStatus } from '../../core/domain/upload';
import {
  DuplicateKeyError,
  type ApiKeyRepository,
  type ConnectedAccountRepository,
  type OperatorAccountRepository,
  type ProfileRepository,
  type Storage,
  type UploadHistoryQuery,
  type UploadRepository,
  type OAuthState,
  type OAuthStateRepository,
  type QueueRepository,
} from '../../core/ports/storage';

/**
 * Storage on the official MongoDB driver. Restricted to what FerretDB 1.x also implements:
 * single-document writes (filtered `$set` updates, upserts), unique indexes, plain finds with
 * sort/skip/limit and countDocuments. No transactions, TTL/partial indexes, $lookup or collation.
 */
export const COLLECTIONS = {
  operators: 'operator_accounts',
  apiKeys: 'api_keys',
  profiles: 'profiles',
  connectedAccounts: 'connected_accounts',
  uploads: 'uploads',
  /** One document per platform target: its result and its latest dispatch. */
  uploadTargets: 'upload_targets',
  oauthStates: 'oauth_states',
  queueSettings: 'queue_settings',
  /** One document per taken place of a queue slot: `_id` = account|profile|slot|place. */
  queueSlots: 'queue_slots',
} as const;

interface IndexDef {
  key: IndexSpecification;
  name: string;
  unique?: boolean;
}

const INDEXES: Record<keyof typeof COLLECTIONS, IndexDef[]> = {
  operators: [{ key: { email: 1 }, name: 'email_unique', unique: true }],
  apiKeys: [
    { key: { hash: 1 }, name: 'hash_unique', unique: true },
    { key: { accountId: 1 }, name: 'accountId' },
  ],
  profiles: [{ key: { accountId: 1, username: 1 }, name: 'accountId_username_unique', unique: true }],
  connectedAccounts: [
    {
      key: { accountId: 1, profileUsername: 1, platform: 1 },
      name: 'accountId_profileUsername_platform_unique',
      unique: true,
    },
  ],
  uploads: [
    { key: { accountId: 1, requestId: 1 }, name: 'accountId_requestId_unique', unique: true },
    { key: { accountId: 1, jobId: 1 }, name: 'accountId_jobId' },
    { key: { accountId: 1, createdAt: -1 }, name: 'accountId_createdAt' },
    { key: { status: 1, createdAt: 1 }, name: 'status_createdAt' },
    { key: { connectionIds: 1, capDay: 1 }, name: 'connectionIds_capDay' },
    { key: { accountId: 1, contentHash: 1, createdAt: -1 }, name: 'accountId_contentHash_createdAt' },
  ],
  uploadTargets: [{ key: { accountId: 1, requestId: 1 }, name: 'accountId_requestId' }],
  // Expiry is a field plus periodic cleanup: FerretDB has no TTL indexes.
  oauthStates: [{ key: { expiresAt: 1 }, name: 'expiresAt' }],
  queueSettings: [],
  queueSlots: [{ key: { accountId: 1, profileUsername: 1, slotAt: 1 }, name: 'accountId_profile_slotAt' }],
};

/** Builds the Storage on `db`, creating its indexes first (idempotent: same names, same specs). */
export async function createMongoStorage(db: Db): Promise<Storage> {
  for (const [repo, defs] of Object.entries(INDEXES) as [keyof typeof COLLECTIONS, IndexDef[]][]) {
    const collection = db.collection(COLLECTIONS[repo]);
    // One index at a time: FerretDB serializes DDL per collection and the list is short.
    for (const def of defs) {
      await collection.createIndex(def.key, { name: def.name, ...(def.unique ? { unique: true } : {}) });
    }
  }
  return {
    operators: mongoOperators(db.collection<IdDoc>(COLLECTIONS.operators)),
    apiKeys: mongoApiKeys(db.collection<IdDoc>(COLLECTIONS.apiKeys)),
    profiles: mongoProfiles(db.collection(COLLECTIONS.profiles)),
    connectedAccounts: mongoConnectedAccounts(db.collection<IdDoc>(COLLECTIONS.connectedAccounts)),
    uploads: mongoUploads(db.collection(COLLECTIONS.uploads), db.collection<TargetDoc>(COLLECTIONS.uploadTargets)),
    oauthStates: mongoOAuthStates(db.collection<IdDoc>(COLLECTIONS.oauthStates)),
    queues: mongoQueues(db.collection<IdDoc>(COLLECTIONS.queueSettings), db.collection<IdDoc>(COLLECTIONS.queueSlots)),
  };
}

function isDuplicateKey(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 11000;
}

/**
 * Concurrent upserts of one key race on the unique index: MongoDB retries that server-side,
 * FerretDB answers E11000 to the losers, which match the winner's document on a retry.
 */
async function retryDuplicateUpsert<T>(op: () => Promise<T>, what = 'document'): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await op();
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      if (attempt >= UPSERT_ATTEMPTS) throw new DuplicateKeyError(what);
    }
  }
}

async function mapDuplicate<T>(what: string, op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (err) {
    if (isDuplicateKey(err)) throw new DuplicateKeyError(what);
    throw err;
  }
}

/**
 * Copy of plain data without `undefined` properties: the driver would otherwise store them as
 * null and an optional field would come back as null instead of absent.
 */
function clean<T>(value: T): T {
  if (value instanceof Date) return value;
  if (Array.isArray(value)) return value.map((v) => clean(v)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (v !== undefined) out[k] = clean(v);
    }
    return out as T;
  }
  return value;
}

/** Removes `_id` and the given storage-only fields from a stored document. */
function strip(doc: Document, ...storageOnly: string[]): Record<string, unknown> {
  const { _id, ...rest } = doc;
  void _id;
  for (const field of storageOnly) delete rest[field];
  return rest;
}

/** A stored document whose `_id` is the entity's string `id`. */
interface IdDoc extends Document {
  _id: string;
}

/** Stored documents whose `_id` is the entity's `id`. */
function fromIdDoc<T>(doc: Document | null): T | null {
  if (!doc) return null;
  return { ...strip(doc), id: doc._id as string } as T;
}

function toIdDoc<T extends { id: string }>(entity: T): IdDoc {
  const { id, ...rest } = clean(entity);
  return { ...rest, _id: id };
}

function mongoOperators(col: Collection<IdDoc>): OperatorAccountRepository {
  return {
    async insert(account) {
      await mapDuplicate('operator account', () => col.insertOne(toIdDoc(account)));
    },
    async findById(id) {
      return fromIdDoc<OperatorAccount>(await col.findOne({ _id: id }));
    },
    async findByEmail(email) {
      return fromIdDoc<OperatorAccount>(await col.findOne({ email }));
    },
    async updatePlan(id, plan) {
      await col.updateOne({ _id: id }, { $set: { plan } });
    },
  };
}

function mongoApiKeys(col: Collection<IdDoc>): ApiKeyRepository {
  return {
    async insert(key) {
      await mapDuplicate('api key', () => col.insertOne(toIdDoc(key)));
    },
    async findByHash(hash) {
      return fromIdDoc<ApiKey>(await col.findOne({ hash }));
    },
    async listByAccount(accountId) {
      const docs = await col.find({ accountId }).sort({ createdAt: 1, _id: 1 }).toArray();
      return docs.map((d) => fromIdDoc<ApiKey>(d) as ApiKey);
    },
    async revoke(accountId, keyId, at) {
      const res = await col.updateOne({ _id: keyId, accountId, revokedAt: null }, {
        $set: { revokedAt: at },
      });
      return res.matchedCount > 0;
    },
    async touch(keyId, at) {
      await col.updateOne({ _id: keyId }, { $set: { lastUsedAt: at } });
    },
  };
}

function mongoProfiles(col: Collection<Document>): ProfileRepository {
  const fromDoc = (doc: Document | null): Profile | null => (doc ? (strip(doc) as unknown as Profile) : null);
  return {
    async insert(profile) {
      await mapDuplicate(`profile ${profile.username}`, () => col.insertOne(clean({ ...profile })));
    },
    async find(accountId, username) {
      return fromDoc(await col.findOne({ accountId, username }));
    },
    async list(accountId) {
      const docs = await col.find({ accountId }).sort({ createdAt: 1, username: 1 }).toArray();
      return docs.map((d) => fromDoc(d) as Profile);
    },
    async count(accountId) {
      return col.countDocuments({ accountId });
    },
    async delete(accountId, username) {
      const res = await col.deleteOne({ accountId, username });
      return res.deletedCount > 0;
    },
    async setPin(accountId, username, field, value) {
      await col.updateOne({ accountId, username }, value === null ? { $unset: { [`pins.${field}`]: '' } } : { $set: { [`pins.${field}`]: value } });
    },
  };
}

const UPSERT_ATTEMPTS = 3;

/** Optional ConnectedAccount fields: removed on replace when the new value lacks them. */
// Absent optional fields are unset on upsert: reconnecting ends a pause and clears a checkpoint flag.
const CONNECTED_ACCOUNT_OPTIONAL = ['capabilities', 'restriction', 'checkpointRequired'] as const;

function mongoConnectedAccounts(col: Collection<IdDoc>): ConnectedAccountRepository {
  const fromDoc = (doc: Document | null) => fromIdDoc<ConnectedAccount>(doc);
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
      const update: Document = { $set: fields, $setOnInsert: { _id: id } };
      if (Object.keys(unset).length > 0) update.$unset = unset;
      // The existing connection keeps its _id; a new one takes `account.id`. Concurrent first
      // upserts of one key race on the unique index: MongoDB retries that server-side, FerretDB
      // answers E11000 to the losers, which then match the winner's document on a retry. An
      // E11000 that persists is a real conflict (`account.id` taken by another connection).
      await retryDuplicateUpsert(() => col.updateOne(filter, update, { upsert: true }), 'connected account');
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
      const docs = await col.find({ accountId, profileUsername }).sort({ platform: 1 }).toArray();
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
      await col.updateOne({ _id: id }, { $set: { sealedCredentials, updatedAt: at } });
    },
    async deleteByProfile(accountId, profileUsername) {
      const res = await col.deleteMany({ accountId, profileUsername });
      return res.deletedCount;
    },
  };
}

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
}

const targetId = (accountId: string, requestId: string, platform: string) => `${accountId}:${requestId}:${platform}`;

function toUploadDoc(upload: UploadRequest): Document {
  const { results: _results, dispatches: _dispatches, ...rest } = clean(upload);
  void _results;
  void _dispatches;
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

function mongoUploads(col: Collection<Document>, targets: Collection<TargetDoc>): UploadRepository {
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
          { $set: { result: clean(result), resultAt: at }, $setOnInsert: { accountId, requestId, platform: result.platform } },
          { upsert: true },
        );
        if (res.modifiedCount === 1 || res.upsertedCount === 1) return result;
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
      // Another result was stored first: that one stands.
      const stored = await targets.findOne({ _id }, { projection: { result: 1 } });
      return stored?.result ?? result;
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
    async findByContentHash(accountId, contentHash, since) {
      const doc = await col.find({ accountId, contentHash, createdAt: { $gte: since }, status: { $ne: 'cancelled' } }).sort({ createdAt: -1 }).limit(1).next();
      return doc ? (await withTargets([doc]))[0]! : null;
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

function mongoOAuthStates(col: Collection<IdDoc>): OAuthStateRepository {
  return {
    async insert(state) {
      await mapDuplicate('oauth state', () => col.insertOne(toIdDoc(state)));
    },
    async take(id, now) {
      // findOneAndDelete is one document operation: of two callbacks racing with one state, one wins.
      const doc = await col.findOneAndDelete({ _id: id });
      const state = fromIdDoc<OAuthState>(doc);
      return state && state.expiresAt > now ? state : null;
    },
    async deleteExpired(now) {
      return (await col.deleteMany({ expiresAt: { $lte: now } })).deletedCount;
    },
  };
}

function mongoQueues(settings: Collection<IdDoc>, slots: Collection<IdDoc>): QueueRepository {
  const settingsId = (accountId: string, profileUsername: string) => `${accountId}|${profileUsername}`;
  const placeId = (accountId: string, profileUsername: string, slotAt: Date, place: number) => `${accountId}|${profileUsername}|${slotAt.toISOString()}|${place}`;
  return {
    async getSettings(accountId, profileUsername) {
      const doc = await settings.findOne({ _id: settingsId(accountId, profileUsername) });
      return doc ? (strip(doc) as unknown as QueueSettings) : null;
    },
    async putSettings(value) {
      const _id = settingsId(value.accountId, value.profileUsername);
      await retryDuplicateUpsert(() => settings.replaceOne({ _id }, { ...clean(value), _id }, { upsert: true }), 'queue settings');
    },
    async reserve(accountId, profileUsername, slotAt, capacity, requestId) {
      for (let place = 0; place < capacity; place += 1) {
        try {
          await slots.insertOne({ _id: placeId(accountId, profileUsername, slotAt, place), accountId, profileUsername, slotAt, requestId });
          return true;
        } catch (err) {
          if (!isDuplicateKey(err)) throw err;
        }
      }
      return false;
    },
    async release(accountId, profileUsername, slotAt, requestId) {
      await slots.deleteMany({ accountId, profileUsername, slotAt, requestId });
    },
    async countInSlot(accountId, profileUsername, slotAt) {
      return slots.countDocuments({ accountId, profileUsername, slotAt });
    },
  };
}
