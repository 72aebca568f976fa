import type { Collection, Document, IndexSpecification } from 'mongodb';
import { DuplicateKeyError } from '../../core/ports/storage';

/**
 * What every Mongo repository shares: collection names, index creation, the document mapping
 * and the duplicate-key mapping. Restricted to what FerretDB 1.x also implements: single-document
 * writes (filtered `$set` updates, upserts), unique indexes, plain finds with sort/skip/limit and
 * countDocuments. No transactions, TTL/partial indexes, $lookup or collation. The number of
 * concurrent operations is bounded by the client's pool (apps/shared/compose.ts), not here.
 *
 * ops/ferretdb-tune.sh indexes the equality-filtered fields of these collections by name: a
 * renamed collection or field must be renamed there too.
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
  /** The notification outbox (adapters/mongo/notifications/outbox.ts). */
  events: 'events',
  /** Notification settings, one document per operator account (adapters/mongo/notifications/settings.ts). */
  notificationSettings: 'notification_settings',
  /** Per-profile webhooks, `_id` = account|profile. */
  profileWebhooks: 'profile_webhooks',
  /** The delivery log: one document per attempt, expiring (adapters/mongo/notifications/delivery-log.ts). */
  deliveryAttempts: 'delivery_attempts',
} as const;

export interface IndexDef {
  key: IndexSpecification;
  name: string;
  unique?: boolean;
}

/** Creates a collection's indexes (idempotent: same names, same specs). */
export async function ensureIndexes<T extends Document>(collection: Collection<T>, defs: IndexDef[]): Promise<void> {
  // One index at a time: FerretDB serializes DDL per collection and the lists are short.
  for (const def of defs) {
    await collection.createIndex(def.key, { name: def.name, ...(def.unique ? { unique: true } : {}) });
  }
}

export function isDuplicateKey(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 11000;
}

const UPSERT_ATTEMPTS = 3;

/**
 * Concurrent upserts of one key race on the unique index: MongoDB retries that server-side,
 * FerretDB answers E11000 to the losers, which match the winner's document on a retry.
 */
export async function retryDuplicateUpsert<T>(op: () => Promise<T>, what = 'document'): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await op();
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      if (attempt >= UPSERT_ATTEMPTS) throw new DuplicateKeyError(what);
    }
  }
}

export async function mapDuplicate<T>(what: string, op: () => Promise<T>): Promise<T> {
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
export function clean<T>(value: T): T {
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
export function strip(doc: Document, ...storageOnly: string[]): Record<string, unknown> {
  const { _id, ...rest } = doc;
  void _id;
  for (const field of storageOnly) delete rest[field];
  return rest;
}

/** A stored document whose `_id` is the entity's string `id`. */
export interface IdDoc extends Document {
  _id: string;
}

/** Stored documents whose `_id` is the entity's `id`. */
export function fromIdDoc<T>(doc: Document | null): T | null {
  if (!doc) return null;
  return { ...strip(doc), id: doc._id as string } as T;
}

export function toIdDoc<T extends { id: string }>(entity: T): IdDoc {
  const { id, ...rest } = clean(entity);
  return { ...rest, _id: id };
}
